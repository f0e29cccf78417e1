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

/// Inner sequences that emit one element and complete during `subscribe`: `just`, which the
/// merging operators deliver without subscribing to it, must behave exactly as the same events
/// from `create`, which they subscribe to.
@Suite("FlatMap with synchronous inner sequences")
struct FlatMapInnerJustTests {
  @Test(
    "flatMap delivers each inner sequence and completes with the outer one",
    arguments: InnerKind.allCases)
  func flatMapValues(kind: InnerKind) {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .completed(240),
    ])
    let res = scheduler.start { xs.flatMap { kind.make($0 * 10) } }
    #expect(res.events == [.next(210, 10), .next(220, 20), .next(230, 30), .completed(240)])
    #expect(xs.subscriptions == [Subscription(200, 240)])
  }

  @Test(
    "flatMap keeps inner sequences that are still running after the outer completed",
    arguments: InnerKind.allCases)
  func flatMapWaitsForRunningInner(kind: InnerKind) {
    let scheduler = TestScheduler(initialClock: 0)
    let running = scheduler.createColdObservable([.next(30, 100), .completed(40)])
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
    let res = scheduler.start {
      xs.flatMap { value in value == 1 ? running.asObservable() : kind.make(value * 10) }
    }
    #expect(res.events == [.next(220, 20), .next(240, 100), .completed(250)])
    #expect(running.subscriptions == [Subscription(210, 250)])
  }

  @Test(
    "flatMap: an outer element sent while delivering waits for the current inner sequence, and trampoline work runs in between",
    arguments: InnerKind.allCases)
  func flatMapReentrantOuter(kind: InnerKind) {
    let log = ScenarioLog()
    let outer = ManualOuter(log: log)
    let subscription = outer.observable.flatMap { kind.make($0 * 10) }.subscribe(
      onNext: { value in
        log.add("next \(value)")
        if value == 10 { outer.send(2) }
        log.schedule("work \(value)")
        log.add("end \(value)")
      },
      onCompleted: { log.add("completed") })
    outer.send(1)
    outer.complete()
    #expect(
      log.lines == [
        "next 10", "end 10", "work 10", "next 20", "end 20", "work 20", "outer disposed",
        "completed",
      ])
    subscription.dispose()
  }

  @Test(
    "flatMap: an inner sequence arriving while another is being subscribed starts after it",
    arguments: InnerKind.allCases)
  func flatMapArrivesDuringSubscribe(kind: InnerKind) {
    let log = ScenarioLog()
    let outer = ManualOuter(log: log)
    let subscribing = Observable<Int>.create { observer in
      outer.send(2)
      observer.onNext(100)
      observer.onCompleted()
      return Disposables.create()
    }
    let subscription = outer.observable
      .flatMap { value in value == 1 ? subscribing : kind.make(value * 10) }
      .subscribe(onNext: { log.add("next \($0)") })
    outer.send(1)
    #expect(log.lines == ["next 100", "next 20"])
    subscription.dispose()
  }

  @Test(
    "flatMap: the outer completing while its last inner element is delivered completes after it",
    arguments: InnerKind.allCases)
  func flatMapOuterCompletesDuringDelivery(kind: InnerKind) {
    let log = ScenarioLog()
    let outer = ManualOuter(log: log)
    _ = outer.observable.flatMap { kind.make($0 * 10) }.subscribe(
      onNext: { value in
        log.add("next \(value)")
        outer.complete()
        log.add("end \(value)")
      },
      onCompleted: { log.add("completed") })
    outer.send(1)
    #expect(log.lines == ["next 10", "outer disposed", "end 10", "completed"])
  }

  @Test("flatMap: disposal while delivering stops everything", arguments: InnerKind.allCases)
  func flatMapDisposedDuringDelivery(kind: InnerKind) {
    let log = ScenarioLog()
    let outer = ManualOuter(log: log)
    let slot = SubscriptionSlot()
    slot.disposable = outer.observable.flatMap { kind.make($0 * 10) }.subscribe(
      onNext: { value in
        log.add("next \(value)")
        slot.disposable?.dispose()
        outer.send(2)
      },
      onCompleted: { log.add("completed") })
    outer.send(1)
    outer.send(3)
    #expect(log.lines == ["next 10", "outer disposed"])
  }

  @Test("flatMap: an error queued behind the element fails after it", arguments: InnerKind.allCases)
  func flatMapErrorDuringDelivery(kind: InnerKind) {
    let log = ScenarioLog()
    let failing = PublishSubject<Int>()
    let outer = ManualOuter(log: log)
    _ = outer.observable
      .flatMap { value in value == 1 ? failing.asObservable() : kind.make(value * 10) }
      .subscribe(
        onNext: { value in
          log.add("next \(value)")
          failing.onError(MultiTestError.first)
          log.add("end \(value)")
        },
        onError: { log.add("error \($0)") })
    outer.send(1)
    outer.send(2)
    #expect(log.lines == ["next 20", "end 20", "error first", "outer disposed"])
    #expect(!failing.hasObservers)
  }

  @Test(
    "concatMap: synchronous inner sequences wait for the running one, in order",
    arguments: InnerKind.allCases)
  func concatMapQueued(kind: InnerKind) {
    let scheduler = TestScheduler(initialClock: 0)
    let running = scheduler.createColdObservable([.next(10, 100), .completed(30)])
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(215, 2), .next(220, 3), .completed(225),
    ])
    let res = scheduler.start {
      xs.concatMap { value in value == 1 ? running.asObservable() : kind.make(value * 10) }
    }
    #expect(
      res.events == [.next(220, 100), .next(240, 20), .next(240, 30), .completed(240)])
    #expect(running.subscriptions == [Subscription(210, 240)])
  }

  @Test("concatMap of synchronous inner sequences only", arguments: InnerKind.allCases)
  func concatMapValues(kind: InnerKind) {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
    let res = scheduler.start { xs.concatMap { kind.make($0 * 10) } }
    #expect(res.events == [.next(210, 10), .next(220, 20), .completed(230)])
  }

  @Test(
    "flatMapFirst: a synchronous inner sequence never blocks the next element",
    arguments: InnerKind.allCases)
  func flatMapFirstValues(kind: InnerKind) {
    let scheduler = TestScheduler(initialClock: 0)
    let running = scheduler.createColdObservable([.next(5, 100), .completed(15)])
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250),
    ])
    let res = scheduler.start {
      xs.flatMapFirst { value in value == 2 ? running.asObservable() : kind.make(value * 10) }
    }
    #expect(res.events == [.next(210, 10), .next(225, 100), .next(240, 40), .completed(250)])
    #expect(running.subscriptions == [Subscription(220, 235)])
  }

  @Test(
    "flatMapLatest delivers each inner sequence and completes with the outer one",
    arguments: InnerKind.allCases)
  func flatMapLatestValues(kind: InnerKind) {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
    let res = scheduler.start { xs.flatMapLatest { kind.make($0 * 10) } }
    #expect(res.events == [.next(210, 10), .next(220, 20), .completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test(
    "flatMapLatest disposes a running inner sequence before a synchronous one replaces it",
    arguments: InnerKind.allCases)
  func flatMapLatestReplacesRunning(kind: InnerKind) {
    let scheduler = TestScheduler(initialClock: 0)
    let running = scheduler.createColdObservable([.next(5, 100), .next(20, 101), .completed(30)])
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
    let res = scheduler.start {
      xs.flatMapLatest { value in value == 1 ? running.asObservable() : kind.make(value * 10) }
    }
    #expect(res.events == [.next(215, 100), .next(220, 20), .completed(230)])
    #expect(running.subscriptions == [Subscription(210, 220)])
  }

  @Test(
    "flatMapLatest: an outer element sent while delivering is delivered after the current one",
    arguments: InnerKind.allCases)
  func flatMapLatestReentrantOuter(kind: InnerKind) {
    let log = ScenarioLog()
    let outer = ManualOuter(log: log)
    _ = outer.observable.flatMapLatest { kind.make($0 * 10) }.subscribe(
      onNext: { value in
        log.add("next \(value)")
        if value == 10 { outer.send(2) }
        log.schedule("work \(value)")
        log.add("end \(value)")
      },
      onCompleted: { log.add("completed") })
    outer.send(1)
    outer.complete()
    #expect(
      log.lines == [
        "next 10", "end 10", "next 20", "end 20", "work 10", "work 20", "outer disposed",
        "completed",
      ])
  }

  @Test(
    "flatMapLatest: the outer completing while the latest element is delivered completes after it",
    arguments: InnerKind.allCases)
  func flatMapLatestOuterCompletesDuringDelivery(kind: InnerKind) {
    let log = ScenarioLog()
    let outer = ManualOuter(log: log)
    _ = outer.observable.flatMapLatest { kind.make($0 * 10) }.subscribe(
      onNext: { value in
        log.add("next \(value)")
        outer.complete()
        log.add("end \(value)")
      },
      onCompleted: { log.add("completed") })
    outer.send(1)
    #expect(log.lines == ["next 10", "outer disposed", "end 10", "completed"])
  }

  @Test("flatMapLatest: disposal while delivering stops everything", arguments: InnerKind.allCases)
  func flatMapLatestDisposedDuringDelivery(kind: InnerKind) {
    let log = ScenarioLog()
    let outer = ManualOuter(log: log)
    let slot = SubscriptionSlot()
    slot.disposable = outer.observable.flatMapLatest { kind.make($0 * 10) }.subscribe(
      onNext: { value in
        log.add("next \(value)")
        slot.disposable?.dispose()
        outer.send(2)
      },
      onCompleted: { log.add("completed") })
    outer.send(1)
    #expect(log.lines == ["next 10", "outer disposed"])
  }
}
