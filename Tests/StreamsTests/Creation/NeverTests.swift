import Streams
import StreamsTest
import Testing

@Suite("never")
struct NeverTests {
  @Test("emits nothing and never terminates")
  func nothing() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start { Observable<Int>.never() }
    #expect(res.events.isEmpty)
  }

  @Test("disposal releases the subscription")
  func disposal() {
    let before = Resources.total
    let subscription = Observable<Int>.never().map { $0 }.subscribe()
    subscription.dispose()
    #expect(Resources.total <= before + 1)
  }
}
