import Dispatch
import Foundation
import Testing

@testable import Streams

/// What one observer receives, behind an `NSLock` (which ThreadSanitizer understands).
private final class Log: @unchecked Sendable {
  private let lock = NSLock()
  private var elements: [Int] = []
  func append(_ element: Int) { lock.withLock { elements.append(element) } }
  var values: [Int] { lock.withLock { elements } }
}

/// Runs `body` on a new thread; the returned semaphore is signalled when it has returned.
private func spawn(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
  let done = DispatchSemaphore(value: 0)
  Thread {
    body()
    done.signal()
  }.start()
  return done
}

@Suite("SubjectCore")
struct SubjectCoreTests {
  /// The interleaving that made `replayRace` lose elements: a disposal on another thread that
  /// has begun but not yet taken the subject's lock, while one element is delivered from the queue
  /// and the next one on the lock-free path. Both paths must agree on whether the observer still
  /// receives elements, or it sees a gap. (The disposal used to mark the subscription disposed
  /// before taking the lock: the queued element skipped the observer and the next one reached it.)
  @Test(
    "an observer whose disposal is under way on another thread sees no gap, and nothing once it returned"
  )
  func disposalRacingDeliveries() {
    let subject = PublishSubject<Int>()
    let reached = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    // The first observer holds the deliveries of 1 and 2 open on the emitting thread.
    _ = subject.subscribe(onNext: { element in
      if element == 1 || element == 2 {
        reached.signal()
        proceed.wait()
      }
    })
    let log = Log()
    // The closure form: the subject's own subscription, whose flag the test watches.
    let subscription = subject.subscribe { event in
      if let element = event.element { log.append(element) }
    }
    guard let watched = subscription as? SubjectSubscription else {
      Issue.record("a subject subscription is a SubjectSubscription")
      return
    }
    subject.onNext(0)  // delivers with the lock and refreshes the delivery copy: the word is idle

    // 1 goes out on the lock-free path; 2, sent meanwhile, is queued for both observers.
    let emitted = spawn { subject.onNext(1) }
    reached.wait()
    subject.onNext(2)
    proceed.signal()
    reached.wait()  // the emitting thread now delivers the queued 2: the first observer holds it

    // Hold the subject's lock while another thread disposes: the disposal cannot finish.
    let locked = DispatchSemaphore(value: 0)
    let unlock = DispatchSemaphore(value: 0)
    let lockHolder = spawn {
      subject.core.state.withLock { _ in
        locked.signal()
        unlock.wait()
      }
    }
    locked.wait()
    let disposed = spawn { subscription.dispose() }
    // Give the disposing thread every chance to get as far as it can without the lock (the old
    // code marked the subscription disposed there, which this would observe).
    var spins = 0
    while watched.isActive, spins < 20_000 {
      sched_yield()
      spins += 1
    }
    #expect(watched.isActive, "the subscription was marked disposed before the subject's lock")

    proceed.signal()  // the queued 2 reaches the observer; the emitting thread releases the claim
    emitted.wait()
    // 3 goes out on the lock-free path (the word is idle again) while the disposal waits.
    let third = spawn { subject.onNext(3) }
    let thirdReturned = third.wait(timeout: .now() + .seconds(30)) == .success
    unlock.signal()
    lockHolder.wait()
    disposed.wait()
    if !thirdReturned { third.wait() }
    // The disposal has returned: nothing more reaches the observer.
    subject.onNext(4)

    let elements = log.values
    #expect(elements == Array(0..<elements.count), "a gap: \(elements)")
    #expect(elements == [0, 1, 2, 3])
    #expect(!watched.isActive)
  }

