import Dispatch
import Streams
import StreamsTest
import Testing

private struct TestFailure: Error, Equatable {}

/// Waits at most five seconds for `semaphore`; `true` when it was signalled. Only arrival is
/// asserted, never how long it took.
private func waitForSignal(_ semaphore: DispatchSemaphore) -> Bool {
  semaphore.wait(timeout: .now() + .seconds(5)) == .success
}

@Suite("observe(on:)")
struct ObserveOnTests {
  @Test("each event is delivered by its own scheduled action, one tick later on a TestScheduler")
  func virtualTime() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(250, 3), .completed(300),
    ])
    let res = scheduler.start { xs.observe(on: scheduler) }
    #expect(res.events == [.next(211, 2), .next(251, 3), .completed(301)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("events that arrive together are delivered in order, one action after another")
  func fifo() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start {
      Observable<Int>.create { observer in
        observer.onNext(1)
        observer.onNext(2)
        observer.onNext(3)
        observer.onCompleted()
        return Disposables.create()
      }.observe(on: scheduler)
    }
    #expect(res.events == [.next(201, 1), .next(202, 2), .next(203, 3), .completed(204)])
  }

  @Test("an error is delivered after the elements before it")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .error(250, TestFailure())])
    let res = scheduler.start { xs.observe(on: scheduler) }
    #expect(res.events == [.next(211, 2), .error(251, TestFailure())])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("disposal drops the queued events")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start(disposed: 202) {
      Observable<Int>.create { observer in
        observer.onNext(1)
        observer.onNext(2)
        observer.onNext(3)
        return Disposables.create()
      }.observe(on: scheduler)
    }
    #expect(res.events == [.next(201, 1)])
  }

  @Test("on a serial dispatch queue, events arrive in order on that queue")
  func serialQueue() {
    let key = DispatchSpecificKey<Int>()
    let target = DispatchQueue(label: "observe-on-target")
    target.setSpecific(key: key, value: 7)
    let scheduler = SerialDispatchQueueScheduler(
      queue: target, internalSerialQueueName: "observe-on-serial")
    let received = Locked<[Int]>([])
    let onQueue = Locked(true)
    let done = DispatchSemaphore(value: 0)
    let subject = PublishSubject<Int>()
    let subscription = subject.observe(on: scheduler).subscribe(
      onNext: { value in
        let here = DispatchQueue.getSpecific(key: key) == 7
        onQueue.withLock { $0 = $0 && here }
        received.withLock { $0.append(value) }
      },
      onCompleted: { done.signal() })
    for value in 0..<100 { subject.onNext(value) }
    subject.onCompleted()
    #expect(waitForSignal(done))
    #expect(received.withLock { $0 } == Array(0..<100))
    #expect(onQueue.withLock { $0 })
    subscription.dispose()
  }

  @Test("after disposal on the delivering queue, nothing more is delivered")
  func disposalStopsDelivery() {
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on-dispose")
    let received = Locked<[Int]>([])
    let subscription = Locked<(any Disposable)?>(nil)
    let subject = PublishSubject<Int>()
    let disposed = DispatchSemaphore(value: 0)
    let d = subject.observe(on: scheduler).subscribe(onNext: { value in
      received.withLock { $0.append(value) }
      if value == 2 {
        subscription.withLock { $0 }?.dispose()
        disposed.signal()
      }
    })
    subscription.withLock { $0 = d }
    for value in 0..<50 { subject.onNext(value) }
    #expect(waitForSignal(disposed))
    // Work queued after the disposal has run once this barrier passes.
    scheduler.queue.sync {}
    #expect(received.withLock { $0 } == [0, 1, 2])
  }
}

/// Real threads: many producers and disposers at once; must pass under ThreadSanitizer.
@Suite("observe(on:) stress")
struct ObserveOnStressTests {
  @Test("concurrent scheduler: serial, FIFO delivery and one terminal event, many times over")
  func concurrentDelivery() {
    let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      let checker = GrammarChecker<Int>()
      let subject = PublishSubject<Int>()
      let done = DispatchSemaphore(value: 0)
      let subscription = subject.observe(on: scheduler).subscribe(
        onNext: { checker.next($0) }, onError: { _ in checker.terminal() },
        onCompleted: {
          checker.terminal()
          done.signal()
        })
      for value in 0..<300 { subject.onNext(value) }
      subject.onCompleted()
      #expect(waitForSignal(done))
      #expect(checker.elements == Array(0..<300))
      #expect(checker.violations == 0)
      subscription.dispose()
    }
  }

  @Test("disposing from another thread while events are delivered breaks no rule")
  func disposeWhileDelivering() {
    // A queue of the test's own, so that a barrier can wait for a delivery still running.
    let queue = DispatchQueue(label: "observe-on-dispose-stress", attributes: .concurrent)
    let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
    DispatchQueue.concurrentPerform(iterations: 16) { iteration in
      let checker = GrammarChecker<Int>()
      let subject = PublishSubject<Int>()
      let subscription = subject.observe(on: scheduler).subscribe(
        onNext: { checker.next($0) }, onError: { _ in checker.terminal() },
        onCompleted: { checker.terminal() })
      let disposer = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        subscription.dispose()
        disposer.signal()
      }
      for value in 0..<(50 + iteration) { subject.onNext(value) }
      subject.onCompleted()
      #expect(waitForSignal(disposer))
      // Once dispose() has returned no delivery starts; one already running finishes before this
      // barrier passes. Only then is the record final.
      queue.sync(flags: .barrier) {}
      #expect(checker.violations == 0)
      let elements = checker.elements
      #expect(elements == Array(0..<elements.count))
    }
  }
}

/// Records what an observer receives and counts breaches of the Rx contract: overlapping calls,
/// events after a terminal event, more than one terminal event.
final class GrammarChecker<Element: Sendable>: Sendable {
  private struct State {
    var inside = 0
    var elements: [Element] = []
    var terminated = false
    var violations = 0
  }

  private let state = Locked(State())

  var elements: [Element] { state.withLock { $0.elements } }
  var violations: Int { state.withLock { $0.violations } }

  func next(_ element: Element) {
    enter()
    state.withLock { s in
      if s.terminated { s.violations += 1 }
      s.elements.append(element)
    }
    leave()
  }

  func terminal() {
    enter()
    state.withLock { s in
      if s.terminated { s.violations += 1 }
      s.terminated = true
    }
    leave()
  }

  private func enter() {
    state.withLock { s in
      s.inside += 1
      if s.inside > 1 { s.violations += 1 }
    }
  }

  private func leave() {
    state.withLock { $0.inside -= 1 }
  }
}
