import Dispatch
import Foundation
import Streams
import Testing

/// A value whose `deinit` runs `action`: user code that a subject must never run under its lock.
private final class Token: @unchecked Sendable {
  let action: () -> Void
  init(_ action: @escaping () -> Void) { self.action = action }
  deinit { action() }
}

/// A reference set after the object it refers to is made (a token's action needs its subject).
private final class Later<Value>: @unchecked Sendable {
  var value: Value?
}

/// Runs `body` on a new thread and fails the test if it has not returned within 10 seconds: a
/// deadlock then fails instead of hanging the run (the stuck thread is left behind).
private func withWatchdog(
  _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable () -> Void
) {
  let done = DispatchSemaphore(value: 0)
  Thread {
    body()
    done.signal()
  }.start()
  if done.wait(timeout: .now() + .seconds(10)) == .timedOut {
    Issue.record("deadlock: \(what) did not return", sourceLocation: sourceLocation)
  }
}

/// Regression tests for issue 10's deadlocks: a subject released an element or an observer while
/// holding its lock, so a `deinit` that re-entered the subject hung on the non-recursive lock.
@Suite("Subject re-entrancy from deinit")
struct SubjectReentrancyTests {
  @Test("a BehaviorSubject's replaced element may read the subject in its deinit")
  func behaviorSubjectReplaced() {
    withWatchdog("BehaviorSubject.onNext") {
      let subject = Later<BehaviorSubject<Token?>>()
      let read = Later<Token?>()
      subject.value = BehaviorSubject(value: Token { read.value = try? subject.value?.value() })
      subject.value?.onNext(nil)
      #expect(read.value != nil)  // it read the new value, nil: .some(nil)
    }
  }

  @Test("a BehaviorRelay's replaced element may read the relay in its deinit")
  func behaviorRelayReplaced() {
    withWatchdog("BehaviorRelay.accept") {
      let relay = Later<BehaviorRelay<Token?>>()
      let reads = Later<Int>()
      relay.value = BehaviorRelay(value: Token { reads.value = relay.value?.value == nil ? 1 : 2 })
      relay.value?.accept(nil)
      #expect(reads.value == 1)
    }
  }

  @Test("a ReplaySubject's evicted element may emit into the subject in its deinit")
  func replayEvicted() {
    withWatchdog("ReplaySubject eviction") {
      let subject = Later<ReplaySubject<Token?>>()
      let received = Later<[Bool]>()
      received.value = []
      subject.value = ReplaySubject.create(bufferSize: 1)
      let subscription = subject.value!.subscribe(onNext: { received.value!.append($0 != nil) })
      subject.value?.onNext(Token { subject.value?.onNext(nil) })
      subject.value?.onNext(Token {})  // evicts the first token, whose deinit emits nil
      #expect(received.value == [true, true, false])
      subscription.dispose()
    }
  }

  @Test("an observer released by its disposal may subscribe to the subject in its deinit")
  func removedObserver() {
    withWatchdog("unsubscribe") {
      let subject = PublishSubject<Int>()
      let token = Token { _ = subject.subscribe(onNext: { _ in }) }
      let subscription = subject.subscribe(onNext: { _ in withExtendedLifetime(token) {} })
      _ = consume token
      subscription.dispose()
      #expect(subject.hasObservers)  // the one the deinit made
    }
  }

  @Test("observers released by the subject's dispose() may read it in their deinit")
  func disposedSubject() {
    withWatchdog("PublishSubject.dispose") {
      let subject = PublishSubject<Int>()
      let read = Later<Bool>()
      let token = Token { read.value = subject.isDisposed }
      _ = subject.subscribe(onNext: { _ in withExtendedLifetime(token) {} })
      _ = consume token
      subject.dispose()
      #expect(read.value == true)
    }
  }

