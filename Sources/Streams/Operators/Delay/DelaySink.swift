/// Runs one `delay` subscription: reads the clock, then performs what ``DelayStateMachine``
/// decides, after unlocking.
///
/// `@unchecked Sendable`: mutable state is the state machine behind `state`'s lock; `output`
/// guards the downstream; the other properties are immutable and `Sendable`.
final class DelaySink<Element: Sendable>: @unchecked Sendable {
  let output: GuardedSink<Element>
  let timer = SerialDisposable()
  let sourceSubscription = SingleAssignmentDisposable()
  private let state: Locked<DelayStateMachine<Element>>
  private let scheduler: any SchedulerType
  private let clock: SchedulerClock

  init(_ observer: AnyObserver<Element>, dueTime: RxTimeInterval, scheduler: any SchedulerType) {
    output = GuardedSink(observer)
    state = Locked(DelayStateMachine(dueTime: dueTime.nanoseconds))
    self.scheduler = scheduler
    clock = SchedulerClock(scheduler)
  }

  func on(_ event: Event<Element>) {
    if event.isStopEvent { sourceSubscription.dispose() }
    switch event {
    case .next(let element):
      guard output.isActive else { return }
      let now = clock.nanoseconds
      perform(state.withLock { $0.received(element, at: now) })
    case .completed:
      guard output.isActive else { return }
      let now = clock.nanoseconds
      perform(state.withLock { $0.completed(at: now) })
    case .error(let error):
      switch state.withLock({ $0.failed(error) }) {
      case .none:
        break
      case .drain(let first, let dropped):
        state.drain(first, into: output)
        // The waiting events are released after the lock.
        withExtendedLifetime(dropped) {}
      }
    }
  }

  private func perform(_ action: DelayStateMachine<Element>.ReceivedAction) {
    switch action {
    case .queued, .drop: break
    case .startTimer(let wait): schedule(after: wait)
    }
  }

  private func schedule(after nanoseconds: Int64) {
    timer.disposable = scheduler.scheduleRelative((), dueTime: .nanoseconds(Int(nanoseconds))) {
      [self] _ in
      fire()
      return Disposables.create()
    }
  }

  /// Emits the first waiting event, then schedules the timer for the next one.
  private func fire() {
    let now = clock.nanoseconds
    switch state.withLock({ $0.timerFired(at: now) }) {
    case .none:
      break
    case .drain(let first):
      state.drain(first, into: output)
    case .drainAndSchedule(let first, let wait):
      state.drain(first, into: output)
      schedule(after: wait)
    }
  }
}
