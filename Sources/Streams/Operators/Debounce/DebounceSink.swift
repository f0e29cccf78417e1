/// Runs one `debounce` subscription: performs what ``DebounceStateMachine`` decides, after
/// unlocking. `@inlinable` throughout, so that it specializes in the caller's module.
///
/// Per element it allocates nothing itself: the timer is scheduled with the sink and the
/// element's generation as the action's state and a closure that captures nothing, so the only
/// allocation is whatever the scheduler makes per scheduled action.
///
/// `@unchecked Sendable`: mutable state is the state machine behind `state`'s lock; `output`
/// guards the downstream; the other properties are immutable and `Sendable`.
@usableFromInline
final class DebounceSink<Element: Sendable>: @unchecked Sendable {
  @usableFromInline let output: GuardedSink<Element>
  @usableFromInline let timer = SerialDisposable()
  @usableFromInline let state = Locked(DebounceStateMachine<Element>())
  @usableFromInline let dueTime: RxTimeInterval
  @usableFromInline let scheduler: any SchedulerType

  @inlinable
  init(_ observer: AnyObserver<Element>, dueTime: RxTimeInterval, scheduler: any SchedulerType) {
    output = GuardedSink(observer)
    self.dueTime = dueTime
    self.scheduler = scheduler
  }

  @inlinable
  func on(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      guard output.isActive else { return }
      switch state.withLock({ $0.received(element) }) {
      case .drop:
        break
      case .schedule(let generation, let replaced):
        timer.disposable = scheduler.scheduleRelative((self, generation), dueTime: dueTime) {
          tick in
          tick.0.fire(tick.1)
          return Disposables.create()
        }
        // Released last, after the lock and after this element's timer is in place: its deinit
        // may send another element, whose timer must replace this one.
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

  /// The timer of `generation` fired.
  @inlinable
  func fire(_ generation: UInt64) {
    perform(state.withLock { $0.timerFired(generation) })
  }

  @inlinable
  func perform(_ action: DebounceStateMachine<Element>.DrainAction) {
    switch action {
    case .none: break
    case .drain(let first): state.drain(first, into: output)
    }
  }
}
