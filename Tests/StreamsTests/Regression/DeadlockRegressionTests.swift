import Dispatch
import Foundation
import Streams
import Testing

/// One lock-inversion experiment, the shape of RxSwift's deadlocks: an operator calls out to code
/// (an observer, a teardown, a subscription to its source) that takes a foreign lock, while
/// another thread that holds the foreign lock reaches into the operator. If the operator made that
/// call while holding its own lock, the two threads wait for each other.
///
/// ``run(trigger:reach:)`` runs `trigger` on one thread; it must make the operator call
/// ``userCode()``. The other thread takes the foreign lock, waits until `userCode` runs, then calls
/// `reach` (which needs the operator's lock) and releases the foreign lock. Every wait gives up
/// after 10 seconds, so a deadlock is reported as a failure instead of hanging the test run; no
/// duration is asserted.
private final class LockInversion: @unchecked Sendable {
  // `@unchecked Sendable`: semaphores are thread-safe; `entered` and `acquired` are guarded by
  // `flags`.
  private let foreign = DispatchSemaphore(value: 1)
  private let foreignHeld = DispatchSemaphore(value: 0)
  private let userCodeRunning = DispatchSemaphore(value: 0)
  private let flags = NSLock()
  private var entered = false
  private var acquired = false

  static let patience = DispatchTimeInterval.seconds(10)

  /// The call-out under test: the first call announces itself, then needs the foreign lock.
  func userCode() {
    let first = flags.withLock {
      defer { entered = true }
      return !entered
    }
    guard first else { return }
    userCodeRunning.signal()
    if foreign.wait(timeout: .now() + Self.patience) == .success {
      foreign.signal()
      flags.withLock { acquired = true }
    }
  }

  /// `true` when both threads finished and the call-out got the foreign lock: no inversion.
  func run(trigger: @escaping @Sendable () -> Void, reach: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchGroup()
    done.enter()
    Thread { [self] in
      foreign.wait()
      foreignHeld.signal()
      _ = userCodeRunning.wait(timeout: .now() + Self.patience)
      reach()
      foreign.signal()
      done.leave()
    }.start()
    done.enter()
    Thread { [self] in
      _ = foreignHeld.wait(timeout: .now() + Self.patience)
      trigger()
      done.leave()
    }.start()
    let finished = done.wait(timeout: .now() + .seconds(30)) == .success
    return finished && flags.withLock { acquired }
  }
}

/// A value shared between threads behind an `NSLock` (which ThreadSanitizer understands).
private final class Guarded<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.withLock { body(&value) }
  }
}

/// Runs every body on its own thread, released together; `false` if they hang.
private func runTogether(_ bodies: [@Sendable () -> Void]) -> Bool {
  let start = DispatchSemaphore(value: 0)
  let done = DispatchGroup()
  for body in bodies {
    done.enter()
    Thread {
      start.wait()
      body()
      done.leave()
    }.start()
  }
  for _ in bodies { start.signal() }
  return done.wait(timeout: .now() + LockInversion.patience) == .success
}

private let shareVariants: [(replay: Int, scope: SubjectLifetimeScope)] = [
  (1, .whileConnected), (2, .whileConnected), (1, .forever), (2, .forever),
]

@Suite("Deadlock regressions: sharing, subjects, relays")
struct DeadlockRegressionTests {
  // MARK: #2713, #2653: replaying to a new subscriber under the operator's lock

  @Test("#2713: ReplaySubject replays its buffer outside its lock")
  func replaySubjectReplay() {
    let experiment = LockInversion()
    let subject = ReplaySubject<Int>.create(bufferSize: 1)
    subject.onNext(1)
    let finished = experiment.run(
      trigger: { subject.subscribe(onNext: { _ in experiment.userCode() }).dispose() },
      reach: { subject.subscribe(onNext: { _ in }).dispose() })
    #expect(finished, "ReplaySubject replayed its buffer while holding its lock")
  }

  @Test("#2713 shape: BehaviorSubject and BehaviorRelay send the current value outside the lock")
  func behaviorSubjectReplay() {
    let experiment = LockInversion()
    let subject = BehaviorSubject(value: 1)
    let finished = experiment.run(
      trigger: { subject.subscribe(onNext: { _ in experiment.userCode() }).dispose() },
      reach: { subject.onNext(2) })
    #expect(finished, "BehaviorSubject sent its value while holding its lock")

    let relayExperiment = LockInversion()
    let relay = BehaviorRelay(value: 1)
    let relayFinished = relayExperiment.run(
      trigger: { relay.subscribe(onNext: { _ in relayExperiment.userCode() }).dispose() },
      reach: { relay.update { $0 += 1 } })
    #expect(relayFinished, "BehaviorRelay sent its value while holding its lock")
  }

  @Test(
    "#2653: share(replay:scope:) replays to a new subscriber outside its lock",
    arguments: shareVariants)
  func shareReplay(replay: Int, scope: SubjectLifetimeScope) {
    // The chain is zip + take(1) + share(replay: 1) on concurrent schedulers: zip disposes
    // the shared subscription under zip's lock while share replays into zip under share's lock.
    // The lock shape is reproduced directly: the replayed element reaches an observer that needs
    // a foreign lock, while the foreign lock's holder subscribes to and disposes from the share.
    let experiment = LockInversion()
    let source = Observable<Int>.create { observer in
      observer.onNext(1)
      return Disposables.create()
    }
    let shared = Unchecked(source.share(replay: replay, scope: scope))
    let keepConnected = shared.value.subscribe(onNext: { _ in })
    let finished = experiment.run(
      trigger: { shared.value.subscribe(onNext: { _ in experiment.userCode() }).dispose() },
      reach: { shared.value.subscribe(onNext: { _ in }).dispose() })
    keepConnected.dispose()
    #expect(finished, "share replayed while holding its lock")
  }

