import Streams
import StreamsTest
import Testing

@Suite("SwitchLatest")
struct SwitchLatestTests {
  @Test("switchLatest forwards only the latest inner sequence")
  func values() {
    let scheduler = TestScheduler(initialClock: 0)
    let ys1 = scheduler.createColdObservable([
      .next(10, 101), .next(20, 102), .next(110, 103), .completed(230),
    ])
    let ys2 = scheduler.createColdObservable([.next(10, 201), .next(20, 202), .completed(50)])
    let ys3 = scheduler.createColdObservable([.next(10, 301), .completed(50)])
    let xs = scheduler.createHotOuter([
      .next(300, ys1), .next(400, ys2), .next(500, ys3), .completed(600),
    ])
    let res = scheduler.start { xs.asObservable().switchLatest() }
    #expect(
      res.events == [
        .next(310, 101), .next(320, 102), .next(410, 201), .next(420, 202), .next(510, 301),
        .completed(600),
      ])
    #expect(xs.subscriptions == [Subscription(200, 600)])
    #expect(ys1.subscriptions == [Subscription(300, 400)])
    #expect(ys2.subscriptions == [Subscription(400, 450)])
    #expect(ys3.subscriptions == [Subscription(500, 550)])
  }

  @Test("switchLatest of sequences that complete while subscribed", arguments: InnerKind.allCases)
  func synchronousSingles(kind: InnerKind) {
    let outer = PublishSubject<Observable<Int>>()
    var events: [Event<Int>] = []
    _ = outer.switchLatest().subscribe { events.append($0) }
    outer.onNext(kind.make(1))
    outer.onNext(kind.make(2))
    #expect(events == [.next(1), .next(2)])
    outer.onCompleted()
    #expect(events == [.next(1), .next(2), .completed])
  }

  @Test("switchLatest waits for the latest inner sequence after the outer one completed")
  func innerOutlivesOuter() {
    let scheduler = TestScheduler(initialClock: 0)
    let ys1 = scheduler.createColdObservable([.next(10, 1), .next(100, 2), .completed(150)])
    let xs = scheduler.createHotOuter([.next(300, ys1), .completed(320)])
    let res = scheduler.start { xs.asObservable().switchLatest() }
    #expect(res.events == [.next(310, 1), .next(400, 2), .completed(450)])
    #expect(xs.subscriptions == [Subscription(200, 320)])
    #expect(ys1.subscriptions == [Subscription(300, 450)])
  }

  @Test("switchLatest fails with an error of the latest inner sequence")
  func innerError() {
    let scheduler = TestScheduler(initialClock: 0)
    let ys1 = scheduler.createColdObservable([.next(10, 1), .error(50, MultiTestError.second)])
    let xs = scheduler.createHotOuter([.next(300, ys1), .completed(600)])
    let res = scheduler.start { xs.asObservable().switchLatest() }
    #expect(res.events == [.next(310, 1), .error(350, MultiTestError.second)])
    #expect(xs.subscriptions == [Subscription(200, 350)])
    #expect(ys1.subscriptions == [Subscription(300, 350)])
  }

  @Test("switchLatest fails with an outer error")
  func outerError() {
    let scheduler = TestScheduler(initialClock: 0)
    let ys1 = scheduler.createColdObservable([.next(10, 1), .completed(500)])
    let xs = scheduler.createHotOuter([.next(300, ys1), .error(400, MultiTestError.first)])
    let res = scheduler.start { xs.asObservable().switchLatest() }
    #expect(res.events == [.next(310, 1), .error(400, MultiTestError.first)])
    #expect(ys1.subscriptions == [Subscription(300, 400)])
  }

  @Test("switchLatest disposal disposes the outer and the latest inner sequence")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let ys1 = scheduler.createColdObservable([.next(10, 1), .next(100, 2), .completed(500)])
    let xs = scheduler.createHotOuter([.next(300, ys1), .completed(700)])
    let res = scheduler.start(disposed: 350) { xs.asObservable().switchLatest() }
    #expect(res.events == [.next(310, 1)])
    #expect(xs.subscriptions == [Subscription(200, 350)])
    #expect(ys1.subscriptions == [Subscription(300, 350)])
  }

  @Test("a replaced inner subject no longer reaches the observer")
  func staleInner() {
    let outer = PublishSubject<Observable<Int>>()
    let a = PublishSubject<Int>()
    let b = PublishSubject<Int>()
    var received: [Int] = []
    let subscription = outer.switchLatest().subscribe(onNext: { received.append($0) })
    outer.onNext(a.asObservable())
    a.onNext(1)
    outer.onNext(b.asObservable())
    a.onNext(2)
    b.onNext(3)
    #expect(received == [1, 3])
    #expect(!a.hasObservers)
    subscription.dispose()
    #expect(!b.hasObservers)
  }

  @Test(
    "an inner sequence returned by a selector that completed the outer sequence is followed",
    arguments: InnerKind.allCases)
  func selectorCompletesOuter(kind: InnerKind) {
    let log = ScenarioLog()
    let outer = ManualOuter(log: log)
    let live = PublishSubject<Int>()
    var events: [Event<Int>] = []
    _ = outer.observable.flatMapLatest { value -> Observable<Int> in
      if value == 1 { return live.asObservable() }
      outer.complete()  // reaches the operator re-entrantly, before this inner sequence
      return kind.make(value)
    }
    .subscribe { events.append($0) }
    outer.send(1)
    live.onNext(10)
    outer.send(2)
    #expect(events == [.next(10), .next(2), .completed])
    #expect(!live.hasObservers)
    #expect(log.lines == ["outer disposed"])
  }

  @Test("a selector that completes the outer sequence, then throws, fails the switch")
  func selectorCompletesOuterThenThrows() {
    let log = ScenarioLog()
    let outer = ManualOuter(log: log)
    let live = PublishSubject<Int>()
    var values: [Int] = []
    var failure: (any Error)?
    _ = outer.observable.flatMapLatest { value -> Observable<Int> in
      if value == 1 { return live.asObservable() }
      outer.complete()  // reaches the operator re-entrantly, before the throw
      throw MultiTestError.selector
    }
    .subscribe(onNext: { values.append($0) }, onError: { failure = $0 })
    outer.send(1)
    live.onNext(10)
    outer.send(2)
    #expect(values == [10])
    #expect(failure as? MultiTestError == .selector)
    #expect(!live.hasObservers)
    #expect(log.lines == ["outer disposed"])
  }
}
