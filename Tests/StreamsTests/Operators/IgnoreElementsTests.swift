import Streams
import StreamsTest
import Testing

private struct Failure: Error, Equatable {}

@Suite("ignoreElements")
struct IgnoreElementsTests {
  @Test("passes only the completion")
  func completes() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
    let res = scheduler.start { xs.ignoreElements() }
    #expect(res.events == [.completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("passes an error")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .error(250, Failure())])
    let res = scheduler.start { xs.ignoreElements() }
    #expect(res.events == [.error(250, Failure())])
  }

  @Test("disposal disposes the source")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
    let res = scheduler.start(disposed: 250) { xs.ignoreElements() }
    #expect(res.events.isEmpty)
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }
}
