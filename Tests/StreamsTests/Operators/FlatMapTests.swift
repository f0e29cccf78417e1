import Streams
import StreamsTest
import Testing

/// Inner sequences keyed by the outer element that selects them.
private struct Inners {
  let scheduler: TestScheduler
  let byKey: [Int: TestableObservable<Int>]

  init(_ scheduler: TestScheduler, _ byKey: [Int: [Recorded<Event<Int>>]]) {
    self.scheduler = scheduler
    self.byKey = byKey.mapValues { scheduler.createColdObservable($0) }
  }

  subscript(key: Int) -> TestableObservable<Int> { byKey[key]! }

  func select(_ key: Int) -> Observable<Int> { byKey[key]!.asObservable() }
}

@Suite("FlatMap")
struct FlatMapTests {
  private func twoInners(_ scheduler: TestScheduler) -> Inners {
    Inners(
      scheduler,
      [
        1: [.next(10, 10), .next(40, 11), .completed(50)],
        2: [.next(10, 20), .next(40, 21), .completed(50)],
        3: [.next(10, 30), .completed(20)],
      ])
  }

  @Test("flatMap merges the inner sequences and completes after the last")
  func flatMap() {
    let scheduler = TestScheduler(initialClock: 0)
    let inners = twoInners(scheduler)
    let xs = scheduler.createHotObservable([
      .next(150, 9), .next(210, 1), .next(230, 2), .completed(250),
    ])
    let res = scheduler.start { xs.flatMap { inners.select($0) } }
    #expect(
      res.events == [
        .next(220, 10), .next(240, 20), .next(250, 11), .next(270, 21), .completed(280),
      ])
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(inners[1].subscriptions == [Subscription(210, 260)])
    #expect(inners[2].subscriptions == [Subscription(230, 280)])
  }

  @Test("flatMap fails when the selector throws, disposing everything")
  func flatMapThrows() {
    let scheduler = TestScheduler(initialClock: 0)
    let inners = twoInners(scheduler)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(250)])
    let res = scheduler.start {
      xs.flatMap { value -> Observable<Int> in
        if value == 2 { throw MultiTestError.selector }
        return inners.select(value)
      }
    }
    #expect(res.events == [.next(220, 10), .error(230, MultiTestError.selector)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
    #expect(inners[1].subscriptions == [Subscription(210, 230)])
    #expect(inners[2].subscriptions == [])
  }

  @Test("flatMap fails with an inner error")
  func flatMapInnerError() {
    let scheduler = TestScheduler(initialClock: 0)
    let inners = Inners(
      scheduler,
      [1: [.next(10, 10), .completed(100)], 2: [.error(5, MultiTestError.second)]])
    let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(250)])
    let res = scheduler.start { xs.flatMap { inners.select($0) } }
    #expect(res.events == [.next(220, 10), .error(235, MultiTestError.second)])
    #expect(xs.subscriptions == [Subscription(200, 235)])
    #expect(inners[1].subscriptions == [Subscription(210, 235)])
    #expect(inners[2].subscriptions == [Subscription(230, 235)])
  }

  @Test("flatMap disposal mid-stream disposes the source and the inner sequences")
  func flatMapDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let inners = twoInners(scheduler)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(250)])
    let res = scheduler.start(disposed: 245) { xs.flatMap { inners.select($0) } }
    #expect(res.events == [.next(220, 10), .next(240, 20)])
    #expect(xs.subscriptions == [Subscription(200, 245)])
    #expect(inners[1].subscriptions == [Subscription(210, 245)])
    #expect(inners[2].subscriptions == [Subscription(230, 245)])
  }

  @Test("flatMapFirst ignores elements while an inner sequence runs")
  func flatMapFirst() {
    let scheduler = TestScheduler(initialClock: 0)
    let inners = twoInners(scheduler)
    let calls = MultiCallCounter()
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(230, 2), .next(270, 3), .completed(300),
    ])
    let res = scheduler.start {
      xs.flatMapFirst { value in
        calls.tick()
        return inners.select(value)
      }
    }
    #expect(res.events == [.next(220, 10), .next(250, 11), .next(280, 30), .completed(300)])
    #expect(calls.value == 2)
    #expect(xs.subscriptions == [Subscription(200, 300)])
    #expect(inners[1].subscriptions == [Subscription(210, 260)])
    #expect(inners[2].subscriptions == [])
    #expect(inners[3].subscriptions == [Subscription(270, 290)])
  }

  @Test("flatMapFirst waits for the running inner sequence before completing")
  func flatMapFirstCompletion() {
    let scheduler = TestScheduler(initialClock: 0)
    let inners = twoInners(scheduler)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
    let res = scheduler.start { xs.flatMapFirst { inners.select($0) } }
    #expect(res.events == [.next(220, 10), .next(250, 11), .completed(260)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("flatMapFirst fails when the selector throws")
  func flatMapFirstThrows() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
    let res = scheduler.start {
      xs.flatMapFirst { _ -> Observable<Int> in throw MultiTestError.selector }
    }
    #expect(res.events == [.error(210, MultiTestError.selector)])
    #expect(xs.subscriptions == [Subscription(200, 210)])
  }

  @Test("flatMapLatest switches to the latest inner sequence, disposing the previous one")
  func flatMapLatest() {
    let scheduler = TestScheduler(initialClock: 0)
    let inners = twoInners(scheduler)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(250)])
    let res = scheduler.start { xs.flatMapLatest { inners.select($0) } }
    #expect(res.events == [.next(220, 10), .next(250, 20), .next(280, 21), .completed(290)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(inners[1].subscriptions == [Subscription(210, 240)])
    #expect(inners[2].subscriptions == [Subscription(240, 290)])
  }

  @Test("flatMapLatest fails when the selector throws")
  func flatMapLatestThrows() {
    let scheduler = TestScheduler(initialClock: 0)
    let inners = twoInners(scheduler)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(250)])
    let res = scheduler.start {
      xs.flatMapLatest { value -> Observable<Int> in
        if value == 2 { throw MultiTestError.selector }
        return inners.select(value)
      }
    }
    #expect(res.events == [.next(220, 10), .error(240, MultiTestError.selector)])
    #expect(xs.subscriptions == [Subscription(200, 240)])
    #expect(inners[1].subscriptions == [Subscription(210, 240)])
  }

  @Test("flatMapLatest fails with an error of the latest inner sequence")
  func flatMapLatestInnerError() {
    let scheduler = TestScheduler(initialClock: 0)
    let inners = Inners(scheduler, [1: [.next(10, 10), .error(30, MultiTestError.second)]])
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
    let res = scheduler.start { xs.flatMapLatest { inners.select($0) } }
    #expect(res.events == [.next(220, 10), .error(240, MultiTestError.second)])
    #expect(xs.subscriptions == [Subscription(200, 240)])
    #expect(inners[1].subscriptions == [Subscription(210, 240)])
  }

  @Test("flatMapLatest disposal disposes the source and the latest inner sequence")
  func flatMapLatestDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let inners = twoInners(scheduler)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(250)])
    let res = scheduler.start(disposed: 260) { xs.flatMapLatest { inners.select($0) } }
    #expect(res.events == [.next(220, 10), .next(250, 20)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(inners[2].subscriptions == [Subscription(240, 260)])
  }

  @Test("concatMap runs the inner sequences one after the other")
  func concatMap() {
    let scheduler = TestScheduler(initialClock: 0)
    let inners = twoInners(scheduler)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(250)])
    let res = scheduler.start { xs.concatMap { inners.select($0) } }
    #expect(
      res.events == [
        .next(220, 10), .next(250, 11), .next(270, 20), .next(300, 21), .completed(310),
      ])
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(inners[1].subscriptions == [Subscription(210, 260)])
    #expect(inners[2].subscriptions == [Subscription(260, 310)])
  }

  @Test("concatMap calls the selector when the element arrives, so a throw fails at once")
  func concatMapThrows() {
    let scheduler = TestScheduler(initialClock: 0)
    let inners = twoInners(scheduler)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(250)])
    let res = scheduler.start {
      xs.concatMap { value -> Observable<Int> in
        if value == 2 { throw MultiTestError.selector }
        return inners.select(value)
      }
    }
    #expect(res.events == [.next(220, 10), .error(230, MultiTestError.selector)])
    #expect(inners[1].subscriptions == [Subscription(210, 230)])
  }

  @Test("concatMap disposal disposes the running inner sequence and drops the waiting one")
  func concatMapDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let inners = twoInners(scheduler)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(250)])
    let res = scheduler.start(disposed: 255) { xs.concatMap { inners.select($0) } }
    #expect(res.events == [.next(220, 10), .next(250, 11)])
    #expect(inners[1].subscriptions == [Subscription(210, 255)])
    #expect(inners[2].subscriptions == [])
  }
}
