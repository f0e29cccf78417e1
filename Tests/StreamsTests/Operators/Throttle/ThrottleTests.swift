import Streams
import StreamsTest
import Testing

private struct TestFailure: Error, Equatable {}

/// The tables of RxSwift's ThrottleTests (hot source, throttle of 200 ticks).
@Suite("throttle")
struct ThrottleTests {
  private static let elements: [Recorded<Event<Int>>] = [
    .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4), .next(350, 5), .next(410, 6),
    .next(450, 7),
  ]

  @Test("latest: the last element of a window is emitted when the window ends")
  func latestCompleted() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable(Self.elements + [.completed(500)])
    let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
    #expect(res.events == [.next(210, 2), .next(410, 6), .next(610, 7), .completed(610)])
    #expect(xs.subscriptions == [Subscription(200, 500)])
  }

  @Test("an element exactly dueTime after the last one sent is sent, at millisecond ticks")
  func exactBoundaryAtMillisecondTicks() {
    // Times as `Date`s near 1970 are good to about 0.1 µs, so an interval computed from two of
    // them lands a hair off 100 ms; the operator reads the scheduler's clock in whole
    // nanoseconds and sees exactly 100 ms.
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
    var elements: [Recorded<Event<Int>>] = []
    var expected: [Recorded<Event<Int>>] = []
    for index in 0..<20 {
      let time = 210 + 100 * index
      elements.append(.next(time - 1, -index))  // 99 ms after the last one sent: dropped
      elements.append(.next(time, index))
      expected.append(.next(time, index))
    }
    elements.removeFirst()
    let xs = scheduler.createHotObservable(elements)
    let res = scheduler.start(disposed: 5000) {
      xs.throttle(.milliseconds(100), latest: false, scheduler: scheduler)
    }
    #expect(res.events == expected)
  }

  @Test("latest: completion after the pending element was sent is forwarded at once")
  func latestCompletedAfterDueTime() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable(Self.elements + [.completed(900)])
    let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
    #expect(res.events == [.next(210, 2), .next(410, 6), .next(610, 7), .completed(900)])
    #expect(xs.subscriptions == [Subscription(200, 900)])
  }

  @Test("latest: a source without elements")
  func latestNeverAndEmpty() {
    let scheduler = TestScheduler(initialClock: 0)
    let never = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 0)])
    let empty = scheduler.createHotObservable([.next(150, 0), Recorded<Event<Int>>.completed(500)])
    let neverResult = scheduler.start { never.throttle(.seconds(200), scheduler: scheduler) }
    #expect(neverResult.events == [])
    #expect(never.subscriptions == [Subscription(200, 1000)])

    let scheduler2 = TestScheduler(initialClock: 0)
    let empty2 = scheduler2.createHotObservable(empty.recordedEvents)
    let emptyResult = scheduler2.start { empty2.throttle(.seconds(200), scheduler: scheduler2) }
    #expect(emptyResult.events == [.completed(500)])
    #expect(empty2.subscriptions == [Subscription(200, 500)])
  }

  @Test("latest: an error is forwarded at once and drops the kept element")
  func latestError() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4), .next(350, 5),
      .error(410, TestFailure()), .next(450, 7), .completed(500),
    ])
    let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
    #expect(res.events == [.next(210, 2), .error(410, TestFailure())])
    #expect(xs.subscriptions == [Subscription(200, 410)])
  }

  @Test("latest: no end")
  func latestNoEnd() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable(Self.elements)
    let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
    #expect(res.events == [.next(210, 2), .next(410, 6), .next(610, 7)])
    #expect(xs.subscriptions == [Subscription(200, 1000)])
  }

  @Test("not latest: elements inside a window are dropped")
  func notLatestCompleted() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable(Self.elements + [.completed(500)])
    let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
    #expect(res.events == [.next(210, 2), .next(410, 6), .completed(500)])
    #expect(xs.subscriptions == [Subscription(200, 500)])
  }

  @Test("not latest: never, empty, error, no end")
  func notLatestOthers() {
    do {
      let scheduler = TestScheduler(initialClock: 0)
      let xs = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 0)])
      let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
      #expect(res.events == [])
      #expect(xs.subscriptions == [Subscription(200, 1000)])
    }
    do {
      let scheduler = TestScheduler(initialClock: 0)
      let xs = scheduler.createHotObservable([
        .next(150, 0), Recorded<Event<Int>>.completed(500),
      ])
      let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
      #expect(res.events == [.completed(500)])
      #expect(xs.subscriptions == [Subscription(200, 500)])
    }
    do {
      let scheduler = TestScheduler(initialClock: 0)
      let xs = scheduler.createHotObservable([
        .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4), .next(350, 5),
        .error(410, TestFailure()), .next(450, 7), .completed(500),
      ])
      let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
      #expect(res.events == [.next(210, 2), .error(410, TestFailure())])
      #expect(xs.subscriptions == [Subscription(200, 410)])
    }
    do {
      let scheduler = TestScheduler(initialClock: 0)
      let xs = scheduler.createHotObservable(Self.elements)
      let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
      #expect(res.events == [.next(210, 2), .next(410, 6)])
      #expect(xs.subscriptions == [Subscription(200, 1000)])
    }
  }

  @Test("only the latest of several kept elements is emitted")
  func latestReplacesKept() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(400),
    ])
    let res = scheduler.start { xs.throttle(.seconds(50), scheduler: scheduler) }
    #expect(res.events == [.next(210, 1), .next(260, 4), .completed(400)])
  }

  @Test("disposal cancels the kept element")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable(Self.elements + [.completed(500)])
    let res = scheduler.start(disposed: 400) { xs.throttle(.seconds(200), scheduler: scheduler) }
    #expect(res.events == [.next(210, 2)])
    #expect(xs.subscriptions == [Subscription(200, 400)])
  }
}