  @Test("dispose() drops events queued by an observer: none is delivered after it returns")
  func disposeDropsReentrantQueue() {
    let subject = PublishSubject<Int>()
    var received: [Int] = []
    _ = subject.subscribe(onNext: { element in
      received.append(element)
      if element == 1 {
        subject.onNext(2)  // queued behind the delivery of 1
        subject.dispose()
      }
    })
    subject.onNext(1)
    #expect(received == [1])
  }

  @Test("dispose() drops events another thread queued while one was delivered")
  func disposeDropsConcurrentQueue() {
    let subject = PublishSubject<Int>()
    let reached = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let log = Later<[Int]>()
    log.value = []
    let lock = NSLock()
    _ = subject.subscribe(onNext: { element in
      lock.withLock { log.value!.append(element) }
      if element == 1 {
        reached.signal()
        proceed.wait()
      }
    })
    let done = DispatchSemaphore(value: 0)
    Thread {
      subject.onNext(1)
      done.signal()
    }.start()
    reached.wait()
    subject.onNext(2)  // queued: the other thread is delivering 1
    subject.dispose()
    proceed.signal()
    done.wait()
    #expect(lock.withLock { log.value } == [1])
  }
}

/// Findings of the review of the O(1) subject: disposal racing a terminal event, subscribing to a
/// disposed subject from inside a delivery, a stage's step disposing its own subscription.
@Suite("Subject disposal edge cases")
struct SubjectDisposalEdgeTests {
  @Test("an observer disposed after the subject accepted its terminal event gets nothing more")
  func disposedAfterTerminalAccepted() {
    let subject = PublishSubject<Int>()
    var second: (any Disposable)?
    var received: [String] = []
    _ = subject.subscribe(onNext: { element in
      subject.onCompleted()  // queued behind this delivery
      second?.dispose()
    })
    second = subject.subscribe(
      onNext: { received.append("\($0)") }, onCompleted: { received.append("completed") })
    subject.onNext(4)
    #expect(received == [])
  }

  @Test("subscribing to a subject disposed during a delivery receives RxError.disposed at once")
  func subscribeAfterDisposeInsideDelivery() {
    let subject = PublishSubject<Int>()
    var errors: [String] = []
    _ = subject.subscribe(onNext: { _ in
      subject.dispose()
      _ = subject.subscribe(onError: { errors.append("\($0)") })
    })
    subject.onNext(1)
    #expect(errors.count == 1)
  }

  @Test("a step that disposes its subscription stops the element it produced")
  func stepDisposesItsSubscription() {
    let subject = PublishSubject<Int>()
    var received: [Int] = []
    var subscription: (any Disposable)?
    subscription = subject.map { value -> Int in
      subscription?.dispose()
      return value
    }.subscribe(onNext: { received.append($0) })
    subject.onNext(1)
    subject.onNext(2)
    #expect(received == [])
  }

  @Test("a handle and its sink do not keep each other alive when the subscription never ends")
  func neverEndingSubscriptionFreed() {
    final class Token {}
    weak var weakToken: Token?
    do {
      let relay = BehaviorRelay(value: 0)
      let token = Token()
      weakToken = token
      // `onDisposed` makes the caller's disposable a handle over the closure sink; neither is
      // disposed, and the relay is dropped without a terminal event.
      _ = relay.subscribe(onNext: { _ in withExtendedLifetime(token) {} }, onDisposed: {})
      _ = relay.asObservable().subscribe(
        AnyObserver { _ in withExtendedLifetime(token) {} })
    }
    #expect(weakToken == nil)
  }
}

extension SubjectDisposalEdgeTests {
  @Test("a subject disposed by one observer does not deliver the event under way to the next ones")
  func disposeStopsTheDeliveryUnderWay() {
    let subject = PublishSubject<Int>()
    var received: [String] = []
    _ = subject.subscribe(onNext: { received.append("first \($0)") })
    _ = subject.subscribe(onNext: { _ in subject.dispose() })
    _ = subject.subscribe(onNext: { received.append("third \($0)") })
    subject.onNext(1)
    #expect(received == ["first 1"])
  }
}
