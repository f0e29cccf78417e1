import Streams
import StreamsTest
import Testing

private struct TestFailure: Error, Equatable {}

@Suite("take(for:scheduler:)")
struct TakeForTests {
  @Test("the source completing first completes the result")
  func completesFirst() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
    let res = scheduler.start { xs.take(for: .seconds(70), scheduler: scheduler) }
    #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("the duration ending first completes the result and disposes the source")
  func durationFirst() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250),
    ])
    let res = scheduler.start { xs.take(for: .seconds(25), scheduler: scheduler) }
    #expect(res.events == [.next(210, 1), .next(220, 2), .completed(225)])
    #expect(xs.subscriptions == [Subscription(200, 225)])
  }

  @Test("an error within the duration is forwarded")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestFailure())])
    let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
    #expect(res.events == [.next(210, 1), .error(220, TestFailure())])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("a zero duration completes on the next tick")
  func zero() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
    let res = scheduler.start { xs.take(for: .seconds(0), scheduler: scheduler) }
    #expect(res.events == [.completed(201)])
    #expect(xs.subscriptions == [Subscription(200, 201)])
  }

  @Test("disposal before the duration ends")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
    let res = scheduler.start(disposed: 230) { xs.take(for: .seconds(100), scheduler: scheduler) }
    #expect(res.events == [.next(210, 1)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }
}
