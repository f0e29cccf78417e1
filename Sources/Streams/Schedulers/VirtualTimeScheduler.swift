/// A scheduler whose clock only moves when told to: the base of ``TestScheduler`` in StreamsTest.
///
/// Time is an integer number of ticks; `resolution` is the number of seconds one tick stands for,
/// so that `.seconds(10)` is 10 ticks at the default resolution of 1. Actions due at the same tick
/// run in the order they were scheduled. Actions run on the thread that calls ``start()`` or
/// ``advanceTo(_:)``, never under the scheduler's lock.
///
/// ```swift
/// let scheduler = VirtualTimeScheduler()
/// _ = scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in
///   print(scheduler.clock)
///   return Disposables.create()
/// }
/// scheduler.start()
/// // Prints "5"
/// ```
///
/// `@unchecked Sendable`: the clock and the queue live in a lock-guarded state; subclasses must
/// keep their own state behind a lock too.
open class VirtualTimeScheduler: SchedulerType, @unchecked Sendable {
  /// The queue entry for one scheduled action.
  private struct Item {
    let time: Int
    let id: Int
    let run: @Sendable () -> any Disposable
    let disposable: SingleAssignmentDisposable
  }

  private struct State {
    var clock: Int
    var running = false
    var nextID = 0
    var queue: [Item] = []  // kept sorted by (time, id)
  }

  private let state: Locked<State>

  /// Seconds per tick.
  public let resolution: Double

  /// A scheduler whose clock starts at `initialClock`, with `resolution` seconds per tick.
  public init(initialClock: Int = 0, resolution: Double = 1.0) {
    precondition(
      resolution > 0, "VirtualTimeScheduler needs a positive resolution, got \(resolution)")
    state = Locked(State(clock: initialClock))
    self.resolution = resolution
  }

  /// The current virtual time, in ticks.
  public var clock: Int { state.withLock { $0.clock } }

  /// `true` while ``start()`` or ``advanceTo(_:)`` is running actions.
  public var isEnabled: Bool { state.withLock { $0.running } }

  /// The current time as nanoseconds of the virtual clock.
  public var now: RxTime {
    RxTime(nanoseconds: Int64((Double(clock) * resolution * 1_000_000_000).rounded()))
  }

  /// Converts an interval to ticks, rounding to the nearest tick.
  public func ticks(_ interval: RxTimeInterval) -> Int {
    if case .never = interval { return Int.max }
    return Int((interval.seconds / resolution).rounded())
  }

  /// Runs `action` at the current tick (after actions already due now).
  public func schedule<StateType: Sendable>(
    _ state: StateType, action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    scheduleRelative(state, dueTime: .nanoseconds(0), action: action)
  }

  /// Runs `action` `dueTime` after the current tick, at the time ``adjustScheduledTime(_:)``
  /// gives.
  public func scheduleRelative<StateType: Sendable>(
    _ state: StateType, dueTime: RxTimeInterval,
    action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    let delay = ticks(dueTime)
    let current = clock
    let due = delay == Int.max ? Int.max : adjustScheduledTime(current + delay)
    return scheduleAbsoluteVirtual(state, time: due, action: action)
  }

  /// Runs `action` `dueTime` ticks after the current tick, without adjusting the time (as
  /// RxSwift's `scheduleRelativeVirtual`).
  public func scheduleRelativeVirtual<StateType: Sendable>(
    _ state: StateType, dueTime: Int, action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    scheduleAbsoluteVirtual(state, time: clock + dueTime, action: action)
  }

  /// The tick at which an action requested for `time` through the `SchedulerType` API
  /// (``schedule(_:action:)``, ``scheduleRelative(_:dueTime:action:)``, periodic scheduling)
  /// runs. The base class returns `time`; ``TestScheduler`` moves times at or before the clock
  /// one tick later, as RxTest does. ``scheduleAbsoluteVirtual(_:time:action:)`` and
  /// ``scheduleRelativeVirtual(_:dueTime:action:)`` do not adjust, as in RxSwift.
  open func adjustScheduledTime(_ time: Int) -> Int { time }

