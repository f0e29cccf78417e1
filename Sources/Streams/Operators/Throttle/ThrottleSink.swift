/// Runs one `throttle` subscription: reads the clock, then performs what
/// ``ThrottleStateMachine`` decides, after unlocking.
///
/// `@unchecked Sendable`: mutable state is the state machine behind `state`'s lock; `output`
/// guards the downstream; the other properties are immutable and `Sendable`.
final class ThrottleSink<Element: Sendable>: @unchecked Sendable {
  let output: GuardedSink<Element>
  let timer = SerialDisposable()
  private let state: Locked<ThrottleStateMachine<Element>>
  private let scheduler: any SchedulerType
  private let clock: SchedulerClock

  init(
    _ observer: AnyObserver<Element>, dueTime: RxTimeInterval, latest: Bool,
    scheduler: any SchedulerType
  ) {
    output = GuardedSink(observer)
    state = Locked(ThrottleStateMachine(dueTime: dueTime.nanoseconds, latest: latest))
    self.scheduler = scheduler
    clock = SchedulerClock(scheduler)
  }

  func on(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      guard output.isActive else { return }
      let now = clock.nanoseconds
      switch state.withLock({ $0.received(element, at: now) }) {
      case .drop:
        break
      case .drain(let first, let replaced):
        state.drain(first, into: output)
        withExtendedLifetime(replaced) {}
      case .schedule(let wait):
        timer.disposable = scheduler.scheduleRelative((), dueTime: .nanoseconds(Int(wait))) {
          [self] _ in
          let now = clock.nanoseconds
          perform(state.withLock { $0.timerFired(at: now) })
          return Disposables.create()
        }
      case .release(let replaced):
        withExtendedLifetime(replaced) {}
      }
    case .error(let error):
      switch state.withLock({ $0.failed(error) }) {
      case .none:
        break
      case .drain(let first, let dropped):
        state.drain(first, into: output)
        withExtendedLifetime(dropped) {}
      }
    case .completed:
      perform(state.withLock { $0.completed() })
    }
  }

  private func perform(_ action: ThrottleStateMachine<Element>.DrainAction) {
    switch action {
    case .none: break
    case .drain(let first): state.drain(first, into: output)
    }
  }
}
