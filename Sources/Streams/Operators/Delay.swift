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
    /// Events waiting, with the time they arrived.
    var queue: [(time: RxTime, event: Event<Element>)] = []
    var head = 0
    /// A timer is pending or running.
    var active = false
    var stopped = false
    var outbox = Outbox<Element>()
  }

  let output: GuardedSink<Element>
  let timer = SerialDisposable()
  let sourceSubscription = SingleAssignmentDisposable()
  private let state = Locked(State())
  private let dueTime: RxTimeInterval
  private let scheduler: any SchedulerType

  init(_ observer: AnyObserver<Element>, dueTime: RxTimeInterval, scheduler: any SchedulerType) {
    output = GuardedSink(observer)
    self.dueTime = dueTime
    self.scheduler = scheduler
  }

  func on(_ event: Event<Element>) {
    if event.isStopEvent { sourceSubscription.dispose() }
    switch event {
    case .error:
      state.update(into: output) { s in
        s.stopped = true
        s.queue = []
        s.head = 0
        s.outbox.send(event)
      }
    case .next, .completed:
      guard output.isActive else { return }
      let now = scheduler.now
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
    let now = scheduler.now
    let wait = state.update(into: output) { s -> Int64? in
      guard s.head < s.queue.count else {
        s.active = false
        return nil
      }
      s.outbox.send(s.queue[s.head].event)
      s.head += 1
      if s.head == s.queue.count {
        s.queue = []
        s.head = 0
        s.active = false
        return nil
      }
      let due = s.queue[s.head].time.adding(dueTime)
      return max(0, due.nanoseconds &- now.nanoseconds)
    }
    if let wait { schedule(after: .nanoseconds(Int(wait))) }
  }
}
