extension ObservableType {
  /// Pairs each element with its zero-based index in the sequence.
  ///
  /// ```swift
  /// _ = Observable.of("a", "b").enumerated().subscribe(onNext: { print($0.index, $0.element) })
  /// // Prints "0 a", "1 b"
  /// ```
  ///
  /// Every subscription counts from zero. Completes and fails when the source does; fails with
  /// ``RxError/overflow`` if the index would pass `Int.max`. Disposal disposes the source.
  ///
  /// - Returns: An observable of `(index, element)` pairs.
  public func enumerated(file: StaticString = #fileID, line: UInt = #line)
    -> Observable<(index: Int, element: Element)>
  {
    let source = asObservable()
    return Observable(kind: "enumerated", upstreams: [source.traceID], file: file, line: line) {
      observer in
      var index = 0
      var overflowed = false
      let sink = GuardedSink(observer)
      sink.setUpstream(
        source.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next(let element):
              guard sink.isActive else { return }
              if overflowed {
                sink.on(.error(RxError.overflow))
                return
              }
              let current = index
              if index == Int.max { overflowed = true } else { index += 1 }
              sink.on(.next((index: current, element: element)))
            case .error(let error): sink.on(.error(error))
            case .completed: sink.on(.completed)
            }
          }))
      return sink
    }
  }
}
