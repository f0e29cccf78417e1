import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {}

@Suite("compactMap")
struct CompactMapTests {
  @Test("emits the non-nil results and completes with the source")
  func valuesAndCompletion() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, "0"), .next(210, "1"), .next(220, "x"), .next(230, "3"), .completed(300),
    ])
    let res = scheduler.start { xs.compactMap { Int($0) } }
    #expect(res.events == [.next(210, 1), .next(230, 3), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("passes the source's error on")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, "1"), .next(220, "y"), .error(230, TestError()), .next(240, "4"),
    ])
    let res = scheduler.start { xs.compactMap { Int($0) } }
    #expect(res.events == [.next(210, 1), .error(230, TestError())])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("a throw from the transform becomes an error and disposes the source")
  func throwingTransform() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .completed(300),
    ])
    let res = scheduler.start {
      xs.compactMap { value -> Int? in
        if value == 2 { throw TestError() }
        return value * 10
      }
    }
    #expect(res.events == [.next(210, 10), .error(220, TestError())])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("disposal mid-stream stops the elements and disposes the source")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .completed(300),
    ])
    var calls = 0
    let res = scheduler.start(disposed: 225) {
      xs.compactMap { value -> Int? in
        calls += 1
        return value.isMultiple(of: 2) ? nil : value
      }
    }
    #expect(res.events == [.next(210, 1)])
    #expect(xs.subscriptions == [Subscription(200, 225)])
    #expect(calls == 2)
  }
}
