extension ObservableType {
  /// Emits `elements` first, then the source's events.
  ///
  /// ```swift
  /// _ = Observable.of(3, 4).startWith(1, 2).subscribe { print($0) }
  /// // Prints "next(1)", "next(2)", "next(3)", "next(4)", "completed"
  /// ```
  ///
  /// The prefix is emitted synchronously during the subscription, before the source is
  /// subscribed (as in RxSwift). Completes and fails when the source does; disposal disposes the
  /// source.
  ///
  /// - Parameters:
  ///   - elements: The elements to emit first.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  @inlinable
  public func startWith(
    _ elements: Element..., file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(kind: "startWith", upstreams: [source.traceID], file: file, line: line) {
      observer in
      for element in elements { observer.on(.next(element)) }
      return source.subscribeAny(observer)
    }
  }
}
