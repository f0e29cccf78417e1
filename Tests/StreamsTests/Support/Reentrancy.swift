import Dispatch
import Foundation
import Streams

/// An element (or error) whose `deinit` runs user code: the code re-enters the operator that
/// released it. If the operator released it while holding its lock, the re-entry takes the same
/// non-recursive lock on the same thread and the thread hangs.
final class Reentrant: Sendable {
  let id: Int
  private let onDeinit: (@Sendable () -> Void)?

  init(_ id: Int, onDeinit: (@Sendable () -> Void)? = nil) {
    self.id = id
    self.onDeinit = onDeinit
  }

  deinit { onDeinit?() }
}

/// An error whose `deinit` runs user code (see ``Reentrant``).
final class ReentrantError: Error {
  private let onDeinit: @Sendable () -> Void

  init(onDeinit: @escaping @Sendable () -> Void) {
    self.onDeinit = onDeinit
  }

  deinit { onDeinit() }
}

/// A source whose observer the test calls directly, also from inside a delivery or a `deinit`
/// (a subject would queue such a nested event instead of passing it on).
///
/// `@unchecked Sendable`: used by one thread at a time, the watchdog's (``finishesInTime(_:)``);
/// `observer` is set while subscribing on that thread.
final class DirectSource<Element>: @unchecked Sendable {
  private var observer: AnyObserver<Element>?

  /// Subscribing hands the observer to this object; disposal forgets it.
  var observable: Observable<Element> {
    Observable.create { [self] observer in
      self.observer = observer
      return Disposables.create()
    }
  }

  func onNext(_ element: Element) { observer?.onNext(element) }
  func onError(_ error: any Error) { observer?.onError(error) }
}

/// A disposable set after `subscribe` returned, for an observer that disposes its own subscription.
///
/// `@unchecked Sendable`: used by one thread at a time, the watchdog's.
final class DisposableHolder: @unchecked Sendable {
  var disposable: (any Disposable)?
  func dispose() { disposable?.dispose() }
}

/// Runs `body` on a thread of its own and waits for it at most `seconds`: `nil` when it did not
/// finish, which is how a deadlock fails a test instead of hanging the run (a thread that hangs
/// stays blocked until the process exits); otherwise what `body` returned.
func withWatchdog<Result: Sendable>(
  seconds: Int = 10, _ body: @escaping @Sendable () -> Result
) -> Result? {
  let done = DispatchSemaphore(value: 0)
  let result = WatchdogResult<Result>()
  Thread {
    result.set(body())
    done.signal()
  }.start()
  guard done.wait(timeout: .now() + .seconds(seconds)) == .success else { return nil }
  return result.get()
}

/// ``withWatchdog(seconds:_:)`` for a body without a result: `false` when it did not finish.
func finishesInTime(seconds: Int = 10, _ body: @escaping @Sendable () -> Void) -> Bool {
  withWatchdog(seconds: seconds, body) != nil
}

/// The result of a watched body, handed from its thread to the test's.
///
/// `@unchecked Sendable`: `value` is only read and written under `lock`.
private final class WatchdogResult<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value?

  func set(_ value: Value) { lock.withLock { self.value = value } }
  func get() -> Value? { lock.withLock { value } }
}
