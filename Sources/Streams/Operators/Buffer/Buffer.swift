extension ObservableType where Element: Sendable {
  /// Collects elements into arrays, emitting one when it holds `count` elements or when
  /// `timeSpan` has passed since the previous one, as RxSwift's `buffer(timeSpan:count:scheduler:)`.
  ///
  /// ```swift
  /// // source:                         -1-23---4------|
  /// // buffer(timeSpan: 5, count: 3):  ----a----b----c(d|)
  /// // a = [1, 2, 3] (full), b = [4], c = [] (time span ended), d = [] (at completion)
  /// _ = events.buffer(timeSpan: .seconds(1), count: 50, scheduler: MainScheduler.instance)
  ///   .subscribe(onNext: { print($0.count) })
  /// ```
  ///
  /// A full buffer is emitted at once and restarts the time window; a window that ends emits its
  /// buffer on `scheduler`, even when it is empty. The first window starts before the source is
  /// subscribed (as in RxSwift), so an element that arrives at the instant a window ends goes into
  /// the next buffer. Completes when the source completes, first
  /// emitting the current buffer (even when empty); fails at once when the source fails, dropping
  /// the buffer. Disposal disposes the source and cancels the timer.
  ///
  /// - Parameters:
  ///   - timeSpan: The longest time a window lasts.
  ///   - count: The most elements a buffer holds; must be positive.
  ///   - scheduler: Runs the window timers; buffers are emitted on it (hence `Element: Sendable`).
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func buffer(
    timeSpan: RxTimeInterval, count: Int, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<[Element]> {
    if count <= 0 {
      streamsStop("buffer(timeSpan:count:scheduler:) needs a positive count, got \(count)")
    }
    let source = asObservable()
    return Observable(kind: "buffer", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = BufferSink<Element>(
        observer, timeSpan: timeSpan, count: count, scheduler: scheduler)
      // The first window is scheduled before the source is subscribed, as in RxSwift: a source
      // element due at the instant the window ends then arrives after the window closed.
      sink.startTimer(window: 0)
      sink.output.setUpstream(
        Disposables.create(
          source.subscribeNested(AnyObserver(eventHandler: sink.on)),
          Disposables.create(with: { sink.stopTimers() })))
      return sink.output
    }
  }
}
