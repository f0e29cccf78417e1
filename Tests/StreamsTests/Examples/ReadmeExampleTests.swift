import Streams
import StreamsTest
import Testing

/// The example in README.md, kept compiling and passing.
@Suite("README example")
struct ReadmeExampleTests {
  @Test("debouncesTyping")
  func debouncesTyping() {
    let scheduler = TestScheduler(initialClock: 0)
    let query = scheduler.createHotObservable([
      .next(210, "s"), .next(220, "sw"), .next(600, "swi"),
    ])
    let res = scheduler.start { query.debounce(.seconds(100), scheduler: scheduler) }
    #expect(res.events == [.next(320, "sw"), .next(700, "swi")])
  }
}
