import Streams
import StreamsTest
import Testing

@Suite("CombineLatest")
struct CombineLatestTests {
  @Test("a source that completes without an element leaves the others running")
  func neverEmpty() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([.next(150, 1)])
    let e1 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
    let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
    #expect(res.events == [])
    #expect(e0.subscriptions == [Subscription(200, 1000)])
    #expect(e1.subscriptions == [Subscription(200, 210)])
  }

  @Test("an element while every other source completed without one completes")
  func emptyReturn() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
    let e1 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
    let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
    #expect(res.events == [.completed(215)])
    #expect(e0.subscriptions == [Subscription(200, 210)])
    #expect(e1.subscriptions == [Subscription(200, 215)])
  }

  @Test("combines the latest elements and completes when every source completed")
  func returnReturn() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(230)])
    let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 3), .completed(240)])
    let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
    #expect(res.events == [.next(220, 2 + 3), .completed(240)])
    #expect(e0.subscriptions == [Subscription(200, 230)])
    #expect(e1.subscriptions == [Subscription(200, 240)])
  }

  @Test("the tuple form emits on every element once all sources have one")
  func tuples() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
    let e1 = scheduler.createHotObservable([.next(220, "a"), .next(250, "b"), .completed(260)])
    let e2 = scheduler.createHotObservable([.next(230, true), .completed(270)])
    let res = scheduler.start {
      Observable.combineLatest(e0, e1, e2).map { "\($0)\($1)\($2)" }
    }
    #expect(
      res.events == [
        .next(230, "1atrue"), .next(240, "2atrue"), .next(250, "2btrue"), .completed(300),
      ])
    #expect(e1.subscriptions == [Subscription(200, 260)])
  }

  @Test("eight sources with a result selector")
  func eight() {
    let scheduler = TestScheduler(initialClock: 0)
    let sources = (0..<8).map { index in
      scheduler.createHotObservable([.next(210 + index, index + 1), .completed(300 + index)])
    }
    let res = scheduler.start {
      Observable.combineLatest(
        sources[0], sources[1], sources[2], sources[3], sources[4], sources[5], sources[6],
        sources[7]
      ) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
    }
    #expect(res.events == [.next(217, 36), .completed(307)])
    for (index, source) in sources.enumerated() {
      #expect(source.subscriptions == [Subscription(200, 300 + index)])
    }
  }

  @Test("an error of any source fails and disposes every source")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([.next(210, 1), .error(220, MultiTestError.first)])
    let e1 = scheduler.createHotObservable([.next(215, 2), .completed(400)])
    let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
    #expect(res.events == [.next(215, 3), .error(220, MultiTestError.first)])
    #expect(e0.subscriptions == [Subscription(200, 220)])
    #expect(e1.subscriptions == [Subscription(200, 220)])
  }

  @Test("a throwing result selector fails and disposes every source")
  func selectorThrows() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(400)])
    let e1 = scheduler.createHotObservable([.next(220, 2), .completed(400)])
    let res = scheduler.start {
      Observable.combineLatest(e0, e1) { a, b -> Int in
        if a == 2 { throw MultiTestError.selector }
        return a + b
      }
    }
    #expect(res.events == [.next(220, 3), .error(230, MultiTestError.selector)])
    #expect(e0.subscriptions == [Subscription(200, 230)])
    #expect(e1.subscriptions == [Subscription(200, 230)])
  }

  @Test("disposal mid-stream disposes every source")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(400)])
    let e1 = scheduler.createHotObservable([.next(220, 2), .completed(400)])
    let res = scheduler.start(disposed: 230) { Observable.combineLatest(e0, e1) { $0 + $1 } }
    #expect(res.events == [.next(220, 3)])
    #expect(e0.subscriptions == [Subscription(200, 230)])
    #expect(e1.subscriptions == [Subscription(200, 230)])
  }

  @Test("the collection form combines arrays and follows the same completion rules")
  func collection() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([.next(210, 1), .next(240, 4), .completed(250)])
    let e1 = scheduler.createHotObservable([.next(220, 2), .completed(260)])
    let e2 = scheduler.createHotObservable([.next(230, 3), .completed(270)])
    let sums = scheduler.start {
      Observable.combineLatest([e0, e1, e2]) { $0.reduce(0, +) }
    }
    #expect(sums.events == [.next(230, 6), .next(240, 9), .completed(270)])
    #expect(e0.subscriptions == [Subscription(200, 250)])

    let scheduler2 = TestScheduler(initialClock: 0)
    let f0 = scheduler2.createHotObservable([.next(210, 1), .completed(250)])
    let f1 = scheduler2.createHotObservable([.next(220, 2), .completed(260)])
    let arrays = scheduler2.start { Observable.combineLatest([f0, f1]) }
    #expect(arrays.events == [.next(220, [1, 2]), .completed(260)])
  }

  @Test("as in RxSwift, an empty collection emits one empty array and completes at once")
  func emptyCollection() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start { Observable.combineLatest([] as [Observable<Int>]) }
    #expect(res.events == [.next(200, []), .completed(200)])
  }

  @Test("as in RxSwift, an empty collection emits the selector applied to no elements")
  func emptyCollectionSelector() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start {
      Observable.combineLatest([] as [Observable<Int>]) { $0.count + 10 }
    }
    #expect(res.events == [.next(200, 10), .completed(200)])
  }

  @Test("an empty collection fails at once when the selector throws")
  func emptyCollectionSelectorThrows() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start {
      Observable.combineLatest([] as [Observable<Int>]) { _ -> Int in throw MultiTestError.selector
      }
    }
    #expect(res.events == [.error(200, MultiTestError.selector)])
  }

  @Test("as in RxSwift, the collection form completes before disposing the last source")
  func collectionCompletionBeforeDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
    let ys = scheduler.createHotObservable([.next(220, 2), .completed(240)])
    let log = DisposalLog()
    let res = scheduler.start {
      Observable.combineLatest([log.watch(xs, "xs"), log.watch(ys, "ys")])
        .do(onCompleted: { log.append("completed") })
    }
    #expect(res.events == [.next(220, [1, 2]), .completed(240)])
    #expect(log.entries == ["dispose xs", "completed", "dispose ys"])
  }

  @Test("synchronous sources combine in subscription order")
  func synchronous() {
    let a = BehaviorSubject(value: 1)
    let b = BehaviorSubject(value: 10)
    var received: [Int] = []
    let subscription = Observable.combineLatest(a, b) { $0 + $1 }
      .subscribe(onNext: { received.append($0) })
    a.onNext(2)
    b.onNext(20)
    #expect(received == [11, 12, 22])
    subscription.dispose()
    #expect(!a.hasObservers)
  }

  @Test("three sources: combines the latest elements and completes when every source completed")
  func threeValues() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([.next(150, 9), .next(210, 1), .completed(260)])
    let e1 = scheduler.createHotObservable([.next(220, 10), .next(240, 20), .completed(270)])
    let e2 = scheduler.createHotObservable([.next(230, 100), .next(250, 200), .completed(280)])
    let res = scheduler.start { Observable.combineLatest(e0, e1, e2) { $0 + $1 + $2 } }
    #expect(res.events == [.next(230, 111), .next(240, 121), .next(250, 221), .completed(280)])
    #expect(e0.subscriptions == [Subscription(200, 260)])
    #expect(e1.subscriptions == [Subscription(200, 270)])
    #expect(e2.subscriptions == [Subscription(200, 280)])
  }

  @Test("three sources: an element while the other two completed completes")
  func threeOthersDone() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([.next(210, 1), .completed(220)])
    let e1 = scheduler.createHotObservable([.next(150, 0), .completed(230)])
    let e2 = scheduler.createHotObservable([.next(225, 3), .next(240, 4), .completed(400)])
    let res = scheduler.start { Observable.combineLatest(e0, e1, e2) { $0 + $1 + $2 } }
    #expect(res.events == [.completed(240)])
    #expect(e0.subscriptions == [Subscription(200, 220)])
    #expect(e1.subscriptions == [Subscription(200, 230)])
    #expect(e2.subscriptions == [Subscription(200, 240)])
  }

  @Test("three sources: an error fails and disposes every source")
  func threeError() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([.next(210, 1), .completed(215)])
    let e1 = scheduler.createHotObservable([.next(220, 2), .error(240, MultiTestError.second)])
    let e2 = scheduler.createHotObservable([.next(230, 3), .completed(400)])
    let res = scheduler.start { Observable.combineLatest(e0, e1, e2) { $0 + $1 + $2 } }
    #expect(res.events == [.next(230, 6), .error(240, MultiTestError.second)])
    #expect(e0.subscriptions == [Subscription(200, 215)])
    #expect(e1.subscriptions == [Subscription(200, 240)])
    #expect(e2.subscriptions == [Subscription(200, 240)])
  }

  @Test("three sources: a throwing result selector fails and disposes every source")
  func threeSelectorThrows() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([.next(210, 1), .completed(400)])
    let e1 = scheduler.createHotObservable([.next(220, 2), .completed(400)])
    let e2 = scheduler.createHotObservable([.next(230, 3), .next(240, -1), .completed(400)])
    let res = scheduler.start {
      Observable.combineLatest(e0, e1, e2) { a, b, c -> Int in
        if c < 0 { throw MultiTestError.selector }
        return a + b + c
      }
    }
    #expect(res.events == [.next(230, 6), .error(240, MultiTestError.selector)])
    for source in [e0, e1, e2] { #expect(source.subscriptions == [Subscription(200, 240)]) }
  }

  @Test("three sources: disposal mid-stream disposes every source")
  func threeDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([.next(210, 1), .next(260, 5), .completed(400)])
    let e1 = scheduler.createHotObservable([.next(220, 2), .completed(400)])
    let e2 = scheduler.createHotObservable([.next(230, 3), .completed(400)])
    let res = scheduler.start(disposed: 250) {
      Observable.combineLatest(e0, e1, e2) { $0 + $1 + $2 }
    }
    #expect(res.events == [.next(230, 6)])
    for source in [e0, e1, e2] { #expect(source.subscriptions == [Subscription(200, 250)]) }
  }

  @Test("the two-source tuple form emits pairs of the latest elements")
  func pairs() {
    let scheduler = TestScheduler(initialClock: 0)
    let e0 = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
    let e1 = scheduler.createHotObservable([.next(220, "a"), .completed(250)])
    let res = scheduler.start { Observable.combineLatest(e0, e1).map { "\($0)\($1)" } }
    #expect(res.events == [.next(220, "1a"), .next(230, "2a"), .completed(300)])
    #expect(e0.subscriptions == [Subscription(200, 300)])
    #expect(e1.subscriptions == [Subscription(200, 250)])
  }

  @Test("a source that fails while subscribing ends it; the next source is disposed at once")
  func synchronousError() {
    for arity in [2, 3, 4] {
      let scheduler = TestScheduler(initialClock: 0)
      let failing = Observable<Int>.error(MultiTestError.first)
      let others = (1..<arity).map { _ in
        scheduler.createColdObservable([.next(10, 1), .completed(20)])
      }
      let res = scheduler.start { () -> Observable<Int> in
        switch arity {
        case 2: Observable.combineLatest(failing, others[0]) { $0 + $1 }
        case 3: Observable.combineLatest(failing, others[0], others[1]) { $0 + $1 + $2 }
        default:
          Observable.combineLatest(failing, others[0], others[1], others[2]) { $0 + $1 + $2 + $3 }
        }
      }
      #expect(res.events == [.error(200, MultiTestError.first)], "arity \(arity)")
      for source in others {
        #expect(source.subscriptions == [Subscription(200, 200)], "arity \(arity)")
      }
    }
  }

  @Test("an update sent from the observer is delivered after the current one, in order")
  func reentrantUpdate() {
    for arity in [2, 3, 4] {
      let a = BehaviorSubject(value: 1)
      let b = BehaviorSubject(value: 10)
      let c = BehaviorSubject(value: 0)
      let d = BehaviorSubject(value: 0)
      let combined: Observable<Int> =
        switch arity {
        case 2: Observable.combineLatest(a, b) { $0 + $1 }
        case 3: Observable.combineLatest(a, b, c) { $0 + $1 + $2 }
        default: Observable.combineLatest(a, b, c, d) { $0 + $1 + $2 + $3 }
        }
      var received: [Int] = []
      let subscription = combined.subscribe(onNext: { value in
        received.append(value)
        if value == 12 { b.onNext(20) }
        if value == 12 { received.append(-1) }  // runs before the nested update is delivered
      })
      a.onNext(2)
      a.onNext(3)
      #expect(received == [11, 12, -1, 22, 23], "arity \(arity)")
      subscription.dispose()
      #expect(!a.hasObservers && !b.hasObservers && !c.hasObservers, "arity \(arity)")
    }
  }

  @Test("disposal releases the latest elements")
  func releasesOnDisposal() {
    final class Box {}
    weak var weakBox: Box?
    do {
      let a = PublishSubject<Box>()
      let b = PublishSubject<Int>()
      let subscription = Observable.combineLatest(a, b) { box, _ in ObjectIdentifier(box) }
        .subscribe(onNext: { _ in })
      do {
        let box = Box()
        weakBox = box
        a.onNext(box)
      }
      #expect(weakBox != nil)
      subscription.dispose()
      #expect(weakBox == nil)
    }
  }
}

