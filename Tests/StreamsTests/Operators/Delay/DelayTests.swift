import Streams
import StreamsTest
import Testing

private struct TestFailure: Error, Equatable {}

@Suite("delay")
struct DelayTests {
  private static let source: [Recorded<Event<Int>>] = [
    .next(150, 1), .next(250, 2), .next(350, 3), .next(450, 4),
  ]

  @Test(
    "elements and completion move later by the due time",
    arguments: [
      (100, [Recorded<Event<Int>>.next(350, 2), .next(450, 3), .next(550, 4), .completed(650)]),
      (50, [.next(300, 2), .next(400, 3), .next(500, 4), .completed(600)]),
      (150, [.next(400, 2), .next(500, 3), .next(600, 4), .completed(700)]),
    ])
  func simple(dueTime: Int, expected: [Recorded<Event<Int>>]) {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable(Self.source + [.completed(550)])
    let res = scheduler.start { xs.delay(.seconds(dueTime), scheduler: scheduler) }
    #expect(res.events == expected)
    #expect(xs.subscriptions == [Subscription(200, 550)])
  }

  @Test("an error is forwarded at once and drops the waiting elements")
  func errors() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable(Self.source + [.error(550, TestFailure())])
    let res = scheduler.start { xs.delay(.seconds(50), scheduler: scheduler) }
    #expect(
      res.events == [.next(300, 2), .next(400, 3), .next(500, 4), .error(550, TestFailure())])
    #expect(xs.subscriptions == [Subscription(200, 550)])

    let scheduler2 = TestScheduler(initialClock: 0)
    let ys = scheduler2.createHotObservable(Self.source + [.error(550, TestFailure())])
    let res2 = scheduler2.start { ys.delay(.seconds(150), scheduler: scheduler2) }
    #expect(res2.events == [.next(400, 2), .next(500, 3), .error(550, TestFailure())])
    #expect(ys.subscriptions == [Subscription(200, 550)])
  }

  @Test("an error with nothing emitted, and a delayed completion")
  func terminalOnly() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(150, 1), .error(250, TestFailure())])
    let res = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
    #expect(res.events == [.error(250, TestFailure())])
    #expect(xs.subscriptions == [Subscription(200, 250)])

    let scheduler2 = TestScheduler(initialClock: 0)
    let ys = scheduler2.createHotObservable([.next(150, 1), Recorded<Event<Int>>.completed(250)])
    let res2 = scheduler2.start { ys.delay(.seconds(150), scheduler: scheduler2) }
    #expect(res2.events == [.completed(400)])
    #expect(ys.subscriptions == [Subscription(200, 250)])
  }

  @Test("the source subscription ends when the source terminates, before the delayed completion")
  func sourceDisposedAtTermination() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 1), Recorded<Event<Int>>.completed(20)])
    let res = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
    #expect(res.events == [.next(310, 1), .completed(320)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("events of one tick keep their order, the later ones one tick apart")
  func sameTick() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([
      .next(10, 1), .next(10, 2), Recorded<Event<Int>>.completed(30),
    ])
    let res = scheduler.start { xs.delay(.seconds(20), scheduler: scheduler) }
    #expect(res.events == [.next(230, 1), .next(231, 2), .completed(250)])
  }

  @Test("disposal drops the waiting elements")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable(Self.source + [.completed(550)])
    let res = scheduler.start(disposed: 420) { xs.delay(.seconds(100), scheduler: scheduler) }
    #expect(res.events == [.next(350, 2)])
    #expect(xs.subscriptions == [Subscription(200, 420)])
  }
}
