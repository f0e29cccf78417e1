import Streams
import StreamsTest
import Testing

@Suite("TestableObservable")
struct TestableObservableTests {
  @Test("a hot observable ignores events before the subscription and emits at absolute times")
  func hot() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(200, 2), .next(210, 3), .error(250, TestFailure.boom),
    ])
    let res = scheduler.start { xs }
    // 200 is the subscription tick: the event was queued with the observable, before start's
    // subscription step, so it is missed (as in RxTest).
    #expect(res.events == [.next(210, 3), .error(250, TestFailure.boom)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(xs.recordedEvents.count == 4)
  }

  @Test("a hot observable delivers to every subscriber in subscription order")
  func hotSubscribers() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(110, 1), .next(210, 2), .next(310, 3)])
    let first = scheduler.createObserver(Int.self)
    let second = scheduler.createObserver(Int.self)
    let order = Log<String>()
    let holder = DisposableHolder()
    scheduler.scheduleAt(100) {
      _ = xs.subscribe { event in
        if let value = event.element { order.append("first \(value)") }
        first.on(event)
      }
    }
    scheduler.scheduleAt(200) {
      holder.disposable = xs.subscribe { event in
        if let value = event.element { order.append("second \(value)") }
        second.on(event)
      }
    }
    scheduler.scheduleAt(300) { holder.disposable?.dispose() }
    scheduler.start()
    #expect(first.events == [.next(110, 1), .next(210, 2), .next(310, 3)])
    #expect(second.events == [.next(210, 2)])
    #expect(order.values == ["first 1", "first 2", "second 2", "first 3"])
    #expect(xs.subscriptions == [Subscription(100), Subscription(200, 300)])
  }

  @Test("a hot observable keeps subscription order after an earlier subscriber left")
  func hotSubscriptionOrder() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1)])
    let order = Log<String>()
    let holder = DisposableHolder()
    scheduler.scheduleAt(100) { holder.disposable = xs.subscribe { _ in order.append("first") } }
    scheduler.scheduleAt(110) { _ = xs.subscribe { _ in order.append("second") } }
    scheduler.scheduleAt(120) { holder.disposable?.dispose() }
    scheduler.scheduleAt(130) { _ = xs.subscribe { _ in order.append("third") } }
    scheduler.start()
    #expect(order.values == ["second", "third"])
  }

  @Test("a cold observable replays for each subscription, shifted by its time")
  func coldPerSubscription() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(0, "a"), .next(20, "b"), .completed(30)])
    let first = scheduler.createObserver(String.self)
    let second = scheduler.createObserver(String.self)
    scheduler.scheduleAt(100) { _ = xs.subscribe(first) }
    scheduler.scheduleAt(115) { _ = xs.subscribe(second) }
    scheduler.start()
    // Offset 0 is delivered at the subscription tick itself, as RxTest does.
    #expect(first.events == [.next(100, "a"), .next(120, "b"), .completed(130)])
    #expect(second.events == [.next(115, "a"), .next(135, "b"), .completed(145)])
    // A raw subscription to a test observable is not ended by its own completion.
    #expect(xs.subscriptions == [Subscription(100), Subscription(115)])
  }

  @Test("disposing a cold subscription mid-stream stops delivery; the clock still runs out")
  func coldDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 1), .next(60, 2), .next(500, 3)])
    let res = scheduler.start(disposed: 250) { xs.map { $0 + 1 } }
    #expect(res.events == [.next(210, 2)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(scheduler.clock == 700)
  }

  @Test("a test observable does not enforce the grammar: events after completion are recorded")
  func noGrammarEnforcement() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.completed(210, Int.self), .next(220, 1)])
    let observer = scheduler.createObserver(Int.self)
    scheduler.scheduleAt(200) { _ = xs.subscribe(observer) }
    scheduler.start()
    #expect(observer.events == [.completed(210), .next(220, 1)])
  }
}
