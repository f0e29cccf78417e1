import Streams
import StreamsTest
import Testing

@Suite("Zip")
struct ZipTests {
  @Test("pairs the elements and completes when every source completed")
  func nonEmptyNonEmpty() {
    let scheduler = TestScheduler(initialClock: 0)
    let o1 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(230)])
    let o2 = scheduler.createHotObservable([.next(150, 1), .next(220, 3), .completed(240)])
    let res = scheduler.start { Observable.zip(o1, o2) { $0 + $1 } }
    #expect(res.events == [.next(220, 2 + 3), .completed(240)])
    #expect(o1.subscriptions == [Subscription(200, 230)])
    #expect(o2.subscriptions == [Subscription(200, 240)])
  }

  @Test("as in RxSwift, a source that completed empty does not end the fixed-arity zip")
  func emptyNonEmpty() {
    let scheduler = TestScheduler(initialClock: 0)
    let e = scheduler.createHotObservable([.next(150, 1), .completed(210)])
    let o = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
    let res = scheduler.start { Observable.zip(e, o) { $0 + $1 } }
    #expect(res.events == [.completed(220)])
    #expect(e.subscriptions == [Subscription(200, 210)])
    #expect(o.subscriptions == [Subscription(200, 220)])
  }

  @Test("the left source completing first waits for the right one")
  func leftCompletesFirst() {
    let scheduler = TestScheduler(initialClock: 0)
    let o1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(220)])
    let o2 = scheduler.createHotObservable([.next(150, 1), .next(215, 4), .completed(225)])
    let res = scheduler.start { Observable.zip(o1, o2) { $0 + $1 } }
    #expect(res.events == [.next(215, 2 + 4), .completed(225)])
    #expect(o1.subscriptions == [Subscription(200, 220)])
    #expect(o2.subscriptions == [Subscription(200, 225)])
  }

  @Test("the tuple form buffers elements until every source has one")
  func buffering() {
    let scheduler = TestScheduler(initialClock: 0)
    let o1 = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .completed(300),
    ])
    let o2 = scheduler.createHotObservable([.next(240, "a"), .next(250, "b"), .completed(260)])
    let res = scheduler.start { Observable.zip(o1, o2).map { "\($0)\($1)" } }
    #expect(res.events == [.next(240, "1a"), .next(250, "2b"), .completed(300)])
    #expect(o2.subscriptions == [Subscription(200, 260)])
  }

  @Test("an error fails and disposes every source")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let o1 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(230)])
    let o2 = scheduler.createHotObservable([.next(150, 1), .error(220, MultiTestError.first)])
    let res = scheduler.start { Observable.zip(o1, o2) { $0 + $1 } }
    #expect(res.events == [.error(220, MultiTestError.first)])
    #expect(o1.subscriptions == [Subscription(200, 220)])
    #expect(o2.subscriptions == [Subscription(200, 220)])
  }

  @Test("a throwing result selector fails and disposes every source")
  func selectorThrows() {
    let scheduler = TestScheduler(initialClock: 0)
    let o1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .completed(220)])
    let o2 = scheduler.createHotObservable([.next(150, 1), .next(210, 4)])
    let res = scheduler.start {
      Observable.zip(o1, o2) { _, _ -> Int in throw MultiTestError.selector }
    }
    #expect(res.events == [.error(220, MultiTestError.selector)])
    #expect(o1.subscriptions == [Subscription(200, 220)])
    #expect(o2.subscriptions == [Subscription(200, 220)])
  }

  @Test("disposal mid-stream disposes every source")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let o1 = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(400)])
    let o2 = scheduler.createHotObservable([.next(220, 10), .next(240, 20), .completed(400)])
    let res = scheduler.start(disposed: 235) { Observable.zip(o1, o2) { $0 + $1 } }
    #expect(res.events == [.next(220, 11)])
    #expect(o1.subscriptions == [Subscription(200, 235)])
    #expect(o2.subscriptions == [Subscription(200, 235)])
  }

  @Test("the collection form pairs symmetric sources")
  func collectionSymmetric() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([
      .next(150, 1), .next(210, 1), .next(250, 4), .completed(420),
    ])
    let e1 = scheduler.createHotObservable([
      .next(150, 1), .next(220, 2), .next(240, 5), .completed(410),
    ])
    let e2 = scheduler.createHotObservable([
      .next(150, 1), .next(230, 3), .next(260, 6), .completed(400),
    ])
    let res = scheduler.start { Observable.zip([e0, e1, e2]) }
    #expect(res.events == [.next(230, [1, 2, 3]), .next(260, [4, 5, 6]), .completed(420)])
    #expect(e0.subscriptions == [Subscription(200, 420)])
    #expect(e1.subscriptions == [Subscription(200, 410)])
    #expect(e2.subscriptions == [Subscription(200, 400)])
  }

  @Test("the collection form completes on an element that can no longer be paired")
  func collectionAsymmetric() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([
      .next(150, 1), .next(210, 1), .next(250, 4), .completed(270),
    ])
    let e1 = scheduler.createHotObservable([
      .next(150, 1), .next(220, 2), .next(240, 5), .next(290, 7), .next(310, 9),
      .completed(410),
    ])
    let e2 = scheduler.createHotObservable([
      .next(150, 1), .next(230, 3), .next(260, 6), .next(280, 8), .completed(300),
    ])
    let res = scheduler.start { Observable.zip([e0, e1, e2]) { $0.reduce(0, +) } }
    #expect(res.events == [.next(230, 6), .next(260, 15), .completed(310)])
    #expect(e0.subscriptions == [Subscription(200, 270)])
    #expect(e1.subscriptions == [Subscription(200, 310)])
    #expect(e2.subscriptions == [Subscription(200, 300)])
  }

  @Test("as in RxSwift, the collection form completes before disposing the last source")
  func collectionCompletionBeforeDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
    let ys = scheduler.createHotObservable([.next(220, 2), .completed(240)])
    let log = DisposalLog()
    let res = scheduler.start {
      Observable.zip([log.watch(xs, "xs"), log.watch(ys, "ys")])
        .do(onCompleted: { log.append("completed") })
    }
    #expect(res.events == [.next(220, [1, 2]), .completed(240)])
    #expect(log.entries == ["dispose xs", "completed", "dispose ys"])
  }

  @Test("zipping an empty collection completes at once")
  func emptyCollection() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start { Observable.zip([Observable<Int>]()) }
    #expect(res.events == [.completed(200)])
  }

  @Test("four sources, with and without a selector")
  func four() {
    let a = PublishSubject<Int>()
    let b = PublishSubject<String>()
    let c = PublishSubject<Int>()
    let d = PublishSubject<Bool>()
    var tuples: [String] = []
    var sums: [Int] = []
    let tupleSubscription = Observable.zip(a, b, c, d).subscribe(onNext: {
      tuples.append("\($0)\($1)\($2)\($3)")
    })
    let sumSubscription = Observable.zip(a, b, c, d) { x, _, z, _ in x + z }.subscribe(onNext: {
      sums.append($0)
    })
    a.onNext(1)
    b.onNext("x")
    c.onNext(3)
    a.onNext(2)
    d.onNext(true)
    #expect(tuples == ["1x3true"])
    #expect(sums == [4])
    tupleSubscription.dispose()
    sumSubscription.dispose()
  }

  @Test("three sources: pairs buffered elements in order and completes when every source did")
  func threeValues() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .completed(300),
    ])
    let e1 = scheduler.createHotObservable([.next(240, 10), .next(250, 20), .completed(310)])
    let e2 = scheduler.createHotObservable([
      .next(260, 100), .next(270, 200), .next(280, 300), .completed(320),
    ])
    let res = scheduler.start { Observable.zip(e0, e1, e2) { $0 + $1 + $2 } }
    #expect(res.events == [.next(260, 111), .next(270, 222), .completed(320)])
    #expect(e0.subscriptions == [Subscription(200, 300)])
    #expect(e1.subscriptions == [Subscription(200, 310)])
    #expect(e2.subscriptions == [Subscription(200, 320)])
  }

  @Test("three sources: an error fails and disposes every source")
  func threeError() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(400)])
    let e1 = scheduler.createHotObservable([.next(220, 10), .completed(225)])
    let e2 = scheduler.createHotObservable([.next(230, 100), .error(240, MultiTestError.second)])
    let res = scheduler.start { Observable.zip(e0, e1, e2) { $0 + $1 + $2 } }
    #expect(res.events == [.next(230, 111), .error(240, MultiTestError.second)])
    #expect(e0.subscriptions == [Subscription(200, 240)])
    #expect(e1.subscriptions == [Subscription(200, 225)])
    #expect(e2.subscriptions == [Subscription(200, 240)])
  }

  @Test("three sources: a throwing result selector fails and disposes every source")
  func threeSelectorThrows() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(400)])
    let e1 = scheduler.createHotObservable([.next(220, 10), .next(250, 20), .completed(400)])
    let e2 = scheduler.createHotObservable([.next(230, 100), .next(260, -1), .completed(400)])
    let res = scheduler.start {
      Observable.zip(e0, e1, e2) { a, b, c -> Int in
        if c < 0 { throw MultiTestError.selector }
        return a + b + c
      }
    }
    #expect(res.events == [.next(230, 111), .error(260, MultiTestError.selector)])
    for source in [e0, e1, e2] { #expect(source.subscriptions == [Subscription(200, 260)]) }
  }

  @Test("three sources: disposal mid-stream disposes every source")
  func threeDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([.next(210, 1), .next(260, 5), .completed(400)])
    let e1 = scheduler.createHotObservable([.next(220, 2), .completed(400)])
    let e2 = scheduler.createHotObservable([.next(230, 3), .completed(400)])
    let res = scheduler.start(disposed: 250) { Observable.zip(e0, e1, e2) { $0 + $1 + $2 } }
    #expect(res.events == [.next(230, 6)])
    for source in [e0, e1, e2] { #expect(source.subscriptions == [Subscription(200, 250)]) }
  }

  @Test("the three-source tuple form emits triples")
  func triples() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
    let e1 = scheduler.createHotObservable([.next(230, "a"), .next(240, "b"), .completed(250)])
    let e2 = scheduler.createHotObservable([.next(235, true), .next(245, false), .completed(260)])
    let res = scheduler.start { Observable.zip(e0, e1, e2).map { "\($0)\($1)\($2)" } }
    #expect(res.events == [.next(235, "1atrue"), .next(245, "2bfalse"), .completed(300)])
    #expect(e2.subscriptions == [Subscription(200, 260)])
  }

  @Test("a pair made from the observer is delivered after the current one, in order")
  func reentrantPair() {
    for arity in [2, 3, 4] {
      let a = PublishSubject<Int>()
      let b = PublishSubject<Int>()
      let c = PublishSubject<Int>()
      let d = PublishSubject<Int>()
      let zipped: Observable<Int> =
        switch arity {
        case 2: Observable.zip(a, b) { $0 * 10 + $1 }
        case 3: Observable.zip(a, b, c) { $0 * 10 + $1 + $2 }
        default: Observable.zip(a, b, c, d) { $0 * 10 + $1 + $2 + $3 }
        }
      var received: [Int] = []
      let subscription = zipped.subscribe(onNext: { value in
        received.append(value)
        if value == 11 {
          b.onNext(2)
          received.append(-1)  // runs before the nested pair is delivered
        }
      })
      for _ in 0..<3 {
        c.onNext(0)
        d.onNext(0)
      }
      a.onNext(1)
      a.onNext(2)
      a.onNext(3)
      b.onNext(1)
      b.onNext(3)
      #expect(received == [11, -1, 22, 33], "arity \(arity)")
      subscription.dispose()
      #expect(!a.hasObservers && !b.hasObservers && !c.hasObservers, "arity \(arity)")
    }
  }
}

