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

/// `@unchecked Sendable`: mutable state is in `state` (its lock); `output` guards the downstream;
/// the other properties are immutable and `Sendable`.
private final class DelaySink<Element: Sendable>: @unchecked Sendable {
  struct State: OutboxState {
    /// Events waiting, with the time they arrived (nanoseconds on `clock`).
    var queue = RingQueue<(time: Int64, event: Event<Element>)>()
    /// A timer is pending or running.
    var active = false
    var stopped = false
    var outbox = SerialOutbox<Element>()

    mutating func nextPending() -> Event<Element>? { outbox.next() }

    var turnRank: Int { outbox.turns.rank }
  }

  let output: GuardedSink<Element>
  let timer = SerialDisposable()
  let sourceSubscription = SingleAssignmentDisposable()
  private let state = Locked(State())
  private let dueTime: RxTimeInterval
  private let scheduler: any SchedulerType
  private let clock: SchedulerClock

  init(_ observer: AnyObserver<Element>, dueTime: RxTimeInterval, scheduler: any SchedulerType) {
    output = GuardedSink(observer)
    self.dueTime = dueTime
    self.scheduler = scheduler
    clock = SchedulerClock(scheduler)
  }

  func on(_ event: Event<Element>) {
    if event.isStopEvent { sourceSubscription.dispose() }
    switch event {
    case .error:
      // The waiting events leave the lock and are released after it.
      let dropped = state.update(into: output) { s in
        s.stopped = true
        return (s.queue.removeAll(), s.outbox.send(event))
      }
      withExtendedLifetime(dropped) {}
    case .next, .completed:
      guard output.isActive else { return }
      let now = clock.nanoseconds
      let start = state.withLock { s -> Bool in
        if s.stopped { return false }
        if event.isStopEvent { s.stopped = true }
        s.queue.append((now, event))
        if s.active { return false }
        s.active = true
        return true
      }
      if start { schedule(after: dueTime) }
    }
  }

  private func schedule(after interval: RxTimeInterval) {
    timer.disposable = scheduler.scheduleRelative((), dueTime: interval) { [self] _ in
      fire()
      return Disposables.create()
    }
  }

  /// Emits the oldest waiting event, then schedules the next one relative to its arrival time.
  private func fire() {
    let now = clock.nanoseconds
    let wait = state.update(into: output) { s -> (result: Int64?, deliver: Event<Element>?) in
      // Once the sequence ended, what is left waits for the sink's deinit: a dropped event would
      // be released here, under the lock.
      guard !s.outbox.isClosed, let entry = s.queue.popFirst() else {
        s.active = false
        return (nil, nil)
      }
      let deliver = s.outbox.send(entry.event)
      guard let next = s.queue.first?.time else {
        s.active = false
        return (nil, deliver)
      }
      let due = next &+ dueTime.nanoseconds
      return (max(0, due &- now), deliver)
    }
    if let wait { schedule(after: .nanoseconds(Int(wait))) }
  }
}
