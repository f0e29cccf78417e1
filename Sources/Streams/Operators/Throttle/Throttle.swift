extension ObservableType where Element: Sendable {
  /// Emits the first element and then at most one element per `dueTime`: the latest one when
  /// `latest` is `true`, as RxSwift's `throttle`.
  ///
  /// ```swift
  /// // source:                       -a-b-c-----d-|
  /// // throttle(5):                  -a----c----d-|   (latest: true)
  /// // throttle(5, latest: false):   -a---------d-|
  /// _ = button.taps.throttle(.seconds(1), scheduler: MainScheduler.instance)
  ///   .subscribe(onNext: { print("tap") })
  /// // Prints "tap" at most once a second
  /// ```
  ///
  /// An element that arrives `dueTime` or more after the last emitted one is emitted at once.
  /// With `latest: true`, an element that arrives sooner is kept (replacing any kept one) and
  /// emitted on `scheduler` when `dueTime` has passed since the last emission; with
  /// `latest: false` it is dropped. Completes when the source completes, after emitting a kept
  /// element when its time comes; fails at once when the source fails, dropping a kept element.
  /// Disposal disposes the source and cancels the timer.
  ///
  /// - Parameters:
  ///   - dueTime: The minimum time between two emitted elements.
  ///   - latest: Whether the latest element of a window is emitted at its end.
  ///   - scheduler: Supplies the clock and runs the timers (hence `Element: Sendable`).
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func throttle(
    _ dueTime: RxTimeInterval, latest: Bool = true, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(kind: "throttle", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = ThrottleSink(observer, dueTime: dueTime, latest: latest, scheduler: scheduler)
      sink.output.setUpstream(
        Disposables.create(source.subscribeNested(AnyObserver(eventHandler: sink.on)), sink.timer))
      return sink.output
    }
  }
}