// MARK: - Releasing outside the lock

extension ZipTests {
  /// How many sources the zip under test has: the typed two- and three-source paths, the boxed
  /// path of four or more, and the collection overload.
  enum Arity: String, CaseIterable, Sendable {
    case two, three, four, collection
  }

  /// `first` zipped with `others` through the overload `arity` picks; emits the element of
  /// `first`.
  static func zipped(
    _ arity: Arity, _ first: PublishSubject<Reentrant>, _ others: [PublishSubject<Int>]
  ) -> Observable<Int> {
    switch arity {
    case .two:
      return Observable.zip(first, others[0]) { a, _ in a.id }
    case .three:
      return Observable.zip(first, others[0], others[1]) { a, _, _ in a.id }
    case .four:
      return Observable.zip(first, others[0], others[1], others[2]) { a, _, _, _ in a.id }
    case .collection:
      let erased = [first.map { $0 as Any }] + others.map { $0.map { $0 as Any } }
      return Observable.zip(erased) { ($0[0] as! Reentrant).id }
    }
  }

  @Test(
    "disposal releases buffered elements outside the lock (their deinit re-enters)",
    arguments: Arity.allCases)
  func disposalReleasesBufferOutsideLock(arity: Arity) {
    let finished = finishesInTime {
      let first = PublishSubject<Reentrant>()
      let others = (0..<3).map { _ in PublishSubject<Int>() }
      let subscription = Self.zipped(arity, first, others).subscribe(onNext: { _ in })
      // Waits in zip's buffer for the other sources; its deinit emits into one of them.
      first.onNext(Reentrant(1) { others[0].onNext(0) })
      first.onNext(Reentrant(2) { others[0].onNext(0) })
      subscription.dispose()
    }
    #expect(finished, "zip released its buffered elements under its lock on disposal")
  }

  @Test("paired elements leave the buffers: a paired element's deinit re-enters safely")
  func pairedElementsLeaveBuffers() {
    let ids = withWatchdog { () -> [Int] in
      let first = PublishSubject<Reentrant>()
      let second = PublishSubject<Int>()
      var ids: [Int] = []
      let subscription = Observable.zip(first, second) { a, _ in a.id }
        .subscribe(onNext: { ids.append($0) })
      first.onNext(Reentrant(1) { second.onNext(0) })
      first.onNext(Reentrant(2))
      second.onNext(0)  // pairs 1; releasing it pairs 2 through the re-entrant emission
      subscription.dispose()
      return ids
    }
    #expect(ids != nil, "zip released a paired element under its lock")
    #expect(ids == [1, 2])
  }
}
