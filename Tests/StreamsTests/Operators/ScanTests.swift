import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {}

@Suite("scan")
struct ScanTests {
  @Test("scan(_:accumulator:) emits each new state, not the seed")
  func seedValues() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(250),
    ])
    let res = scheduler.start { xs.scan(10) { $0 + $1 } }
    #expect(res.events == [.next(210, 12), .next(220, 15), .next(230, 19), .completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("scan(into:accumulator:) mutates the state in place")
  func intoValues() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
    let res = scheduler.start { xs.scan(into: [Int]()) { history, value in history.append(value) } }
    #expect(res.events == [.next(210, [2]), .next(220, [2, 3]), .completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("an empty source completes without emitting the seed")
  func empty() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
    let res = scheduler.start { xs.scan(0) { $0 + $1 } }
    #expect(res.events == [.completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("passes the source's error on")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .error(220, TestError())])
    let res = scheduler.start { xs.scan(0) { $0 + $1 } }
    #expect(res.events == [.next(210, 2), .error(220, TestError())])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("a throw from the accumulator becomes an error, in both forms")
  func throwingAccumulator() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 2), .next(220, 3), .next(230, 4), .completed(250),
    ])
    let res = scheduler.start {
      xs.scan(0) { state, value in
        if value == 3 { throw TestError() }
        return state + value
      }
    }
    #expect(res.events == [.next(210, 2), .error(220, TestError())])
    #expect(xs.subscriptions == [Subscription(200, 220)])

    let scheduler2 = TestScheduler(initialClock: 0)
    let ys = scheduler2.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
    let res2 = scheduler2.start {
      ys.scan(into: 0) { state, value in
        if value == 2 { throw TestError() }
        state += value
      }
    }
    #expect(res2.events == [.error(210, TestError())])
    #expect(ys.subscriptions == [Subscription(200, 210)])
  }

  @Test("disposal mid-stream disposes the source; each subscription starts from the seed")
  func disposalAndFreshState() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3)])
    let scanned = Unchecked(xs.scan(0) { $0 + $1 })
    let first = scheduler.createObserver(Int.self)
    let second = scheduler.createObserver(Int.self)
    let firstSubscription = Unchecked(SerialDisposable())
    scheduler.scheduleAt(200) {
      firstSubscription.value.disposable = scanned.value.subscribe(first)
    }
    scheduler.scheduleAt(225) { firstSubscription.value.dispose() }
    scheduler.scheduleAt(300) { _ = scanned.value.subscribe(second) }
    scheduler.start()
    #expect(first.events == [.next(210, 1), .next(220, 3)])
    #expect(second.events == [.next(310, 1), .next(320, 3), .next(330, 6)])
    #expect(xs.subscriptions == [Subscription(200, 225), Subscription(300)])
  }
}
