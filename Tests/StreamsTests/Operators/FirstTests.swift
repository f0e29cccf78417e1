import Streams
import StreamsTest
import Testing

private struct Failure: Error, Equatable {}

@Suite("first")
struct FirstTests {
  @Test("emits the first element and completes")
  func value() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
    let res = scheduler.start { xs.first().asObservable() }
    #expect(res.events == [.next(210, Optional(1)), .completed(210)])
    #expect(xs.subscriptions == [Subscription(200, 210)])
  }

  @Test("emits nil when the source is empty")
  func empty() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([Recorded<Event<Int>>.completed(300)])
    let res = scheduler.start { xs.first().asObservable() }
    #expect(res.events == [.next(300, nil), .completed(300)])
  }

  @Test("forwards an error")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([Recorded<Event<Int>>.error(250, Failure())])
    let res = scheduler.start { xs.first().asObservable() }
    #expect(res.events == [.error(250, Failure())])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("disposal before the first element disposes the source")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([Recorded<Event<Int>>.next(300, 1)])
    let res = scheduler.start(disposed: 250) { xs.first().asObservable() }
    #expect(res.events.isEmpty)
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }
}
