import Dispatch

/// A span of time, as in RxSwift: `.seconds(2)`, `.milliseconds(300)`, `.never`.
public typealias RxTimeInterval = DispatchTimeInterval

extension DispatchTimeInterval {
  /// The interval in nanoseconds; `.never` is `Int64.max`.
  public var nanoseconds: Int64 {
    switch self {
    case .seconds(let value):
      return Int64(value).saturatingMultiplied(by: 1_000_000_000)
    case .milliseconds(let value): return Int64(value).saturatingMultiplied(by: 1_000_000)
    case .microseconds(let value): return Int64(value).saturatingMultiplied(by: 1_000)
    case .nanoseconds(let value): return Int64(value)
    case .never: return Int64.max
    @unknown default: return Int64.max
    }
  }

  /// The interval in seconds, as RxSwift's `convertToSecondsInterval()` gives it.
  public var seconds: Double {
    if case .never = self { return .infinity }
    return Double(nanoseconds) / 1_000_000_000
  }
}

extension Int64 {
  fileprivate func saturatingMultiplied(by factor: Int64) -> Int64 {
    let (product, overflow) = multipliedReportingOverflow(by: factor)
    if overflow { return self < 0 ? Int64.min : Int64.max }
    return product
  }
}

/// A scheduler that runs work now (or as soon as it can), without a notion of time.
///
/// Actions and their state cross to whatever thread the scheduler runs them on, so both are
/// `Sendable`.
public protocol ImmediateSchedulerType: Sendable {
  /// Runs `action(state)`; the returned disposable cancels it if it has not run yet.
  func schedule<StateType: Sendable>(
    _ state: StateType, action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable
}

/// A scheduler with a clock: it can run work after a delay and periodically.
public protocol SchedulerType: ImmediateSchedulerType {
  /// The scheduler's current time.
  var now: RxTime { get }

  /// Runs `action(state)` after `dueTime`.
  func scheduleRelative<StateType: Sendable>(
    _ state: StateType, dueTime: RxTimeInterval,
    action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable

  /// Runs `action` after `startAfter` and then every `period`, threading the state through.
  func schedulePeriodic<StateType: Sendable>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping @Sendable (StateType) -> StateType
  ) -> any Disposable
}

extension SchedulerType {
  /// Periodic scheduling built from ``scheduleRelative(_:dueTime:action:)``; schedulers with a
  /// native timer override it.
  public func schedulePeriodic<StateType: Sendable>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping @Sendable (StateType) -> StateType
  ) -> any Disposable {
    let serial = SerialDisposable()
    let clock = SchedulerClock(self)
    let start = clock.nanoseconds &+ startAfter.nanoseconds
    PeriodicRun(scheduler: self, clock: clock, period: period, action: action, serial: serial)
      .schedule(state, at: start, tick: 0)
    return serial
  }
}

/// One step of the default periodic scheduling: runs the action, then schedules the next tick
/// relative to the first due time, so that delays do not accumulate.
private struct PeriodicRun<Scheduler: SchedulerType, StateType: Sendable>: Sendable {
  let scheduler: Scheduler
  let clock: SchedulerClock
  let period: RxTimeInterval
  let action: @Sendable (StateType) -> StateType
  let serial: SerialDisposable

  /// Schedules tick number `tick`, due `tick` periods after `start` (nanoseconds on `clock`).
  func schedule(_ state: StateType, at start: Int64, tick: Int64) {
    let due = start &+ tick &* period.nanoseconds
    let delay = max(0, due &- clock.nanoseconds)
    serial.disposable = scheduler.scheduleRelative(state, dueTime: .nanoseconds(Int(delay))) {
      state in
      if serial.isDisposed { return Disposables.create() }
      let next = action(state)
      schedule(next, at: start, tick: tick + 1)
      return Disposables.create()
    }
  }
}

extension ImmediateSchedulerType {
  /// Runs `action` with a `recurse` function that schedules it again with a new state, as
  /// RxSwift's `scheduleRecursive`. Disposing the result stops the recursion.
  public func scheduleRecursive<State: Sendable>(
    _ state: State,
    action: @escaping @Sendable (_ state: State, _ recurse: (State) -> Void) -> Void
  ) -> any Disposable {
    let group = CompositeDisposable()
    RecursiveRun(scheduler: self, action: action, group: group).schedule(state)
    return group
  }
}

private struct RecursiveRun<Scheduler: ImmediateSchedulerType, State: Sendable>: Sendable {
  let scheduler: Scheduler
  let action: @Sendable (State, (State) -> Void) -> Void
  let group: CompositeDisposable

  func schedule(_ state: State) {
    if group.isDisposed { return }
    let slot = SingleAssignmentDisposable()
    guard let key = group.insert(slot) else { return }
    slot.setDisposable(
      scheduler.schedule(state) { state in
        group.remove(for: key)
        if group.isDisposed { return Disposables.create() }
        action(state) { next in schedule(next) }
        return Disposables.create()
      })
  }
}
