import Dispatch
import Streams
import StreamsTest
import Testing

@Suite("PrimitiveSequence zip")
struct PrimitiveSequenceZipTests {
  @Test("Single.zip of two with a result selector waits for both")
  func zipTwo() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
    let ys = scheduler.createHotObservable([.next(230, "a"), .completed(240)])
    let res = scheduler.start {
      Single.zip(xs.asSingle(), ys.asSingle()) { "\($0)\($1)" }.asObservable()
    }
    #expect(res.events == [.next(240, "1a"), .completed(240)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
    #expect(ys.subscriptions == [Subscription(200, 240)])
  }

  @Test("Single.zip of several gives a tuple in order")
  func zipTuple() {
    var result: String?
    _ = Single.zip(Single.just(1), Single.just("b"), Single.just(3.5), Single.just(true))
      .subscribe(onSuccess: { result = "\($0.0) \($0.1) \($0.2) \($0.3)" })
    #expect(result == "1 b 3.5 true")
    var pair: String?
    _ = Single.zip(Single.just(1), Single.just(2)).subscribe(onSuccess: { pair = "\($0)" })
    #expect(pair == "(1, 2)")
  }

  @Test("Single.zip fails with the first failure and disposes the others")
  func zipFailure() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
    let ys = scheduler.createHotObservable([.error(230, TraitError())] as [Recorded<Event<Int>>])
    let res = scheduler.start {
      Single.zip(xs.asSingle(), ys.asSingle()) { $0 + $1 }.asObservable()
    }
    #expect(res.events == [.error(230, TraitError())])
    #expect(xs.subscriptions == [Subscription(200, 230)])
    #expect(ys.subscriptions == [Subscription(200, 230)])

    var failure: String?
    _ = Single.zip(Single.just(1), Single.just(2)) { _, _ -> Int in throw TraitError(3) }
      .subscribe(onFailure: { failure = "\($0)" })
    #expect(failure == "TraitError(code: 3)")
  }

  @Test("Single.zip of a collection; an empty collection succeeds with []")
  func zipCollection() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
    let ys = scheduler.createHotObservable([.next(205, 2), .completed(230)])
    let res = scheduler.start { Single.zip([xs.asSingle(), ys.asSingle()]).asObservable() }
    #expect(res.events == [.next(230, [1, 2]), .completed(230)])

    var values: [[Int]] = []
    _ = Single.zip([Single<Int>]()).subscribe(onSuccess: { values.append($0) })
    _ = Single.zip([Single.just(1), .just(2)], resultSelector: { [$0.reduce(0, +)] })
      .subscribe(onSuccess: { values.append($0) })
    #expect(values == [[], [3]])
  }

  @Test("Single.zip: disposal disposes every source")
  func zipDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
    let ys = scheduler.createHotObservable([.next(410, 2), .completed(420)])
    let res = scheduler.start(disposed: 300) {
      Single.zip([xs.asSingle(), ys.asSingle()]).asObservable()
    }
    #expect(res.events == [])
    #expect(xs.subscriptions == [Subscription(200, 220)])
    #expect(ys.subscriptions == [Subscription(200, 300)])
  }

  @Test("Maybe.zip completes empty as soon as one source is empty")
  func maybeZip() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
    let ys = scheduler.createHotObservable([.completed(230)] as [Recorded<Event<Int>>])
    let res = scheduler.start { Maybe.zip(xs.asMaybe(), ys.asMaybe()) { $0 + $1 }.asObservable() }
    #expect(res.events == [.completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 230)])

    var log: [String] = []
    _ = Maybe.zip(Maybe.just(1), Maybe.just("a")).subscribe(onSuccess: { log.append("\($0)") })
    _ = Maybe.zip([Maybe.just(1), Maybe.just(2)]).subscribe(onSuccess: { log.append("\($0)") })
    #expect(log == ["(1, \"a\")", "[1, 2]"])
  }
}

@Suite("PrimitiveSequence zip stress")
struct PrimitiveSequenceZipStressTests {
  @Test("sources succeeding on different threads give exactly one result")
  func concurrentSources() {
    for _ in 0..<200 {
      let first = PublishSubject<Int>()
      let second = PublishSubject<Int>()
      let log = TraitLog()
      let subscription = Single.zip(first.asSingle(), second.asSingle()) { $0 + $1 }
        .subscribe(
          onSuccess: { log.append("success \($0)") }, onFailure: { log.append("failure \($0)") })
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        let subject = index == 0 ? first : second
        subject.onNext(index + 1)
        subject.onCompleted()
      }
      subscription.dispose()
      #expect(log.entries == ["success 3"])
    }
  }
}
