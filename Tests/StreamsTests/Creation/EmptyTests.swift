import Streams
import StreamsTest
import Testing

@Suite("empty")
struct EmptyTests {
  @Test("completes at subscription time")
  func completes() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start { Observable<Int>.empty() }
    #expect(res.events == [.completed(200)])
  }

  @Test("completes before subscribe returns")
  func synchronous() {
    let events = Locked<[Event<Int>]>([])
    _ = Observable<Int>.empty().subscribe { event in events.withLock { $0.append(event) } }
    #expect(events.withLock { $0 } == [.completed])
  }
}
