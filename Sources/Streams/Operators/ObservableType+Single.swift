extension ObservableType {
  /// Passes on the source's only element and fails if there is not exactly one.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2).single().subscribe { print($0) }
  /// // Prints "next(1)", "error(Sequence contains more than one element.)"
  /// ```
  ///
  /// The first element is emitted as soon as it arrives. Fails with ``RxError/moreThanOneElement``
  /// at a second element (disposing the source), with ``RxError/noElements`` when the source
  /// completes empty, and when the source fails. Completes when the source completes after one
  /// element. Disposal disposes the source.
  public func single(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
    singleMatching(kind: "single", file: file, line: line) { _ in true }
  }

  /// Passes on the only element that satisfies `predicate` and fails if there is not exactly one.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3).single { $0 > 2 }.subscribe { print($0) }
  /// // Prints "next(3)", "completed"
  /// ```
  ///
  /// The first matching element is emitted as soon as it arrives. Fails with
  /// ``RxError/moreThanOneElement`` at a second matching element (disposing the source), with
  /// ``RxError/noElements`` when the source completes without a match, when the source fails, and
  /// when `predicate` throws. Completes when the source completes after one match. Disposal
  /// disposes the source.
  ///
  /// - Parameters:
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  ///   - predicate: Selects the elements that count.
  public func single(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ predicate: @escaping (Element) throws -> Bool
  ) -> Observable<Element> {
    let caller = CallerIsolation(isolation, api: "single", file: file, line: line)
    let predicate = isolation == nil ? predicate : caller.checked(predicate)
    return singleMatching(kind: "single", file: file, line: line, predicate)
  }

  private func singleMatching(
    kind: StaticString, file: StaticString, line: UInt,
    _ predicate: @escaping (Element) throws -> Bool
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(kind: kind, upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      var seen = false
      sink.setUpstream(
        source.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next(let element):
              guard sink.isActive else { return }
              do {
                guard try predicate(element) else { return }
              } catch {
                sink.on(.error(error))
                return
              }
              if seen {
                sink.on(.error(RxError.moreThanOneElement))
                return
              }
              seen = true
              sink.on(event)
            case .error:
              sink.on(event)
            case .completed:
              sink.on(seen ? .completed : .error(RxError.noElements))
            }
          }))
      return sink
    }
  }
}
