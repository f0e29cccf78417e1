extension ObservableType {
  /// Emits only the element at position `index` (counting from 0), then completes.
  ///
  /// ```swift
  /// _ = Observable.of("a", "b", "c").element(at: 1).subscribe { print($0) }
  /// // Prints "next(b)", "completed"
  /// ```
  ///
  /// Completes right after that element, disposing the source. Fails with
  /// ``RxError/argumentOutOfRange`` when the source completes with `index` elements or fewer, and
  /// when the source fails first. Disposal disposes the source. A negative `index` stops the
  /// program with a message naming the misuse.
  ///
  /// - Parameters:
  ///   - index: The zero-based position of the element to emit.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func element(at index: Int, file: StaticString = #fileID, line: UInt = #line)
    -> Observable<Element>
  {
    if index < 0 { streamsStop("element(at:): index can't be negative (got \(index))") }
    let source = asObservable()
    return Observable(kind: "element(at:)", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      var remaining = index
      sink.setUpstream(
        source.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next:
              if remaining == 0 {
                sink.on(event)
                sink.on(.completed)
              }
              remaining -= 1
            case .error:
              sink.on(event)
            case .completed:
              sink.on(.error(RxError.argumentOutOfRange))
            }
          }))
      return sink
    }
  }

  /// Renamed ``element(at:file:line:)``.
  @available(*, deprecated, renamed: "element(at:)")
  public func elementAt(_ index: Int) -> Observable<Element> {
    element(at: index)
  }
}
