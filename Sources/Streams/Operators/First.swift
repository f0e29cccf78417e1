extension ObservableType {
  /// Succeeds with the source's first element, or with `nil` when the source completes empty.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2).first().subscribe(onSuccess: { print($0 as Any) })
  /// // Prints "Optional(1)"
  /// _ = Observable<Int>.empty().first().subscribe(onSuccess: { print($0 as Any) })
  /// // Prints "nil"
  /// ```
  ///
  /// Returns a ``Single`` of an optional, as RxSwift 6 does; its `asObservable()` emits one
  /// element, then `.completed` (or `.error`).
  ///
  /// Completes right after the first element (disposing the source) or when the source completes
  /// empty; fails when the source fails first. Disposal disposes the source.
  public func first(file: StaticString = #fileID, line: UInt = #line) -> Single<Element?> {
    let source = asObservable()
    let first = Observable<Element?>(
      kind: "first", upstreams: [source.traceID], file: file, line: line
    ) { observer in
      let sink = GuardedSink(observer)
      sink.setUpstream(
        source.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next(let element):
              sink.on(.next(element))
              sink.on(.completed)
            case .error(let error):
              sink.on(.error(error))
            case .completed:
              sink.on(.next(nil))
              sink.on(.completed)
            }
          }))
      return sink
    }
    return Single(raw: first)
  }
}
