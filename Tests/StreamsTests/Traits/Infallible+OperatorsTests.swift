import Streams
import StreamsTest
import Testing

@Suite("Infallible operators")
struct InfallibleOperatorsTests {
  @Test("just, empty, never, of, from, deferred")
  func factories() {
    var log: [String] = []
    _ = Infallible.just(1).subscribe(onNext: { log.append("just \($0)") })
    _ = Infallible<Int>.empty().subscribe(onCompleted: { log.append("empty") })
    _ = Infallible<Int>.never().subscribe(onNext: { log.append("never \($0)") })
    _ = Infallible.of(1, 2).subscribe(onNext: { log.append("of \($0)") })
    _ = Infallible.from([3, 4]).subscribe(onNext: { log.append("array \($0)") })
    _ = Infallible.from(5...6).subscribe(onNext: { log.append("sequence \($0)") })
    var calls = 0
    let deferred = Infallible<Int>.deferred {
      calls += 1
      return .just(calls)
    }
    _ = deferred.subscribe(onNext: { log.append("deferred \($0)") })
    _ = deferred.subscribe(onNext: { log.append("deferred \($0)") })
    #expect(
      log == [
        "just 1", "empty", "of 1", "of 2", "array 3", "array 4", "sequence 5", "sequence 6",
        "deferred 1", "deferred 2",
      ])
  }

  @Test("map, filter, compactMap on virtual time")
  func transforms() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .completed(300),
    ])
    let res = scheduler.start {
      xs.asInfallible(onErrorJustReturn: 0).map { $0 * 10 }.filter { $0 != 20 }
        .compactMap { $0 > 10 ? "\($0)" : nil }.asObservable()
    }
    #expect(res.events == [.next(230, "30"), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("flatMap merges the inner sequences")
  func flatMap() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
    let ys = scheduler.createColdObservable([.next(5, 10), .next(15, 20), .completed(20)])
    let res = scheduler.start {
      xs.asInfallible(onErrorJustReturn: 0)
        .flatMap { value in ys.asInfallible(onErrorJustReturn: 0).map { $0 * value } }
        .asObservable()
    }
    #expect(
      res.events == [
        .next(215, 10), .next(225, 20), .next(225, 20), .next(235, 40), .completed(240),
      ])
    #expect(ys.subscriptions == [Subscription(210, 230), Subscription(220, 240)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("flatMapLatest switches to the latest inner sequence")
  func flatMapLatest() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
    let ys = scheduler.createColdObservable([.next(5, 10), .next(15, 20), .completed(20)])
    let res = scheduler.start {
      xs.asInfallible(onErrorJustReturn: 0)
        .flatMapLatest { value in ys.asInfallible(onErrorJustReturn: 0).map { $0 * value } }
        .asObservable()
    }
    #expect(res.events == [.next(215, 10), .next(225, 20), .next(235, 40), .completed(240)])
    #expect(ys.subscriptions == [Subscription(210, 220), Subscription(220, 240)])
  }

  @Test("flatMapLatest: disposal disposes the source and the inner sequence")
  func flatMapLatestDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(400)])
    let ys = scheduler.createColdObservable([.next(100, 10)])
    let res = scheduler.start(disposed: 250) {
      xs.asInfallible(onErrorJustReturn: 0)
        .flatMapLatest { _ in ys.asInfallible(onErrorJustReturn: 0) }.asObservable()
    }
    #expect(res.events == [])
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(ys.subscriptions == [Subscription(210, 250)])
  }

  @Test("distinctUntilChanged: equatable, key selector, comparer")
  func distinct() {
    var log: [String] = []
    _ = Infallible.of(1, 1, 2, 2, 1).distinctUntilChanged().subscribe(onNext: {
      log.append("\($0)")
    })
    _ = Infallible.of("a", "A", "b").distinctUntilChanged { $0.lowercased() }
      .subscribe(onNext: { log.append($0) })
    _ = Infallible.of(1, 2, 4, 5).distinctUntilChanged { abs($0 - $1) < 2 }
      .subscribe(onNext: { log.append("\($0)") })
    #expect(log == ["1", "2", "1", "a", "b", "1", "4"])
  }
}
