import Streams
import StreamsTest
import Testing

private struct Failure: Error, Equatable {}

@Suite("startWith")
struct StartWithTests {
  @Test("emits the prefix at subscription, then the source")
  func values() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(150, 1), .next(220, 3), .completed(300)])
    let res = scheduler.start { xs.startWith(1, 2) }
    #expect(res.events == [.next(200, 1), .next(200, 2), .next(220, 3), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("forwards an error")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([Recorded<Event<Int>>.error(250, Failure())])
    let res = scheduler.start { xs.startWith(0) }
    #expect(res.events == [.next(200, 0), .error(250, Failure())])
  }

  @Test("disposal disposes the source")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(220, 3), .next(300, 4)])
    let res = scheduler.start(disposed: 250) { xs.startWith(0) }
    #expect(res.events == [.next(200, 0), .next(220, 3)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("prefix then a synchronous source, in order")
  func synchronous() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start { Observable.of(3, 4).startWith(1, 2) }
    #expect(
      res.events == [.next(200, 1), .next(200, 2), .next(200, 3), .next(200, 4), .completed(200)])
  }
}
