/// Disposes its underlying disposable on a scheduler.
///
/// ```swift
/// let scheduled = ScheduledDisposable(scheduler: MainScheduler.instance, disposable: subscription)
/// scheduled.dispose()  // `subscription` is disposed on the main thread
/// ```
public final class ScheduledDisposable: Cancelable {
  /// The scheduler the underlying disposable is disposed on.
  public let scheduler: any ImmediateSchedulerType
  private let state: Locked<(any Disposable)?>

  /// Wraps `disposable`, to be disposed on `scheduler`.
  public init(scheduler: any ImmediateSchedulerType, disposable: any Disposable) {
    self.scheduler = scheduler
    state = Locked(disposable)
  }

  /// `true` once disposal was requested.
  public var isDisposed: Bool { state.withLock { $0 == nil } }

  /// Schedules the disposal of the underlying disposable.
  public func dispose() {
    let disposable = state.withLock { state -> (any Disposable)? in
      defer { state = nil }
      return state
    }
    guard let disposable else { return }
    _ = scheduler.schedule(()) { _ in
      disposable.dispose()
      return Disposables.create()
    }
  }
}
