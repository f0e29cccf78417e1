extension ObservableType {
  /// Drops every element and passes on only the terminal event.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2).ignoreElements().subscribe { print($0) }
  /// // Prints "completed"
  /// ```
  ///
  /// Returns `Observable<Never>` as RxSwift 6 does. Completes and fails when the source does;
  /// disposal disposes the source.
  public func ignoreElements(file: StaticString = #fileID, line: UInt = #line)
    -> Observable<Never>
  {
    let source = asObservable()
    return Observable(kind: "ignoreElements", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      sink.setUpstream(
        source.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next: return
            case .error(let error): sink.on(.error(error))
            case .completed: sink.on(.completed)
            }
          }))
      return sink
    }
  }
}
