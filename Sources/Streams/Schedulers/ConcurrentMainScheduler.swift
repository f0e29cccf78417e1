import Dispatch

/// A main-queue scheduler for subscribing, as RxSwift's `ConcurrentMainScheduler`.
///
/// ```swift
/// _ = Observable.of(1)
///   .subscribe(on: ConcurrentMainScheduler.instance)
///   .subscribe(onNext: { print($0) })
/// // Prints "1" (at once when called on the main thread)
/// ```
///
/// ``schedule(_:action:)`` runs the work at once when the caller is on the main queue (even if
/// other main-queue work is waiting: that is the difference from ``MainScheduler/instance``), and
/// enqueues it on the main queue otherwise. Relative and periodic work goes to
/// ``MainScheduler/instance``.
public final class ConcurrentMainScheduler: SchedulerType {
  private let mainScheduler: MainScheduler

  /// The main queue.
  public let mainQueue: DispatchQueue

  /// The shared instance.
  public static let instance = ConcurrentMainScheduler(mainScheduler: MainScheduler.instance)

  private init(mainScheduler: MainScheduler) {
    self.mainScheduler = mainScheduler
    self.mainQueue = DispatchQueue.main
  }

  /// The main scheduler's clock: wall-clock time.
  public var now: RxTime { mainScheduler.now }

  var nanosecondsNow: Int64 { mainScheduler.nanosecondsNow }

  /// Runs `action(state)` now on the main queue, or enqueues it there from another thread.
  /// Disposing the result cancels work that has not started.
  public func schedule<StateType: Sendable>(
    _ state: StateType, action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    if MainQueueCheck.isMain {
      return action(state)
    }
    let cancel = SingleAssignmentDisposable()
    let action = Tracing.carryingCause(action, to: Tracing.mainQueueLabel)
    mainQueue.async {
      if cancel.isDisposed { return }
      cancel.setDisposable(action(state))
    }
    return cancel
  }

  /// Runs `action(state)` on the main queue after `dueTime`.
  public func scheduleRelative<StateType: Sendable>(
    _ state: StateType, dueTime: RxTimeInterval,
    action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    mainScheduler.scheduleRelative(state, dueTime: dueTime, action: action)
  }

  /// Runs `action` on the main queue after `startAfter` and then every `period`.
  public func schedulePeriodic<StateType: Sendable>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping @Sendable (StateType) -> StateType
  ) -> any Disposable {
    mainScheduler.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
  }
}

extension ConcurrentMainScheduler: NanosecondClock {}
