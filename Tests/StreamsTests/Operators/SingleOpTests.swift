import Streams
import StreamsTest
import Testing

private struct Failure: Error, Equatable {}

@Suite("single")
struct SingleOpTests {
  @Test("one element: passes it and completes")
  func one() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
    let res = scheduler.start { xs.single() }
    #expect(res.events == [.next(210, 1), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("no element: fails with noElements")
  func none() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([Recorded<Event<Int>>.completed(300)])
    let res = scheduler.start { xs.single() }
    #expect(res.events == [.error(300, RxError.noElements)])
  }

  @Test("two elements: fails with moreThanOneElement at the second")
  func two() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
    let res = scheduler.start { xs.single() }
    #expect(res.events == [.next(210, 1), .error(220, RxError.moreThanOneElement)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("forwards an error")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .error(250, Failure())])
    let res = scheduler.start { xs.single() }
    #expect(res.events == [.next(210, 1), .error(250, Failure())])
  }

  @Test("with a predicate: only matching elements count")
  func predicate() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 4), .next(230, 2), .completed(300),
    ])
    let res = scheduler.start { xs.single { $0 > 3 } }
    #expect(res.events == [.next(220, 4), .completed(300)])

    let scheduler2 = TestScheduler(initialClock: 0)
    let ys = scheduler2.createHotObservable([.next(210, 1), .completed(300)])
    let res2 = scheduler2.start { ys.single { $0 > 3 } }
    #expect(res2.events == [.error(300, RxError.noElements)])

    let scheduler3 = TestScheduler(initialClock: 0)
    let zs = scheduler3.createHotObservable([.next(210, 5), .next(220, 6), .completed(300)])
    let res3 = scheduler3.start { zs.single { $0 > 3 } }
    #expect(res3.events == [.next(210, 5), .error(220, RxError.moreThanOneElement)])
  }

  @Test("a throwing predicate becomes an error and disposes the source")
  func throwing() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
    let res = scheduler.start { xs.single { _ in throw Failure() } }
    #expect(res.events == [.error(210, Failure())])
    #expect(xs.subscriptions == [Subscription(200, 210)])
  }

  @Test("disposal mid-stream disposes the source")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
    let res = scheduler.start(disposed: 250) { xs.single() }
    #expect(res.events == [.next(210, 1)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }
}
