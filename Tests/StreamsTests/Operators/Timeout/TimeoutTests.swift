import Streams
import StreamsTest
import Testing

private struct TestFailure: Error, Equatable {}

@Suite("timeout")
struct TimeoutTests {
  @Test("elements in time pass through and the completion is forwarded")
  func inTime() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 0), .next(210, 1), .next(240, 2), .next(270, 3), .completed(300),
    ])
    let res = scheduler.start { xs.timeout(.seconds(50), scheduler: scheduler) }
    #expect(res.events == [.next(210, 1), .next(240, 2), .next(270, 3), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("an error in time is forwarded")
  func errorInTime() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .error(240, TestFailure())])
    let res = scheduler.start { xs.timeout(.seconds(50), scheduler: scheduler) }
    #expect(res.events == [.next(210, 1), .error(240, TestFailure())])
    #expect(xs.subscriptions == [Subscription(200, 240)])
  }

  @Test("a gap longer than the due time fails with RxError.timeout")
  func timesOut() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(240, 2), .next(320, 3), .completed(400),
    ])
    let res = scheduler.start { xs.timeout(.seconds(50), scheduler: scheduler) }
    #expect(res.events == [.next(210, 1), .next(240, 2), .error(290, RxError.timeout)])
    #expect(xs.subscriptions == [Subscription(200, 290)])
  }

  @Test("the first element must also arrive within the due time of the subscription")
  func timesOutBeforeFirst() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(150, 0), .next(300, 1)])
    let res = scheduler.start { xs.timeout(.seconds(50), scheduler: scheduler) }
    #expect(res.events == [.error(250, RxError.timeout)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("switches to the other sequence at the timeout")
  func other() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(70, 1), .next(130, 2), .next(240, 3), .next(310, 4), .next(430, 5), .completed(500),
    ])
    let ys = scheduler.createColdObservable([
      .next(50, -1), .next(200, -2), .next(310, -3), Recorded<Event<Int>>.completed(320),
    ])
    let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
    #expect(
      res.events == [
        .next(240, 3), .next(310, 4), .next(460, -1), .next(610, -2), .next(720, -3),
        .completed(730),
      ])
    #expect(xs.subscriptions == [Subscription(200, 410)])
    #expect(ys.subscriptions == [Subscription(410, 730)])
  }

  @Test("the other sequence's error is forwarded")
  func otherError() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 0)])
    let ys = scheduler.createColdObservable([Recorded<Event<Int>>.error(10, TestFailure())])
    let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
    #expect(res.events == [.error(310, TestFailure())])
    #expect(xs.subscriptions == [Subscription(200, 300)])
    #expect(ys.subscriptions == [Subscription(300, 310)])
  }

  @Test("disposal before the timeout cancels the timer; the other sequence is never subscribed")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .next(400, 3)])
    let ys = scheduler.createColdObservable([Recorded<Event<Int>>.next(10, -1)])
    let res = scheduler.start(disposed: 300) {
      xs.timeout(.seconds(100), other: ys, scheduler: scheduler)
    }
    #expect(res.events == [.next(210, 1), .next(260, 2)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
    #expect(ys.subscriptions == [])
  }
}
