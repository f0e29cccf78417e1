import Streams
import StreamsTest
import Testing

private struct TestFailure: Error, Equatable {}

@Suite("debounce")
struct DebounceTests {
  @Test("elements spaced wider than the due time all pass, each after the due time")
  func allPass() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 0), .next(210, 1), .next(240, 2), .next(270, 3), .next(300, 4), .completed(400),
    ])
    let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
    #expect(
      res.events == [
        .next(230, 1), .next(260, 2), .next(290, 3), .next(320, 4), .completed(400),
      ])
    #expect(xs.subscriptions == [Subscription(200, 400)])
  }

  @Test("elements closer than the due time are dropped; completion flushes the last one at once")
  func allDrop() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 0), .next(210, 1), .next(240, 2), .next(270, 3), .next(300, 4), .completed(330),
    ])
    let res = scheduler.start { xs.debounce(.seconds(40), scheduler: scheduler) }
    #expect(res.events == [.next(330, 4), .completed(330)])
    #expect(xs.subscriptions == [Subscription(200, 330)])
  }

  @Test("an error is forwarded at once and drops the waiting element")
  func errorDropsPending() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 0), .next(210, 1), .next(240, 2), .next(270, 3), .next(300, 4),
      .error(330, TestFailure()),
    ])
    let res = scheduler.start { xs.debounce(.seconds(40), scheduler: scheduler) }
    #expect(res.events == [.error(330, TestFailure())])
    #expect(xs.subscriptions == [Subscription(200, 330)])
  }

  @Test("an error after emitted elements keeps them")
  func errorAfterElements() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 0), .next(210, 1), .next(240, 2), .error(300, TestFailure()),
    ])
    let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
    #expect(res.events == [.next(230, 1), .next(260, 2), .error(300, TestFailure())])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("an empty source completes")
  func empty() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
    let res = scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }
    #expect(res.events == [.completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("a source that never ends emits the quiet elements and is disposed at 1000")
  func never() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(150, 1), .next(250, 2), .next(270, 3)])
    let res = scheduler.start { xs.debounce(.seconds(30), scheduler: scheduler) }
    #expect(res.events == [.next(300, 3)])
    #expect(xs.subscriptions == [Subscription(200, 1000)])
  }

  @Test("disposal cancels the waiting element")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(250, 2), .next(300, 3), .completed(400),
    ])
    let res = scheduler.start(disposed: 260) { xs.debounce(.seconds(20), scheduler: scheduler) }
    #expect(res.events == [.next(230, 1)])
    #expect(xs.subscriptions == [Subscription(200, 260)])
  }
}
