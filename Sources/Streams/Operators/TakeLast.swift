extension ObservableType {
  /// Emits the last `count` elements when the source completes.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3).takeLast(2).subscribe { print($0) }
  /// // Prints "next(2)", "next(3)", "completed"
  /// ```
  ///
  /// Buffers up to `count` elements and emits them, then `.completed`, when the source completes;
  /// fails (dropping the buffer) when the source fails. Disposal disposes the source and drops the
  /// buffer. A negative `count` stops the program with a message naming the misuse.
  ///
  /// - Parameters:
  ///   - count: How many of the last elements to emit.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func takeLast(_ count: Int, file: StaticString = #fileID, line: UInt = #line)
    -> Observable<Element>
  {
    if count < 0 { streamsStop("takeLast(_:): count can't be negative (got \(count))") }
    let source = asObservable()
    return Observable(kind: "takeLast", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      // The last `count` elements, oldest first.
      var buffer = RingQueue<Element>()
      sink.setUpstream(
        source.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next(let element):
              guard count > 0 else { return }
              buffer.append(element)
              if buffer.count > count { _ = buffer.popFirst() }
            case .error:
              _ = buffer.removeAll()
              sink.on(event)
            case .completed:
              var elements = buffer.removeAll()
              while let element = elements.popFirst() {
                guard sink.isActive else { return }
                sink.on(.next(element))
              }
              sink.on(.completed)
            }
          }))
      return sink
    }
  }
}
