extension ObservableType where Element: Sendable {
  /// Shifts every element and the completion later by `dueTime`, as RxSwift's `delay`.
  ///
  /// ```swift
  /// // source:     -a--b--|
  /// // delay(2):   ---a--b--|
  /// _ = Observable.of(1, 2).delay(.seconds(1), scheduler: MainScheduler.instance)
  ///   .subscribe(onNext: { print($0) })
  /// // Prints "1", "2" about a second later
  /// ```
  ///
  /// Elements keep their order and spacing and are emitted on `scheduler`. Completes `dueTime`
  /// after the source completes; an error is forwarded at once and drops the elements still
  /// waiting. The source subscription is disposed as soon as the source terminates. Disposal
  /// disposes the source and cancels the timer.
  ///
  /// - Parameters:
  ///   - dueTime: How much later each event is emitted.
  ///   - scheduler: Runs the timers; elements are emitted on it (hence `Element: Sendable`).
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func delay(
    _ dueTime: RxTimeInterval, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(kind: "delay", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = DelaySink(observer, dueTime: dueTime, scheduler: scheduler)
      sink.output.setUpstream(Disposables.create(sink.sourceSubscription, sink.timer))
      sink.sourceSubscription.setDisposable(
        source.subscribeNested(AnyObserver(eventHandler: sink.on)))
      return sink.output
    }
  }
}
