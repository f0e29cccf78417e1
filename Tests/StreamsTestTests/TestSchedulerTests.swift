import Streams
import StreamsTest
import Testing

@Suite("TestScheduler")
struct TestSchedulerTests {
  @Test("cold observable events are relative to the subscription")
  func cold() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, "a"), .completed(20)])
    let res = scheduler.start { xs.asObservable() }
    #expect(res.events == [.next(210, "a"), .completed(220)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }
}