// MARK: - Releasing outside the lock

extension CombineLatestTests {
  /// How many sources the combination under test has: the typed two- and three-source paths,
  /// the boxed path of four or more, and the collection overload.
  enum Arity: String, CaseIterable, Sendable {
    case two, three, four, collection
  }

  /// `first` combined with `others` (all emitting `0` in the tests) through the overload `arity`
  /// picks; emits the element of `first`.
  static func combined(
    _ arity: Arity, _ first: PublishSubject<Reentrant>, _ others: [PublishSubject<Int>]
  ) -> Observable<Int> {
    switch arity {
    case .two:
      return Observable.combineLatest(first, others[0]) { a, _ in a.id }
    case .three:
      return Observable.combineLatest(first, others[0], others[1]) { a, _, _ in a.id }
    case .four:
      return Observable.combineLatest(first, others[0], others[1], others[2]) { a, _, _, _ in a.id }
    case .collection:
      let erased = [first.map { $0 as Any }] + others.map { $0.map { $0 as Any } }
      return Observable.combineLatest(erased) { ($0[0] as! Reentrant).id }
    }
  }

  @Test(
    "an overwritten latest element is released outside the lock (its deinit re-enters)",
    arguments: Arity.allCases)
  func overwrittenLatestReleasedOutsideLock(arity: Arity) {
    let ids = withWatchdog { () -> [Int] in
      let first = PublishSubject<Reentrant>()
      let others = (0..<3).map { _ in PublishSubject<Int>() }
      var ids: [Int] = []
      let subscription = Self.combined(arity, first, others).subscribe(onNext: { ids.append($0) })
      for other in others { other.onNext(0) }
      // The deinit of element 1 emits into another source of the same combineLatest.
      first.onNext(Reentrant(1) { others[0].onNext(0) })
      first.onNext(Reentrant(2))
      subscription.dispose()
      return ids
    }
    #expect(ids != nil, "combineLatest released its overwritten latest element under its lock")
    #expect(ids == [1, 2, 2])
  }

  @Test(
    "disposal releases the latest elements outside the lock (their deinit re-enters)",
    arguments: Arity.allCases)
  func disposalReleasesLatestOutsideLock(arity: Arity) {
    let finished = finishesInTime {
      let first = PublishSubject<Reentrant>()
      let others = (0..<3).map { _ in PublishSubject<Int>() }
      let subscription = Self.combined(arity, first, others).subscribe(onNext: { _ in })
      first.onNext(Reentrant(1) { others[0].onNext(0) })
      subscription.dispose()
    }
    #expect(finished, "combineLatest released its latest elements under its lock on disposal")
  }
}
