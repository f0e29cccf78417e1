extension ObservableType {
  /// Emits the source's first element, or `nil` when the source completes empty, then completes.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2).first().subscribe { print($0) }
  /// // Prints "next(Optional(1))", "completed"
  /// _ = Observable<Int>.empty().first().subscribe { print($0) }
  /// // Prints "next(nil)", "completed"
  /// ```
  ///
  /// RxSwift 6 returns `Single<Element?>`; this returns an `Observable<Element?>` with exactly
  /// the events of that single (one element, then `.completed`; or `.error`), so that it can
  /// return the trait once `Single` exists without changing what subscribers see.
  ///
  /// Completes right after the first element (disposing the source) or when the source completes
  /// empty; fails when the source fails first. Disposal disposes the source.
  public func first(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element?> {
    let source = asObservable()
    return Observable(kind: "first", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      sink.setUpstream(
        source.subscribeAny(
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
  }
}
