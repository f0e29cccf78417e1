extension ObservableType {
  /// Emits only the elements that satisfy `predicate`.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3, 4).filter { $0.isMultiple(of: 2) }.subscribe(onNext: { print($0) })
  /// // Prints "2", "4"
  /// ```
  ///
  /// Completes and fails when the source does; a throw from `predicate` becomes `.error` and
  /// disposes the source. Disposal disposes the source.
  @inlinable
  public func filter(
    _ predicate: @escaping (Element) throws -> Bool,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(kind: "filter", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      sink.setUpstream(
        source.subscribeAny(
          AnyObserver { event in
            switch event {
            case .next(let element):
              guard sink.isActive else { return }
              do {
                if try predicate(element) { sink.on(event) }
              } catch {
                sink.on(.error(error))
              }
            case .error, .completed: sink.on(event)
            }
          }))
      return sink
    }
  }
}
