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

@Suite("subscribe(on:)")
struct SubscribeOnTests {
  @Test("subscription and disposal are scheduled actions, one tick later on a TestScheduler")
  func virtualTime() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(250, 3)])
    let res = scheduler.start { xs.subscribe(on: scheduler) }
    #expect(res.events == [.next(210, 2), .next(250, 3)])
    #expect(xs.subscriptions == [Subscription(201, 1001)])
  }

  @Test("as in RxSwift, a test observable's subscription ends on the scheduler after it terminates")
  func terminal() {
    // A hot or cold test observable is an `ObservableType`, not an `Observable`: it is subscribed
    // directly, so nothing between it and `subscribe(on:)` disposes it at the terminal event.
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), Recorded<Event<Int>>.completed(300)])
    let res = scheduler.start { xs.subscribe(on: scheduler) }
    #expect(res.events == [.next(210, 2), .completed(300)])
    #expect(xs.subscriptions == [Subscription(201, 301)])

    let scheduler2 = TestScheduler(initialClock: 0)
    let ys = scheduler2.createHotObservable([Recorded<Event<Int>>.error(300, TestFailure())])
    let res2 = scheduler2.start { ys.subscribe(on: scheduler2) }
    #expect(res2.events == [.error(300, TestFailure())])
    #expect(ys.subscriptions == [Subscription(201, 301)])

    let scheduler3 = TestScheduler(initialClock: 0)
    let zs = scheduler3.createColdObservable([.next(10, 1), Recorded<Event<Int>>.completed(20)])
    let res3 = scheduler3.start { zs.subscribe(on: scheduler3) }
    #expect(res3.events == [.next(211, 1), .completed(221)])
    #expect(zs.subscriptions == [Subscription(201, 222)])
  }

  @Test("an Observable source disposes itself at its terminal event, as in RxSwift")
  func observableTerminal() {
    let scheduler = TestScheduler(initialClock: 0)
    let disposedAt = Locked<[TestTime]>([])
    let source = Observable<Int>.create { observer in
      observer.onCompleted()
      return Disposables.create { disposedAt.withLock { $0.append(scheduler.clock) } }
    }
    let res = scheduler.start { source.subscribe(on: scheduler) }
    #expect(res.events == [.completed(201)])
    #expect(disposedAt.withLock { $0 } == [201])
  }

  @Test("disposal before the scheduled subscription cancels it")
  func disposedBeforeSubscribing() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([Recorded<Event<Int>>.next(210, 2)])
    let res = scheduler.start(disposed: 201) { xs.subscribe(on: scheduler) }
    #expect(res.events == [])
    #expect(xs.subscriptions == [])
  }

  @Test("on a dispatch queue, the source is subscribed and disposed on that queue")
  func onQueue() {
    let key = DispatchSpecificKey<Int>()
    let target = DispatchQueue(label: "subscribe-on-target")
    target.setSpecific(key: key, value: 3)
    let scheduler = SerialDispatchQueueScheduler(
      queue: target, internalSerialQueueName: "subscribe-on-serial")
    let subscribedOnQueue = Locked<Bool?>(nil)
    let disposedOnQueue = Locked<Bool?>(nil)
    let subscribed = DispatchSemaphore(value: 0)
    let disposed = DispatchSemaphore(value: 0)
    let source = Observable<Int>.create { observer in
      subscribedOnQueue.withLock { $0 = DispatchQueue.getSpecific(key: key) == 3 }
      subscribed.signal()
      return Disposables.create {
        disposedOnQueue.withLock { $0 = DispatchQueue.getSpecific(key: key) == 3 }
        disposed.signal()
      }
    }
    let subscription = source.subscribe(on: scheduler).subscribe()
    #expect(waitForSignal(subscribed))
    subscription.dispose()
    #expect(waitForSignal(disposed))
    #expect(subscribedOnQueue.withLock { $0 } == true)
    #expect(disposedOnQueue.withLock { $0 } == true)
  }
}

/// Real threads: subscribing and disposing from many threads at once; must pass under
/// ThreadSanitizer.
@Suite("subscribe(on:) stress")
struct SubscribeOnStressTests {
  @Test("every subscription made is disposed exactly once, whenever the disposal comes")
  func subscribeAndDispose() {
    let queue = DispatchQueue(label: "subscribe-on-stress", attributes: .concurrent)
    let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
    let counts = Locked((subscribed: 0, disposed: 0))
    let source = SourceFactory.counting(counts)
    let disposals = DispatchGroup()
    DispatchQueue.concurrentPerform(iterations: 200) { iteration in
      let subscription = source.make().subscribe(on: scheduler).subscribe()
      if iteration % 2 == 0 {
        subscription.dispose()
      } else {
        disposals.enter()
        DispatchQueue.global().async {
          subscription.dispose()
          disposals.leave()
        }
      }
    }
    #expect(disposals.wait(timeout: .now() + .seconds(5)) == .success)
    // The first barrier waits for every scheduled subscription; disposals those enqueued are
    // flushed by the second.
    queue.sync(flags: .barrier) {}
    queue.sync(flags: .barrier) {}
    let final = counts.withLock { $0 }
    #expect(final.subscribed == final.disposed)
    #expect(final.subscribed <= 200)
  }

  @Test("observe(on:) after subscribe(on:) keeps the grammar under concurrent disposal")
  func combined() {
    let subscribeScheduler = ConcurrentDispatchQueueScheduler(qos: .default)
    let observeScheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "stress-observe")
    let checkers = (0..<32).map { _ in GrammarChecker<Int>() }
    let disposals = DispatchGroup()
    DispatchQueue.concurrentPerform(iterations: checkers.count) { index in
      let checker = checkers[index]
      let source = Observable<Int>.create { observer in
        for value in 0..<20 { observer.onNext(value) }
        observer.onCompleted()
        return Disposables.create()
      }
      let subscription = source.subscribe(on: subscribeScheduler).observe(on: observeScheduler)
        .subscribe(
          onNext: { checker.next($0) }, onError: { _ in checker.terminal() },
          onCompleted: { checker.terminal() })
      disposals.enter()
      DispatchQueue.global().async {
        subscription.dispose()
        disposals.leave()
      }
    }
    // Only check once nothing can be delivered any more: every disposal has returned (after which
    // observe(on:) starts no delivery), and a delivery already running on the observe queue has
    // finished.
    #expect(disposals.wait(timeout: .now() + .seconds(5)) == .success)
    observeScheduler.queue.sync {}
    for checker in checkers {
      #expect(checker.violations == 0)
      let elements = checker.elements
      #expect(elements == Array(0..<elements.count))
    }
  }
}

/// Builds sources that count their subscriptions and disposals.
private enum SourceFactory {
  struct Counting: Sendable {
    let counts: Locked<(subscribed: Int, disposed: Int)>

    func make() -> Observable<Int> {
      let counts = counts
      return Observable.create { _ in
        counts.withLock { $0.subscribed += 1 }
        return Disposables.create { counts.withLock { $0.disposed += 1 } }
      }
    }
  }

  static func counting(_ counts: Locked<(subscribed: Int, disposed: Int)>) -> Counting {
    Counting(counts: counts)
  }
}
