/// A scheduled action and its state, reused for later actions with the same state type once it
/// finished.
///
/// `@unchecked Sendable`: `id` and `phase` are only touched under the scheduler's
/// lock (`guarded`); `time`, `state` and `action` are set under that lock while the item is
/// spare or new, and read or cleared by the one thread that owns the item after taking it from
/// the queue or cancelling it (see ``VirtualScheduledItem``).
final class VirtualScheduledAction<StateType: Sendable>: VirtualScheduledItem, @unchecked Sendable {
  let guarded: Locked<VirtualTimeQueue>
  // `@exclusivity(unchecked)`: each is guarded by the scheduler's lock or owned by one thread (see
  // above), so the dynamic exclusivity checks, a few hundred instructions per action, buy nothing.
  @exclusivity(unchecked) private(set) var time = VirtualInstant(value: 0)
  @exclusivity(unchecked) var id = 0
  @exclusivity(unchecked) var phase = VirtualScheduledPhase.retired
  @exclusivity(unchecked) private var state: StateType?
  @exclusivity(unchecked) private var action: (@Sendable (StateType) -> any Disposable)?

  init(guarded: Locked<VirtualTimeQueue>) {
    self.guarded = guarded
  }

  /// Arms a new or spare item; called under the lock.
  func prepare(
    time: VirtualInstant, state: StateType,
    action: @escaping @Sendable (StateType) -> any Disposable
  ) {
    self.time = time
    self.state = state
    self.action = action
    phase = .pending
  }

  func runOnce() -> any Disposable {
    guard let action, let state else {
      streamsStop("VirtualTimeScheduler internal error: an item ran twice")
    }
    releaseAction()
    return action(state)
  }

  func releaseAction() {
    state = nil
    action = nil
  }
}

/// The state of one ``VirtualTimeScheduler/schedulePeriodic(_:startAfter:period:action:)``.
///
/// `@unchecked Sendable`: `state` is only read and written by `tick()`, which runs on the thread
/// driving the virtual clock, one tick at a time (the next tick is queued behind the current one).
final class VirtualPeriodicRun<Converter: VirtualTimeConverterType, StateType: Sendable>:
  @unchecked Sendable
{
  let scheduler: VirtualTimeScheduler<Converter>
  let period: RxTimeInterval
  let action: @Sendable (StateType) -> StateType
  let serial = SerialDisposable()
  private var state: StateType

  init(
    scheduler: VirtualTimeScheduler<Converter>, period: RxTimeInterval, state: StateType,
    action: @escaping @Sendable (StateType) -> StateType
  ) {
    self.scheduler = scheduler
    self.period = period
    self.state = state
    self.action = action
  }

  func tick() {
    if serial.isDisposed { return }
    if period != .never {
      serial.disposable = scheduler.scheduleRelative((), dueTime: period) { [self] _ in
        tick()
        return Disposables.create()
      }
    }
    state = action(state)
  }
}