  /// The liveness gap the reliability stress suite found: a thread delivering a subject's event
  /// also applied the subscriptions and disposals other threads queued meanwhile, one per lock
  /// round, so four threads subscribing and disposing in a loop kept its `onNext` from ever
  /// returning (a CI run hung with 5.5 GB queued). The churning threads here run until that
  /// `onNext` has returned; a watchdog turns a hang into a failure (and then stops them).
  @Test(
    "a delivering onNext returns while other threads subscribe and dispose without pause",
    arguments: ["PublishSubject", "BehaviorSubject", "ReplaySubject"])
  func deliveryReturnsUnderChurn(kind: String) {
    // Subscribed to from the churning threads: subscribing from any thread is part of the contract.
    let (observable, observer): (Unchecked<Observable<Int>>, AnyObserver<Int>) =
      switch kind {
      case "PublishSubject":
        { (Unchecked($0.asObservable()), $0.asObserver()) }(PublishSubject<Int>())
      case "BehaviorSubject":
        { (Unchecked($0.asObservable()), $0.asObserver()) }(BehaviorSubject(value: 0))
      default:
        { (Unchecked($0.asObservable()), $0.asObserver()) }(
          ReplaySubject<Int>.create(bufferSize: 2))
      }
    let churners = 4
    let stop = Flag()
    let rounds = (0..<churners).map { _ in Counter() }
    let churning = DispatchGroup()
    let started = DispatchSemaphore(value: 0)
    // The first element starts the churning threads from inside its delivery and returns once
    // each has made a good number of rounds, so that their changes are queued for this thread.
    let held = observable.value.subscribe(onNext: { element in
      guard element == 1 else { return }
      for index in 0..<churners {
        churning.enter()
        Thread {
          while !stop.isSet {
            let subscription = observable.value.subscribe(onNext: { _ in }, isolation: nil)
            subscription.dispose()
            rounds[index].increment()
          }
          churning.leave()
        }.start()
      }
      while !stop.isSet, rounds.contains(where: { $0.value < 200 }) { sched_yield() }
      started.signal()
    })
    let delivered = spawn { observer.onNext(1) }
    let ready = started.wait(timeout: .now() + .seconds(60)) == .success
    #expect(ready, "the churning threads did not get going")
    let returned = ready && delivered.wait(timeout: .now() + .seconds(60)) == .success
    #expect(returned, "onNext did not return while other threads churned subscriptions")
    stop.set()
    churning.wait()
    if !returned { delivered.wait() }
    held.dispose()
  }

  /// A subscriber with replay that subscribes while another thread delivers gets its replay on its
  /// own thread, inside `subscribe` (as in RxSwift), and the events the delivering thread sends its
  /// entry meanwhile are held back and delivered after the replay, in order, by the subscribing
  /// thread.
  @Test("a replay subscriber arriving during another thread's delivery gets the replay first")
  func replayDuringOtherThreadsDelivery() {
    let subject = BehaviorSubject(value: 0)
    let first = Log()
    let held = HeldDelivery(subject.asObservable(), subject.asObserver(), log: first)
    let second = Log()
    let subscribing = Flag()
    let deliveredReturned = Flag()
    let heldBack = Flag()
    subscribing.set()
    let secondSubscription = subject.subscribe(onNext: { element in
      second.append(element)
      if element == 1 {
        // The replay, on this thread. 2 is queued behind this subscriber's entry (the other
        // thread holds the claim); the other thread delivers it once released, to the first
        // observer and to the gate, which holds it back: its `onNext(1)` then returns.
        subject.onNext(2)
        held.release()
        deliveredReturned.set()
      } else if element == 2 {
        // Delivered by this thread from the gate, still inside `subscribe`.
        if subscribing.isSet && deliveredReturned.isSet { heldBack.set() }
      }
    })
    subscribing.clear()
    held.release()  // in case the replay never came
    #expect(heldBack.isSet, "2 was not held back for the subscribing thread")
    subject.onNext(3)
    #expect(first.values == [0, 1, 2, 3])
    #expect(second.values == [1, 2, 3])
    secondSubscription.dispose()
    held.subscription.dispose()
  }

  /// What a gate holds back is queued work like any other: once the subject's `dispose()` has
  /// returned, neither the rest of a replay nor a held-back event reaches the observer.
  @Test("a subject disposed during a gated replay delivers nothing more to the new subscriber")
  func gatedReplayStopsAtSubjectDisposal() {
    let subject = ReplaySubject<Int>.create(bufferSize: 2)
    subject.onNext(-1)
    let held = HeldDelivery(subject.asObservable(), subject.asObserver(), log: Log())
    let second = Log()
    let subscription = subject.subscribe(onNext: { element in
      second.append(element)
      if element == 1 {
        subject.onNext(2)  // queued behind this entry, then held back by the gate
        held.release()
        subject.dispose()
      }
    })
    held.release()  // in case the replay never came
    #expect(second.values == [-1, 1])
    subscription.dispose()
  }