  // MARK: #2698: disposing the source subscription under the operator's lock

  @Test("#2698: disposing a multicast connection tears the source down outside the lock")
  func multicastConnectionDispose() {
    let experiment = LockInversion()
    let source = Observable<Int>.create { _ in
      Disposables.create { experiment.userCode() }
    }
    let connectable = Unchecked(source.multicast(PublishSubject<Int>()))
    let connection = connectable.value.connect()
    let finished = experiment.run(
      trigger: { connection.dispose() },
      reach: { connectable.value.subscribe(onNext: { _ in }).dispose() })
    #expect(finished, "the connection disposed its source subscription under its lock")
  }

  @Test("#2698 shape: refCount and share disconnect the source outside their locks")
  func lastSubscriberDisconnects() {
    let makers: [(Observable<Int>) -> Observable<Int>] = [
      { $0.publish().refCount() }, { $0.replay(1).refCount() }, { $0.share() },
      { $0.share(replay: 1, scope: .forever) },
    ]
    for make in makers {
      let experiment = LockInversion()
      let first = Guarded(true)
      let source = Observable<Int>.create { _ in
        let isFirst = first.withLock { first in
          defer { first = false }
          return first
        }
        return Disposables.create { if isFirst { experiment.userCode() } }
      }
      let shared = Unchecked(make(source))
      let last = shared.value.subscribe(onNext: { _ in })
      let finished = experiment.run(
        trigger: { last.dispose() },
        reach: { shared.value.subscribe(onNext: { _ in }).dispose() })
      #expect(finished, "disconnecting the source happened under the operator's lock")
    }
  }

  // MARK: #2708 (from #2698): connecting under the operator's lock

  @Test("#2708: refCount, share and connect() subscribe to the source outside their locks")
  func connectOutsideLock() {
    let makers: [(Observable<Int>) -> Observable<Int>] = [
      { $0.publish().refCount() }, { $0.share() }, { $0.share(replay: 1) },
      { $0.share(replay: 1, scope: .forever) },
    ]
    for make in makers {
      let experiment = LockInversion()
      let source = Observable<Int>.create { _ in
        experiment.userCode()
        return Disposables.create()
      }
      let shared = Unchecked(make(source))
      let first = Unchecked(SingleAssignmentDisposable())
      let finished = experiment.run(
        trigger: { first.value.setDisposable(shared.value.subscribe(onNext: { _ in })) },
        reach: { shared.value.subscribe(onNext: { _ in }).dispose() })
      first.value.dispose()
      #expect(finished, "connecting subscribed to the source under the operator's lock")
    }

    let experiment = LockInversion()
    let source = Observable<Int>.create { _ in
      experiment.userCode()
      return Disposables.create()
    }
    let connectable = Unchecked(source.publish())
    let finished = experiment.run(
      trigger: { _ = connectable.value.connect() },
      reach: {
        connectable.value.subscribe(onNext: { _ in }).dispose()
        _ = connectable.value.connect()
      })
    connectable.value.connect().dispose()
    #expect(finished, "connect() subscribed to the source under the multicast lock")
  }

  // MARK: #2718: concurrent first subscriptions

  @Test("#2718: concurrent first subscriptions connect the source once")
  func concurrentFirstSubscriptions() {
    let makers: [(Observable<Int>) -> Observable<Int>] = [
      { $0.share() }, { $0.share(replay: 1) }, { $0.share(replay: 0, scope: .forever) },
      { $0.publish().refCount() },
    ]
    for make in makers {
      for _ in 0..<20 {
        let subscriptions = Guarded(0)
        let teardowns = Guarded(0)
        let source = Observable<Int>.create { _ in
          subscriptions.withLock { $0 += 1 }
          return Disposables.create { teardowns.withLock { $0 += 1 } }
        }
        let shared = Unchecked(make(source))
        let disposables = Guarded<[any Disposable]>([])
        let subscriber = { @Sendable in
          let subscription = shared.value.subscribe(onNext: { _ in })
          disposables.withLock { $0.append(subscription) }
        }
        #expect(runTogether(Array(repeating: subscriber, count: 16)), "subscribers hung")
        #expect(subscriptions.withLock { $0 } == 1)
        for disposable in disposables.withLock({ $0 }) { disposable.dispose() }
        #expect(subscriptions.withLock { $0 } == 1)
        #expect(teardowns.withLock { $0 } == 1)
      }
    }
  }

  // MARK: #2727: resuming a waiter under a lock that cancellation needs

  @Test("#2727 shape: a terminal callback runs outside the locks that disposal needs")
  func terminalCallbackVersusDisposal() {
    // Single.value resumed its continuation under the bridge lock while task cancellation took
    // the same lock. Streams has no Single.value bridge yet; the same shape with a synchronous
    // subscription: the terminal callback (the "resume") needs a foreign lock, and the foreign
    // lock's holder disposes the subscription (the "cancellation").
    let sources: [(PublishSubject<Int>) -> Observable<Int>] = [
      { $0.asObservable() }, { $0.share(replay: 1) }, { $0.publish().refCount() },
    ]
    for makeSource in sources {
      let experiment = LockInversion()
      let subject = PublishSubject<Int>()
      let source = Unchecked(makeSource(subject))
      let subscription = source.value.subscribe(
        onNext: { _ in }, onCompleted: { experiment.userCode() })
      let finished = experiment.run(
        trigger: {
          subject.onNext(1)
          subject.onCompleted()
        },
        reach: { subscription.dispose() })
      #expect(finished, "the terminal callback ran under a lock that disposal needs")
    }
  }
}
