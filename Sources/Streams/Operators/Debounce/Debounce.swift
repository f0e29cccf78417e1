extension ObservableType where Element: Sendable {
  /// Emits an element only after `dueTime` has passed without another element.
  ///
  /// ```swift
  /// // source:        -a-b------c---|
  /// // debounce(3):   ------b------c|
  /// _ = searchText.debounce(.milliseconds(300), scheduler: MainScheduler.instance)
  ///   .subscribe(onNext: { print($0) })
  /// // Prints the text once typing pauses for 300 ms
  /// ```
  ///
  /// Every element restarts the timer; when it fires, the latest element is emitted on
  /// `scheduler`. Completes when the source completes, first emitting the element still waiting
  /// (at once, not after `dueTime`); fails at once when the source fails, dropping the waiting
  /// element. Disposal disposes the source and cancels the timer.
  ///
  /// - Parameters:
  ///   - dueTime: The quiet time that must follow an element before it is emitted.
  ///   - scheduler: Runs the timers; elements are emitted on it (hence `Element: Sendable`).
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  @inlinable
  public func debounce(
    _ dueTime: RxTimeInterval, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(kind: "debounce", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = DebounceSink(observer, dueTime: dueTime, scheduler: scheduler)
      sink.output.setUpstream(
        Disposables.create(source.subscribeNested(AnyObserver(eventHandler: sink.on)), sink.timer))
      return sink.output
    }
  }
}
