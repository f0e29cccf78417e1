import Dispatch

/// A scheduler that runs work one item at a time on a serial dispatch queue, as RxSwift's
/// `SerialDispatchQueueScheduler`.
///
/// ```swift
/// let background = SerialDispatchQueueScheduler(qos: .userInitiated)
/// _ = Observable.of(1, 2, 3)
///   .observe(on: background)
///   .subscribe(onNext: { print($0) })
/// // Prints "1", "2", "3" on the background queue, in order
/// ```
///
/// ``schedule(_:action:)`` is always asynchronous. Relative and periodic work runs on a
/// `DispatchSourceTimer` targeting the queue; ``now`` is the wall clock. Disposing what a
/// `schedule` call returns cancels the work if it has not started and disposes what it returned.
///
/// `@unchecked Sendable`: every stored property is immutable and `Sendable`; the class is open to
/// ``MainScheduler`` only, which adds no mutable state of its own outside a lock.
public class SerialDispatchQueueScheduler: SchedulerType, @unchecked Sendable {
  let configuration: DispatchQueueConfiguration

  /// The serial queue the scheduler runs work on.
  public var queue: DispatchQueue { configuration.queue }

  /// The scheduler's clock: wall-clock time, as `Date()` reads it.
  public var now: RxTime { RxTime(streamsNanoseconds: wallClockNanoseconds()) }

  /// Runs work on `serialQueue`, which must be serial.
  init(serialQueue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
    configuration = DispatchQueueConfiguration(queue: serialQueue, leeway: leeway)
  }

  /// Creates a serial queue named `internalSerialQueueName` and runs work on it.
  ///
  /// - Parameters:
  ///   - internalSerialQueueName: The label of the new queue.
  ///   - serialQueueConfiguration: Called once with the new queue, to configure it.
  ///   - leeway: The timer leeway for relative and periodic work.
  public convenience init(
    internalSerialQueueName: String,
    serialQueueConfiguration: ((DispatchQueue) -> Void)? = nil,
    leeway: DispatchTimeInterval = .nanoseconds(0)
  ) {
    let queue = DispatchQueue(label: internalSerialQueueName, attributes: [])
    serialQueueConfiguration?(queue)
    self.init(serialQueue: queue, leeway: leeway)
  }

  /// Runs work on a new serial queue named `internalSerialQueueName` that targets `queue`, so
  /// that work is serial even when `queue` is concurrent.
  public convenience init(
    queue: DispatchQueue, internalSerialQueueName: String,
    leeway: DispatchTimeInterval = .nanoseconds(0)
  ) {
    let serial = DispatchQueue(label: internalSerialQueueName, attributes: [], target: queue)
    self.init(serialQueue: serial, leeway: leeway)
  }

  /// Runs work on a new serial queue that targets the global queue of quality of service `qos`.
  public convenience init(
    qos: DispatchQoS, internalSerialQueueName: String = "rx.global_dispatch_queue.serial",
    leeway: DispatchTimeInterval = .nanoseconds(0)
  ) {
    self.init(
      queue: DispatchQueue.global(qos: qos.qosClass),
      internalSerialQueueName: internalSerialQueueName,
      leeway: leeway)
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

  /// Runs `action` on the queue after `startAfter` and then every `period`, on a repeating
  /// `DispatchSourceTimer`; disposing the result stops it.
  public func schedulePeriodic<StateType: Sendable>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping @Sendable (StateType) -> StateType
  ) -> any Disposable {
    configuration.schedulePeriodic(
      state, startAfter: startAfter, period: period, action: action)
  }
}

extension SerialDispatchQueueScheduler: NanosecondClock {
  var nanosecondsNow: Int64 { wallClockNanoseconds() }
}
