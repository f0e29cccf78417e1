import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {}

@Suite("materialize and dematerialize")
struct MaterializeTests {
  @Test("materialize turns elements and completion into elements, then completes")
  func materializeCompletion() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(220, 3), .completed(250),
    ])
    let res = scheduler.start { xs.materialize() }
    #expect(
      res.events == [
        .next(210, Event.next(2)), .next(220, Event.next(3)), .next(250, Event<Int>.completed),
        .completed(250),
      ])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("materialize turns the error into an element, then completes")
  func materializeError() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .error(250, TestError())])
    let res = scheduler.start { xs.materialize() }
    #expect(
      res.events == [
        .next(210, Event.next(2)), .next(250, Event<Int>.error(TestError())), .completed(250),
      ])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("materialize: disposal mid-stream disposes the source")
  func materializeDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .next(230, 3), .completed(250)])
    let res = scheduler.start(disposed: 220) { xs.materialize() }
    #expect(res.events == [.next(210, Event.next(2))])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("dematerialize turns event elements back into events")
  func dematerialize() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, Event.next(1)), .next(220, Event.next(2)), .next(230, Event<Int>.completed),
      .next(240, Event.next(3)), .completed(250),
    ])
    let res = scheduler.start { xs.dematerialize() }
    #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("dematerialize: an error element fails; the source's terminal events pass on")
  func dematerializeErrors() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, Event.next(1)), .next(220, Event<Int>.error(TestError())), .completed(250),
    ])
    let res = scheduler.start { xs.dematerialize() }
    #expect(res.events == [.next(210, 1), .error(220, TestError())])
    #expect(xs.subscriptions == [Subscription(200, 220)])

    let scheduler2 = TestScheduler(initialClock: 0)
    let ys = scheduler2.createHotObservable([.next(210, Event.next(1)), .error(220, TestError())])
    let res2 = scheduler2.start { ys.dematerialize() }
    #expect(res2.events == [.next(210, 1), .error(220, TestError())])

    let scheduler3 = TestScheduler(initialClock: 0)
    let zs = scheduler3.createHotObservable([.next(210, Event.next(1)), .completed(220)])
    let res3 = scheduler3.start { zs.dematerialize() }
    #expect(res3.events == [.next(210, 1), .completed(220)])
  }

  @Test("dematerialize undoes materialize; disposal mid-stream disposes the source")
  func roundTripAndDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .error(230, TestError()),
    ])
    let res = scheduler.start { xs.materialize().dematerialize() }
    #expect(res.events == [.next(210, 1), .next(220, 2), .error(230, TestError())])

    let scheduler2 = TestScheduler(initialClock: 0)
    let ys = scheduler2.createHotObservable([
      .next(210, Event.next(1)), .next(230, Event.next(2)), .completed(250),
    ])
    let res2 = scheduler2.start(disposed: 220) { ys.dematerialize() }
    #expect(res2.events == [.next(210, 1)])
    #expect(ys.subscriptions == [Subscription(200, 220)])
  }
}
