import Streams
import StreamsTest
import Testing

@Suite("Amb")
struct AmbTests {
  @Test("two silent sources stay subscribed")
  func never() {
    let scheduler = TestScheduler(initialClock: 0)
    let x1 = scheduler.createHotObservable([.next(150, 1)])
    let x2 = scheduler.createHotObservable([.next(150, 1)])
    let res = scheduler.start { x1.asObservable().amb(x2) }
    #expect(res.events == [])
    #expect(x1.subscriptions == [Subscription(200, 1000)])
    #expect(x2.subscriptions == [Subscription(200, 1000)])
  }

  @Test("the first source to emit wins and the other is disposed")
  func leftWins() {
    let scheduler = TestScheduler(initialClock: 0)
    let x1 = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(220, 3), .completed(250),
    ])
    let x2 = scheduler.createHotObservable([.next(150, 1), .next(215, 5), .completed(300)])
    let res = scheduler.start { x1.asObservable().amb(x2) }
    #expect(res.events == [.next(210, 2), .next(220, 3), .completed(250)])
    #expect(x1.subscriptions == [Subscription(200, 250)])
    #expect(x2.subscriptions == [Subscription(200, 210)])
  }

  @Test("an error can win")
  func errorWins() {
    let scheduler = TestScheduler(initialClock: 0)
    let x1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(250)])
    let x2 = scheduler.createHotObservable([.next(150, 1), .error(205, MultiTestError.second)])
    let res = scheduler.start { x1.asObservable().amb(x2) }
    #expect(res.events == [.error(205, MultiTestError.second)])
    #expect(x1.subscriptions == [Subscription(200, 205)])
    #expect(x2.subscriptions == [Subscription(200, 205)])
  }

  @Test("static amb picks among several sources")
  func several() {
    let scheduler = TestScheduler(initialClock: 0)
    let x1 = scheduler.createHotObservable([.next(230, 1), .completed(300)])
    let x2 = scheduler.createHotObservable([.next(220, 2), .next(240, 4), .completed(260)])
    let x3 = scheduler.createHotObservable([.next(225, 3), .completed(350)])
    let res = scheduler.start {
      Observable.amb([x1.asObservable(), x2.asObservable(), x3.asObservable()])
    }
    #expect(res.events == [.next(220, 2), .next(240, 4), .completed(260)])
    #expect(x1.subscriptions == [Subscription(200, 220)])
    #expect(x2.subscriptions == [Subscription(200, 260)])
    #expect(x3.subscriptions == [Subscription(200, 220)])
  }

  @Test("disposal disposes whatever is still subscribed")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let x1 = scheduler.createHotObservable([.next(230, 1), .completed(300)])
    let x2 = scheduler.createHotObservable([.next(220, 2), .next(240, 4), .completed(260)])
    let res = scheduler.start(disposed: 230) { x1.asObservable().amb(x2) }
    #expect(res.events == [.next(220, 2)])
    #expect(x1.subscriptions == [Subscription(200, 220)])
    #expect(x2.subscriptions == [Subscription(200, 230)])
  }
}
