import Dispatch

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The Dispatch work shared by the queue-backed schedulers: async for immediate work, a one-shot
/// `DispatchSourceTimer` for relative work and a repeating one for periodic work.
struct DispatchQueueConfiguration: Sendable {
  let queue: DispatchQueue
  let leeway: DispatchTimeInterval
  /// The queue as a trace names its hops: `main queue`, `queue com.app.search`.
  let hopLabel: String

  init(queue: DispatchQueue, leeway: DispatchTimeInterval) {
    self.queue = queue
    self.leeway = leeway
    // Compared by label: on Linux each `DispatchQueue.main` is a new wrapper of the same queue.
    if queue.label == DispatchQueue.main.label {
      hopLabel = Tracing.mainQueueLabel
    } else {
      hopLabel = queue.label.isEmpty ? "dispatch queue" : "queue \(queue.label)"
    }
  }

  /// Runs `action` asynchronously on the queue unless disposed first.
  func schedule<StateType: Sendable>(
    _ state: StateType, action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    let cancel = SingleAssignmentDisposable()
    let action = Tracing.carryingCause(action, to: hopLabel)
    queue.async {
      if cancel.isDisposed { return }
      cancel.setDisposable(action(state))
    }
    return cancel
  }

  /// Runs `action` on the queue after `dueTime`; `.never` never runs it.
  func scheduleRelative<StateType: Sendable>(
    _ state: StateType, dueTime: RxTimeInterval,
    action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    if case .never = dueTime { return BooleanDisposable() }
    let action = Tracing.carryingCause(action, to: hopLabel)
    let timer = DispatchSource.makeTimerSource(queue: queue)
    let disposable = DispatchTimerDisposable(timer: timer)
    timer.schedule(deadline: DispatchTime.now() + dueTime.clampedToZero, leeway: leeway)
    // The handler holds `disposable` (and so the timer) until it fires or is disposed.
    timer.setEventHandler {
      guard disposable.fire() else { return }
      disposable.setInner(action(state))
    }
    timer.resume()
    return disposable
  }

  /// Runs `action` on the queue after `startAfter` and then every `period`.
  func schedulePeriodic<StateType: Sendable>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping @Sendable (StateType) -> StateType
  ) -> any Disposable {
    if case .never = startAfter { return BooleanDisposable() }
    let timer = DispatchSource.makeTimerSource(queue: queue)
    let disposable = DispatchTimerDisposable(timer: timer)
    let current = Locked(state)
    timer.schedule(
      deadline: DispatchTime.now() + startAfter.clampedToZero, repeating: period, leeway: leeway)
    // A source's handler never runs concurrently with itself, so the state is read, transformed
    // and written back without overlapping ticks; the lock only publishes it between threads.
    timer.setEventHandler {
      if disposable.isDisposed { return }
      let next = action(current.withLock { $0 })
      // The state it replaces is released after the lock (its deinit is user code).
      let replaced = current.withLock { state -> StateType in
        defer { state = next }
        return state
      }
      withExtendedLifetime(replaced) {}
    }
    timer.resume()
    return disposable
  }
}

/// Owns one dispatch timer and the disposable its action returned; disposing cancels both.
final class DispatchTimerDisposable: Cancelable {
  /// `@unchecked Sendable`: a dispatch source may be used from any thread (libdispatch objects
  /// are thread-safe) but is not annotated `Sendable` on every platform.
  private struct State: @unchecked Sendable {
    var timer: (any DispatchSourceTimer)?
    var inner: (any Disposable)?
    var isDisposed = false
  }

  private let state: Locked<State>

  init(timer: any DispatchSourceTimer) {
    state = Locked(State(timer: timer))
  }

  var isDisposed: Bool { state.withLock { $0.isDisposed } }

  /// Called by a one-shot timer's handler: releases the timer and returns `false` if disposed.
  func fire() -> Bool {
    let (timer, live) = state.withLock { s -> ((any DispatchSourceTimer)?, Bool) in
      defer { s.timer = nil }
      return (s.timer, !s.isDisposed)
    }
    timer?.cancel()
    return live
  }

  /// Keeps what the action returned so that disposal reaches it.
  func setInner(_ disposable: any Disposable) {
    let disposeNow = state.withLock { s -> Bool in
      if s.isDisposed { return true }
      s.inner = disposable
      return false
    }
    if disposeNow { disposable.dispose() }
  }

  func dispose() {
    let (timer, inner) = state.withLock { s -> ((any DispatchSourceTimer)?, (any Disposable)?) in
      if s.isDisposed { return (nil, nil) }
      s.isDisposed = true
      defer {
        s.timer = nil
        s.inner = nil
      }
      return (s.timer, s.inner)
    }
    timer?.cancel()
    inner?.dispose()
  }
}

extension DispatchTimeInterval {
  /// The interval, with negative values treated as zero.
  var clampedToZero: DispatchTimeInterval {
    nanoseconds < 0 ? .nanoseconds(0) : self
  }
}

/// The wall clock (`CLOCK_REALTIME`), as nanoseconds since 1970: the clock RxSwift's dispatch
/// schedulers read through `Date()`, in whole nanoseconds.
func wallClockNanoseconds() -> Int64 {
  var spec = timespec()
  clock_gettime(CLOCK_REALTIME, &spec)
  return Int64(spec.tv_sec) &* 1_000_000_000 &+ Int64(spec.tv_nsec)
}

/// Tells whether the caller runs on the main queue.
///
/// The core links FoundationEssentials only (no `Thread.isMainThread`), `pthread_main_np` exists
/// only on Darwin, and Glibc does not export `gettid`. So, as RxSwift's `DispatchQueue.isMain` does, a
/// specific key is set on the main queue and looked up with `DispatchQueue.getSpecific`. It answers
/// `true` on the main thread (libdispatch makes the main queue current there at start-up, also
/// outside any block) and inside work submitted to the main queue or a queue that targets it.
@usableFromInline
enum MainQueueCheck {
  private static let key: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
  }()

  /// `true` when the current code runs on the main queue.
  @usableFromInline
  static var isMain: Bool { DispatchQueue.getSpecific(key: key) != nil }

  /// Runs `action` on the main actor: now when the caller is on the main queue, otherwise on the
  /// main queue's next turn. Depends on nothing else queued there (unlike `MainScheduler`, which
  /// enqueues while any of its earlier work waits).
  static func runOnMainActor(_ action: @escaping @MainActor @Sendable () -> Void) {
    if isMain {
      MainActor.assumeIsolated(action)
    } else {
      DispatchQueue.main.async { MainActor.assumeIsolated(action) }
    }
  }
}
