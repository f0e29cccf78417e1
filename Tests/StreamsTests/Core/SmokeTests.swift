import Streams
import StreamsTest
import Testing

@Suite("Smoke")
struct SmokeTests {
  @Test("map and filter on a hot observable")
  func mapFilter() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(300),
    ])
    let res = scheduler.start { xs.map { $0 * 10 }.filter { $0 != 30 } }
    #expect(res.events == [.next(210, 20), .next(230, 40), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }
}
