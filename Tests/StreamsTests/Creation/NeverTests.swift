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

  @Test("disposal ends the subscription without any event")
  func disposal() {
    let log = Locked<[String]>([])
    let subscription = Observable<Int>.never().subscribe(
      onNext: { _ in log.withLock { $0.append("next") } },
      onError: { _ in log.withLock { $0.append("error") } },
      onCompleted: { log.withLock { $0.append("completed") } },
      onDisposed: { log.withLock { $0.append("disposed") } })
    #expect(log.withLock { $0 }.isEmpty)
    subscription.dispose()
    #expect(log.withLock { $0 } == ["disposed"])
  }
}
