import Dispatch

/// The scheduler of the main queue (the main thread), as RxSwift's `MainScheduler`.
///
/// ```swift
/// _ = viewModel.title
///   .observe(on: MainScheduler.instance)
///   .subscribe(onNext: { label.text = $0 })
/// ```
///
/// ``instance`` runs work at once when the caller is already on the main queue and no work it
/// scheduled earlier is still waiting there; otherwise it enqueues the work asynchronously on the
/// main queue, so that work never overtakes earlier work. ``asyncInstance`` always enqueues.
/// Relative and periodic work runs on `DispatchSourceTimer`s on the main queue.
///
/// "On the main queue" is detected without Foundation by a `DispatchQueue.getSpecific` key set on
/// the main queue (what RxSwift's `DispatchQueue.isMain` does): it is `true` on the main thread
/// and inside work running on the main queue or a queue that targets it.
///
/// `@unchecked Sendable`: the only added state is an atomic counter.
public final class MainScheduler: SerialDispatchQueueScheduler, @unchecked Sendable {
  /// Work items scheduled through ``schedule(_:action:)`` that have not finished.
  private let numberEnqueued = AtomicCounter()

  /// The shared main scheduler: runs work synchronously when it can (see the type's summary).
  public static let instance = MainScheduler()

  /// A main-queue scheduler that always enqueues work asynchronously, even on the main thread.
  ///
  /// ```swift
  /// _ = MainScheduler.asyncInstance.schedule(()) { _ in
  ///   print("later")
  ///   return Disposables.create()
  /// }
  /// print("now")
  /// // Prints "now", then "later"
  /// ```
  public static let asyncInstance = SerialDispatchQueueScheduler(serialQueue: DispatchQueue.main)

  /// A scheduler of the main queue; prefer the shared ``instance``.
  public init() {
    super.init(serialQueue: DispatchQueue.main)
  }

  /// Stops the program unless the caller runs on the main queue.
  ///
  /// ```swift
  /// MainScheduler.ensureExecutingOnScheduler()  // passes on the main thread
  /// ```
  ///
  /// - Parameter errorMessage: The message to stop with; a default one names the misuse.
  public static func ensureExecutingOnScheduler(errorMessage: String? = nil) {
    if !MainQueueCheck.isMain {
      streamsStop(
        errorMessage
          ?? "Executing on a background thread. Use `MainScheduler.instance.schedule` to schedule "
          + "work on the main thread.")
    }
  }

  /// Stops the program unless the caller runs on the main thread; the same check as
  /// ``ensureExecutingOnScheduler(errorMessage:)``, under RxSwift's other name.
  public static func ensureRunningOnMainThread(errorMessage: String? = nil) {
    ensureExecutingOnScheduler(errorMessage: errorMessage)
  }

  /// Runs `action(state)` now if the caller is on the main queue and nothing scheduled here is
  /// waiting; otherwise enqueues it on the main queue. Disposing the result cancels work that
  /// has not started.
  public override func schedule<StateType: Sendable>(
    _ state: StateType, action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    let previous = numberEnqueued.increment() - 1
    if previous == 0 && MainQueueCheck.isMain {
      let disposable = action(state)
      numberEnqueued.decrement()
      return disposable
    }
    let cancel = SingleAssignmentDisposable()
    let counter = numberEnqueued
    let action = Tracing.carryingCause(action, to: Tracing.mainQueueLabel)
    DispatchQueue.main.async {
      if !cancel.isDisposed {
        cancel.setDisposable(action(state))
      }
      counter.decrement()
    }
    return cancel
  }
}