  /// Runs `action` after `startAfter` and then every `period`, as RxSwift's periodic scheduling
  /// does on a virtual-time scheduler: each tick first schedules the next one `period` later
  /// (through ``scheduleRelative(_:dueTime:action:)``, so adjusted times apply), then runs
  /// `action`. Disposing the result cancels the pending tick.
  public func schedulePeriodic<StateType: Sendable>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping @Sendable (StateType) -> StateType
  ) -> any Disposable {
    let run = VirtualPeriodicRun(scheduler: self, period: period, state: state, action: action)
    run.serial.disposable = scheduleRelative((), dueTime: startAfter) { _ in
      run.tick()
      return Disposables.create()
    }
    return run.serial
  }

  /// Runs `action` at tick `time` exactly. Subclasses may override it to observe or change
  /// scheduling; the RxTest time adjustment lives in ``adjustScheduledTime(_:)``.
  open func scheduleAbsoluteVirtual<StateType: Sendable>(
    _ state: StateType, time: Int, action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    let disposable = SingleAssignmentDisposable()
    let item = self.state.withLock { s -> Item in
      let item = Item(time: time, id: s.nextID, run: { action(state) }, disposable: disposable)
      s.nextID += 1
      let index = s.queue.firstIndex { $0.time > time } ?? s.queue.endIndex
      s.queue.insert(item, at: index)
      return item
    }
    return Disposables.create(with: { [weak self] in
      item.disposable.dispose()
      self?.remove(id: item.id)
    })
  }

  private func remove(id: Int) {
    let removed = state.withLock { s -> Item? in
      guard let index = s.queue.firstIndex(where: { $0.id == id }) else { return nil }
      return s.queue.remove(at: index)
    }
    withExtendedLifetime(removed) {}
  }

  /// Runs every scheduled action in time order until the queue is empty or ``stop()`` is called.
  public func start() {
    run(until: nil)
  }

  /// Runs the actions due up to and including tick `time`, then sets the clock to `time` (also
  /// when ``stop()`` ended the run early, as in RxSwift). Moving backwards is a programming error.
  public func advanceTo(_ time: Int) {
    let current = clock
    precondition(
      time >= current,
      "VirtualTimeScheduler.advanceTo(\(time)) would move the clock back from \(current)")
    run(until: time)
  }

  /// Moves the clock forward by `ticks` without running anything.
  public func sleep(_ ticks: Int) {
    precondition(ticks >= 0, "VirtualTimeScheduler.sleep needs a non-negative tick count")
    state.withLock { $0.clock += ticks }
  }

  /// Stops ``start()`` or ``advanceTo(_:)`` after the action that is running.
  public func stop() {
    state.withLock { $0.running = false }
  }

  private func run(until limit: Int?) {
    let alreadyRunning = state.withLock { s -> Bool in
      if s.running { return true }
      s.running = true
      return false
    }
    precondition(!alreadyRunning, "VirtualTimeScheduler is already running; it is not reentrant")
    while true {
      let next = state.withLock { s -> Item? in
        guard s.running, let first = s.queue.first else { return nil }
        if let limit, first.time > limit { return nil }
        s.queue.removeFirst()
        if first.time > s.clock { s.clock = first.time }
        return first
      }
      guard let next else { break }
      if !next.disposable.isDisposed {
        next.disposable.setDisposable(next.run())
      }
    }
    state.withLock { s in
      if let limit, s.clock < limit { s.clock = limit }
      s.running = false
    }
  }
}

/// The state of one ``VirtualTimeScheduler/schedulePeriodic(_:startAfter:period:action:)``.
///
/// `@unchecked Sendable`: `state` is only read and written by `tick()`, which runs on the thread
/// driving the virtual clock, one tick at a time (the next tick is queued behind the current one).
private final class VirtualPeriodicRun<StateType: Sendable>: @unchecked Sendable {
  let scheduler: VirtualTimeScheduler
  let period: RxTimeInterval
  let action: @Sendable (StateType) -> StateType
  let serial = SerialDisposable()
  private var state: StateType

  init(
    scheduler: VirtualTimeScheduler, period: RxTimeInterval, state: StateType,
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
