extension ObservableType where Element: Sendable {
  /// Splits the elements into windows, each an `Observable`, as RxSwift's
  /// `window(timeSpan:count:scheduler:)`: a window ends when it holds `count` elements or when
  /// `timeSpan` has passed since it opened, and the next one opens at once.
  ///
  /// ```swift
  /// // source:                         -1-23---4------|
  /// // window(timeSpan: 5, count: 3):  a---b----c----d|
  /// // a:                              -1-2(3|)           (full)
  /// // b:                                  ----4|         (time span ended)
  /// // c:                                       -----|    (time span ended)
  /// // d:                                            -|   (ended with the source)
  /// _ = events.window(timeSpan: .seconds(1), count: 10, scheduler: MainScheduler.instance)
  ///   .flatMap { $0.toArray().asObservable() }
  ///   .subscribe(onNext: { print($0) })
  /// // Prints each second's elements, at most 10 at a time
  /// ```
  ///
  /// The first window is emitted at subscription, before the timer is scheduled and the source
  /// is subscribed, as in RxSwift. A window that fills up completes right after its last element
  /// and restarts the time span; a window whose time span ends completes on `scheduler`, even
  /// when it is empty. Each window is hot (a ``PublishSubject``): subscribe while receiving it
  /// to see all of its elements.
  ///
  /// Completes and fails when the source does: the open window first, then the outer sequence.
  /// Disposing the outer subscription stops the emission of windows, but the source and the
  /// timer keep running while any window has a subscriber; they are disposed once the outer
  /// subscription and every window subscription are gone. A terminal event disposes them at once.
  ///
  /// - Parameters:
  ///   - timeSpan: The longest time a window lasts.
  ///   - count: The most elements a window holds; must be positive.
  ///   - scheduler: Runs the window timers; windows that end by time end on it (hence
  ///     `Element: Sendable`).
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func window(
    timeSpan: RxTimeInterval, count: Int, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Observable<Element>> {
    if count <= 0 {
      streamsStop("window(timeSpan:count:scheduler:) needs a positive count, got \(count)")
    }
    let source = asObservable()
    return Observable(kind: "window", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = WindowSink<Element>(
        observer, timeSpan: timeSpan, count: count, scheduler: scheduler,
        sourceID: source.traceID, file: file, line: line)
      sink.run(source)
      return sink.output
    }
  }
}
