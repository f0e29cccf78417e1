import Streams
import StreamsTest
import Testing

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
