import Streams
import StreamsTest
import Testing

@Suite("repeatElement")
struct RepeatTests {
  @Test("repeats until something downstream stops it")
  func stoppedByTake() {
    let events = Locked<[Event<String>]>([])
    _ = Observable.repeatElement("a").take(3).subscribe { event in
      events.withLock { $0.append(event) }
    }
    #expect(events.withLock { $0 } == [.next("a"), .next("a"), .next("a"), .completed])
  }

  @Test("on a scheduler: one action per element until disposal")
  func scheduled() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start(disposed: 204) { Observable.repeatElement(0, scheduler: scheduler) }
    #expect(res.events == [.next(201, 0), .next(202, 0), .next(203, 0)])
  }
}
