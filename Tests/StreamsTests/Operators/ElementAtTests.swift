import Streams
import StreamsTest
import Testing

private struct Failure: Error, Equatable {}

@Suite("element(at:)")
struct ElementAtTests {
  @Test("emits the element at the index and completes")
  func value() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .completed(300),
    ])
    let res = scheduler.start { xs.element(at: 1) }
    #expect(res.events == [.next(220, 2), .completed(220)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("fails with argumentOutOfRange when the source ends early")
  func outOfRange() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
    let res = scheduler.start { xs.element(at: 1) }
    #expect(res.events == [.error(300, RxError.argumentOutOfRange)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("forwards an error")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .error(250, Failure())])
    let res = scheduler.start { xs.element(at: 3) }
    #expect(res.events == [.error(250, Failure())])
  }

  @Test("disposal before the index disposes the source")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(300, 2)])
    let res = scheduler.start(disposed: 250) { xs.element(at: 1) }
    #expect(res.events.isEmpty)
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("a negative index traps")
  func negative() async {
    await #expect(processExitsWith: .failure) {
      _ = Observable.of(1).element(at: -1)
    }
  }
}
