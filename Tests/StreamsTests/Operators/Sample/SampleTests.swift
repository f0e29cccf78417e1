import Streams
import StreamsTest
import Testing

private struct TestFailure: Error, Equatable {}

/// The tables of RxSwift's SampleTests.
@Suite("sample")
struct SampleTests {
  private static let sampler: [Recorded<Event<String>>] = [
    .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .next(320, "baz"),
    .completed(500),
  ]

  @Test("emits the latest element at each tick; the sampler's completion ends it")
  func simple1() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6),
      .completed(400),
    ])
    let ys = scheduler.createHotObservable(Self.sampler)
    let res = scheduler.start { xs.sample(ys) }
    #expect(res.events == [.next(250, 3), .next(320, 6), .completed(500)])
    #expect(xs.subscriptions == [Subscription(200, 400)])
    #expect(ys.subscriptions == [Subscription(200, 500)])
  }

  @Test("the sampler's completion emits the element left")
  func simple2() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6),
      .next(360, 7), .completed(400),
    ])
    let ys = scheduler.createHotObservable(Self.sampler)
    let res = scheduler.start { xs.sample(ys) }
    #expect(res.events == [.next(250, 3), .next(320, 6), .next(500, 7), .completed(500)])
    #expect(xs.subscriptions == [Subscription(200, 400)])
    #expect(ys.subscriptions == [Subscription(200, 500)])
  }

  @Test("after the source completes, the next tick emits what is left and completes")
  func simple3() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .completed(300),
    ])
    let ys = scheduler.createHotObservable(Self.sampler)
    let res = scheduler.start { xs.sample(ys) }
    #expect(res.events == [.next(250, 3), .next(320, 4), .completed(320)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
    #expect(ys.subscriptions == [Subscription(200, 320)])
  }

  @Test("a default value fills ticks without a new element, the sampler's completion included")
  func defaultValue() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6),
      .completed(400),
    ])
    let ys = scheduler.createHotObservable(Self.sampler)
    let res = scheduler.start { xs.sample(ys, defaultValue: 0) }
    #expect(
      res.events == [
        .next(210, 0), .next(250, 3), .next(260, 0), .next(320, 6), .next(500, 0), .completed(500),
      ])
    #expect(xs.subscriptions == [Subscription(200, 400)])
    #expect(ys.subscriptions == [Subscription(200, 500)])
  }

  @Test("the source's error is forwarded")
  func sourceThrows() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6),
      .error(320, TestFailure()),
    ])
    let ys = scheduler.createHotObservable([
      .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .next(300, "baz"),
      .completed(400),
    ])
    let res = scheduler.start { xs.sample(ys) }
    #expect(res.events == [.next(250, 3), .next(300, 5), .error(320, TestFailure())])
    #expect(xs.subscriptions == [Subscription(200, 320)])
    #expect(ys.subscriptions == [Subscription(200, 320)])
  }

  @Test("the sampler's error is forwarded")
  func samplerThrows() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6),
      .completed(400),
    ])
    let ys = scheduler.createHotObservable([
      .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"),
      .error(320, TestFailure()),
    ])
    let res = scheduler.start { xs.sample(ys) }
    #expect(res.events == [.next(250, 3), .error(320, TestFailure())])
    #expect(xs.subscriptions == [Subscription(200, 320)])
    #expect(ys.subscriptions == [Subscription(200, 320)])
  }

  @Test("disposal disposes both subscriptions")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(220, 2), .next(240, 3), .next(290, 4)])
    let ys = scheduler.createHotObservable(Self.sampler)
    let res = scheduler.start(disposed: 280) { xs.sample(ys) }
    #expect(res.events == [.next(250, 3)])
    #expect(xs.subscriptions == [Subscription(200, 280)])
    #expect(ys.subscriptions == [Subscription(200, 280)])
  }
}
