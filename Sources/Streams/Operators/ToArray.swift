extension ObservableType {
  /// Collects every element and succeeds with them as one array when the source completes.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3).toArray().subscribe(onSuccess: { print($0) })
  /// // Prints "[1, 2, 3]"
  /// ```
  ///
  /// Emits exactly one array, right before completing, when the source completes (`[]` for an
  /// empty source). Fails when the source fails, without emitting the partial array. Disposal
  /// disposes the source.
  ///
  /// - Returns: A ``Single`` of the array, as in RxSwift 6.
  public func toArray(file: StaticString = #fileID, line: UInt = #line) -> Single<[Element]> {
    let source = asObservable()
    let collected = Observable<[Element]>(
      kind: "toArray", upstreams: [source.traceID], file: file, line: line
    ) { observer in
      var elements: [Element] = []
      let sink = GuardedSink(observer)
      sink.setUpstream(
        source.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next(let element):
              guard sink.isActive else { return }
              elements.append(element)
            case .error(let error):
              sink.on(.error(error))
            case .completed:
              let result = elements
              elements = []
              sink.on(.next(result))
              sink.on(.completed)
            }
          }))
      return sink
    }
    return Single(raw: collected)
  }
}
