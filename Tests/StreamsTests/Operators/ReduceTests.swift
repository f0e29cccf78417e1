import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {}

@Suite("reduce")
struct ReduceTests {
  @Test("emits the accumulated value at completion")
  func values() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(250),
    ])
    let res = scheduler.start { xs.reduce(42, accumulator: +) }
    #expect(res.events == [.next(250, 42 + 2 + 3 + 4), .completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("mapResult turns the final value into the result")
  func mapResult() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
    let res = scheduler.start { xs.reduce(0, accumulator: +, mapResult: { "sum \($0)" }) }
    #expect(res.events == [.next(250, "sum 5"), .completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("an empty source yields the seed")
  func empty() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
    let res = scheduler.start { xs.reduce(7, accumulator: +) }
    #expect(res.events == [.next(250, 7), .completed(250)])
  }

  @Test("the source's error ends it without a result")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .error(220, TestError())])
    let res = scheduler.start { xs.reduce(0, accumulator: +) }
    #expect(res.events == [.error(220, TestError())])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("a throw from the accumulator or from mapResult becomes an error")
  func throwingClosures() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
    let res = scheduler.start {
      xs.reduce(0) { sum, value in
        if value == 3 { throw TestError() }
        return sum + value
      }
    }
    #expect(res.events == [.error(220, TestError())])
    #expect(xs.subscriptions == [Subscription(200, 220)])

    let scheduler2 = TestScheduler(initialClock: 0)
    let ys = scheduler2.createHotObservable([.next(210, 2), .completed(250)])
    let res2 = scheduler2.start {
      ys.reduce(0, accumulator: +, mapResult: { _ -> Int in throw TestError() })
    }
    #expect(res2.events == [.error(250, TestError())])
    #expect(ys.subscriptions == [Subscription(200, 250)])
  }

  @Test("disposal before completion emits nothing and disposes the source")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
    let res = scheduler.start(disposed: 230) { xs.reduce(0, accumulator: +) }
    #expect(res.events.isEmpty)
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }
}
