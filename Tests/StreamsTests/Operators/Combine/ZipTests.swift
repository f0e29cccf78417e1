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
}
