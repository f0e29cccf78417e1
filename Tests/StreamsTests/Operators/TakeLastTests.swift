import Streams
import StreamsTest
import Testing

private struct Failure: Error, Equatable {}

@Suite("takeLast")
struct TakeLastTests {
  @Test("emits the last elements when the source completes")
  func values() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300),
    ])
    let res = scheduler.start { xs.takeLast(2) }
    #expect(res.events == [.next(300, 3), .next(300, 4), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("fewer elements than count: emits them all")
  func fewer() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
    let res = scheduler.start { xs.takeLast(5) }
    #expect(res.events == [.next(300, 1), .completed(300)])
  }

  @Test("count 0 emits only the completion")
  func zero() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
    let res = scheduler.start { xs.takeLast(0) }
    #expect(res.events == [.completed(300)])
  }

  @Test("an error drops the buffer")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .error(300, Failure())])
    let res = scheduler.start { xs.takeLast(2) }
    #expect(res.events == [.error(300, Failure())])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("disposal before completion emits nothing")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
    let res = scheduler.start(disposed: 250) { xs.takeLast(2) }
    #expect(res.events.isEmpty)
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("a negative count traps")
  func negative() async {
    await #expect(processExitsWith: .failure) {
      _ = Observable.of(1).takeLast(-1)
    }
  }
}
