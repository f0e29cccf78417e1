import Streams
import StreamsTest
import Testing

private struct Failure: Error, Equatable {}

@Suite("error")
struct ErrorTests {
  @Test("fails at subscription time")
  func fails() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start { Observable<Int>.error(Failure()) }
    #expect(res.events == [.error(200, Failure())])
  }
}