  /// A subscription disposed before the delivering thread added it: its observer (here the only
  /// reference to the caller's closure) is released after the subject's lock is released, so a
  /// `deinit` may use the subject. A probe thread reads the subject from inside the deinit; it
  /// cannot finish while the deinit runs under the lock.
  @Test(
    "a queued subscription disposed before it joined releases its observer outside the lock",
    arguments: ["PublishSubject", "BehaviorSubject"])
  func droppedQueuedSubscriptionReleasedOutsideLock(kind: String) {
    let (observable, observer): (Observable<Int>, AnyObserver<Int>) =
      kind == "PublishSubject"
      ? { ($0.asObservable(), $0.asObserver()) }(PublishSubject<Int>())
      : { ($0.asObservable(), $0.asObserver()) }(BehaviorSubject(value: 0))
    let held = HeldDelivery(observable, observer, log: Log())
    let underLock = Flag()
    let probeDone = DispatchSemaphore(value: 0)
    let readable = Unchecked(observable)
    weak var released: DeinitProbe?
    do {
      let probe = DeinitProbe {
        spawnDetached {
          _ = readable.value.subscribe(onNext: { _ in }, isolation: nil)
          probeDone.signal()
        }
        if probeDone.wait(timeout: .now() + .seconds(10)) == .timedOut { underLock.set() }
      }
      released = probe
      // Queued (the other thread holds the claim), then disposed before it joins the table.
      observable.subscribe(onNext: { _ in withExtendedLifetime(probe) {} }, isolation: nil)
        .dispose()
    }
    #expect(released != nil, "the queued entry holds the observer until it is dropped")
    held.release()
    #expect(released == nil)
    #expect(!underLock.isSet, "the observer was released under the subject's lock")
    if underLock.isSet { probeDone.wait() }
    held.subscription.dispose()
  }

  /// The gated subscribe path lets go of the caller's closure when the subscription ends, by
  /// disposal or by the subject's completion.
  @Test(
    "a subscription that joined through a gate releases its observer when it ends",
    arguments: ["dispose", "complete"])
  func gatedSubscriptionLifetime(ending: String) {
    let subject = BehaviorSubject(value: 0)
    let held = HeldDelivery(subject.asObservable(), subject.asObserver(), log: Log())
    let received = Log()
    weak var released: DeinitProbe?
    var subscription: (any Disposable)?
    do {
      let probe = DeinitProbe {}
      released = probe
      subscription = subject.subscribe(onNext: { element in
        withExtendedLifetime(probe) {}
        received.append(element)
      })
    }
    held.release()
    subject.onNext(2)
    #expect(received.values == [1, 2])
    #expect(released != nil)
    if ending == "dispose" { subscription?.dispose() } else { subject.onCompleted() }
    #expect(released == nil)
    held.subscription.dispose()
  }
}

/// A delivery of 1 held open on another thread inside a first observer (which logs what it
/// receives into `log`), so that the subject's delivery claim is taken when `init` returns.
/// ``release()`` lets that delivery finish and waits until its `onNext` has returned; calling it
/// again does nothing.
private final class HeldDelivery: @unchecked Sendable {
  let subscription: any Disposable
  private let go = DispatchSemaphore(value: 0)
  private let delivered: DispatchSemaphore
  private let released = Flag()

  init(_ observable: Observable<Int>, _ observer: AnyObserver<Int>, log: Log) {
    let reached = DispatchSemaphore(value: 0)
    let go = self.go
    subscription = observable.subscribe(
      onNext: { element in
        log.append(element)
        if element == 1 {
          reached.signal()
          go.wait()
        }
      }, isolation: nil)
    delivered = spawn { observer.onNext(1) }
    reached.wait()
  }

  func release() {
    guard !released.testAndSet() else { return }
    go.signal()
    delivered.wait()
  }
}

/// Runs `action` in its `deinit`.
private final class DeinitProbe: @unchecked Sendable {
  let action: () -> Void
  init(_ action: @escaping () -> Void) { self.action = action }
  deinit { action() }
}

/// Runs `body` on a new thread, not waited for.
private func spawnDetached(_ body: @escaping @Sendable () -> Void) {
  Thread { body() }.start()
}

/// A flag shared between threads, behind an `NSLock`.
private final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  func set() { lock.withLock { value = true } }
  /// Sets the flag; `true` if it was already set.
  func testAndSet() -> Bool {
    lock.withLock {
      defer { value = true }
      return value
    }
  }
  func clear() { lock.withLock { value = false } }
  var isSet: Bool { lock.withLock { value } }
}

/// A counter shared between threads, behind an `NSLock`.
private final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func increment() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}
