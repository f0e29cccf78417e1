import Dispatch

/// A scheduler that runs work on a dispatch queue that may be concurrent, as RxSwift's
/// `ConcurrentDispatchQueueScheduler`.
///
/// ```swift
/// let scheduler = ConcurrentDispatchQueueScheduler(qos: .utility)
/// _ = Observable<Int>.timer(.milliseconds(10), scheduler: scheduler)
///   .subscribe(onNext: { print($0) })
/// // Prints "0" on a global queue thread
/// ```
///
/// Work items may run at the same time; operators that deliver through a scheduler (such as
/// ``ObservableType/observe(on:file:line:)``) still call their observer serially. ``now`` is the
/// wall clock. Disposing what a `schedule` call returns cancels the work if it has not started.
public final class ConcurrentDispatchQueueScheduler: SchedulerType {
  let configuration: DispatchQueueConfiguration

  /// The queue the scheduler runs work on.
  public var queue: DispatchQueue { configuration.queue }

  /// The scheduler's clock: wall-clock time, as `Date()` reads it.
  public var now: RxTime { RxTime(streamsNanoseconds: wallClockNanoseconds()) }

  /// Runs work on `queue`.
  public init(queue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
    configuration = DispatchQueueConfiguration(queue: queue, leeway: leeway)
  }

  /// Runs work on the global queue of quality of service `qos`.
  public convenience init(qos: DispatchQoS, leeway: DispatchTimeInterval = .nanoseconds(0)) {
    self.init(queue: DispatchQueue.global(qos: qos.qosClass), leeway: leeway)
  }

  /// Runs `action(state)` asynchronously on the queue.
  public func schedule<StateType: Sendable>(
    _ state: StateType, action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    configuration.schedule(state, action: action)
  }

  /// Runs `action(state)` on the queue after `dueTime` (never for `.never`).
  public func scheduleRelative<StateType: Sendable>(
    _ state: StateType, dueTime: RxTimeInterval,
    action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    configuration.scheduleRelative(state, dueTime: dueTime, action: action)
  }

  /// Runs `action` after `startAfter` and then every `period` on a repeating timer; ticks never
  /// overlap. Disposing the result stops it.
  public func schedulePeriodic<StateType: Sendable>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping @Sendable (StateType) -> StateType
  ) -> any Disposable {
    configuration.schedulePeriodic(
      state, startAfter: startAfter, period: period, action: action)
  }
}

extension ConcurrentDispatchQueueScheduler: NanosecondClock {
  var nanosecondsNow: Int64 { wallClockNanoseconds() }
}
