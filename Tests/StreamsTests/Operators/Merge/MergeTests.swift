import Streams
import StreamsTest
import Testing

@Suite("Merge")
struct MergeTests {
  @Test("static merge forwards the elements of every source and completes after the last")
  func values() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(230, 4), .completed(300),
    ])
    let ys = scheduler.createHotObservable([.next(220, 3), .next(240, 5), .completed(350)])
    let res = scheduler.start { Observable.merge(xs.asObservable(), ys.asObservable()) }
    #expect(
      res.events == [
        .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(350),
      ])
    #expect(xs.subscriptions == [Subscription(200, 300)])
    #expect(ys.subscriptions == [Subscription(200, 350)])
  }

  @Test("an error of one source fails the merge and disposes the others")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .next(230, 4), .completed(300)])
    let ys = scheduler.createHotObservable([.next(220, 3), .error(235, MultiTestError.first)])
    let res = scheduler.start { Observable.merge([xs.asObservable(), ys.asObservable()]) }
    #expect(
      res.events == [
        .next(210, 2), .next(220, 3), .next(230, 4), .error(235, MultiTestError.first),
      ]
    )
    #expect(xs.subscriptions == [Subscription(200, 235)])
    #expect(ys.subscriptions == [Subscription(200, 235)])
  }

  @Test("merging no sources completes at once")
  func empty() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start { Observable<Int>.merge([Observable<Int>]()) }
    #expect(res.events == [.completed(200)])
  }

  @Test("merge over a collection that is not an array")
  func collection() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
    let ys = scheduler.createHotObservable([.next(215, 2), .completed(230)])
    let sources: ArraySlice = [xs.asObservable(), ys.asObservable()]
    let res = scheduler.start { Observable.merge(sources) }
    #expect(res.events == [.next(210, 1), .next(215, 2), .completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
    #expect(ys.subscriptions == [Subscription(200, 230)])
  }

  @Test("disposal mid-stream disposes every source")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .next(230, 4), .completed(300)])
    let ys = scheduler.createHotObservable([.next(220, 3), .next(240, 5), .completed(350)])
    let res = scheduler.start(disposed: 225) {
      Observable.merge(xs.asObservable(), ys.asObservable())
    }
    #expect(res.events == [.next(210, 2), .next(220, 3)])
    #expect(xs.subscriptions == [Subscription(200, 225)])
    #expect(ys.subscriptions == [Subscription(200, 225)])
  }

  @Test("merge() subscribes inner sequences as they arrive and waits for all of them")
  func mergeInner() {
    let scheduler = TestScheduler(initialClock: 0)
    let ys1 = scheduler.createColdObservable([.next(10, 1), .next(60, 2), .completed(70)])
    let ys2 = scheduler.createColdObservable([.next(5, 3), .completed(100)])
    let xs = scheduler.createHotOuter([.next(210, ys1), .next(260, ys2), .completed(300)])
    let res = scheduler.start { xs.asObservable().merge() }
    #expect(res.events == [.next(220, 1), .next(265, 3), .next(270, 2), .completed(360)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
    #expect(ys1.subscriptions == [Subscription(210, 280)])
    #expect(ys2.subscriptions == [Subscription(260, 360)])
  }

  @Test("merge() fails with an inner error and disposes the outer and other inner sequences")
  func mergeInnerError() {
    let scheduler = TestScheduler(initialClock: 0)
    let ys1 = scheduler.createColdObservable([.next(10, 1), .next(60, 2), .completed(70)])
    let ys2: TestableObservable<Int> = scheduler.createColdObservable([
      .error(20, MultiTestError.second)
    ])
    let xs = scheduler.createHotOuter([.next(210, ys1), .next(230, ys2), .completed(300)])
    let res = scheduler.start { xs.asObservable().merge() }
    #expect(res.events == [.next(220, 1), .error(250, MultiTestError.second)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(ys1.subscriptions == [Subscription(210, 250)])
    #expect(ys2.subscriptions == [Subscription(230, 250)])
  }

  @Test("merge() fails with an outer error")
  func mergeOuterError() {
    let scheduler = TestScheduler(initialClock: 0)
    let ys1 = scheduler.createColdObservable([.next(10, 1), .next(60, 2), .completed(70)])
    let xs = scheduler.createHotOuter([.next(210, ys1), .error(240, MultiTestError.first)])
    let res = scheduler.start { xs.asObservable().merge() }
    #expect(res.events == [.next(220, 1), .error(240, MultiTestError.first)])
    #expect(xs.subscriptions == [Subscription(200, 240)])
    #expect(ys1.subscriptions == [Subscription(210, 240)])
  }

  @Test("merge(maxConcurrent: 1) queues inner sequences until the running one completes")
  func maxConcurrentOne() {
    let scheduler = TestScheduler(initialClock: 0)
    let ys1 = scheduler.createColdObservable([.next(10, 1), .next(60, 2), .completed(70)])
    let ys2 = scheduler.createColdObservable([.next(5, 3), .completed(100)])
    let xs = scheduler.createHotOuter([.next(210, ys1), .next(230, ys2), .completed(300)])
    let res = scheduler.start { xs.asObservable().merge(maxConcurrent: 1) }
    #expect(res.events == [.next(220, 1), .next(270, 2), .next(285, 3), .completed(380)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
    #expect(ys1.subscriptions == [Subscription(210, 280)])
    #expect(ys2.subscriptions == [Subscription(280, 380)])
  }

  @Test("merge(maxConcurrent: 2) runs two inner sequences and queues the third")
  func maxConcurrentTwo() {
    let scheduler = TestScheduler(initialClock: 0)
    let ys1 = scheduler.createColdObservable([.next(10, 1), .completed(50)])
    let ys2 = scheduler.createColdObservable([.next(10, 2), .completed(20)])
    let ys3 = scheduler.createColdObservable([.next(5, 3), .completed(10)])
    let xs = scheduler.createHotOuter([
      .next(210, ys1), .next(220, ys2), .next(225, ys3), .completed(230),
    ])
    let res = scheduler.start { xs.asObservable().merge(maxConcurrent: 2) }
    #expect(res.events == [.next(220, 1), .next(230, 2), .next(245, 3), .completed(260)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
    #expect(ys1.subscriptions == [Subscription(210, 260)])
    #expect(ys2.subscriptions == [Subscription(220, 240)])
    #expect(ys3.subscriptions == [Subscription(240, 250)])
  }

  @Test("merge(maxConcurrent:) disposal drops the queued inner sequences")
  func maxConcurrentDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let ys1 = scheduler.createColdObservable([.next(10, 1), .next(60, 2), .completed(70)])
    let ys2 = scheduler.createColdObservable([.next(5, 3), .completed(100)])
    let xs = scheduler.createHotOuter([.next(210, ys1), .next(230, ys2)])
    let res = scheduler.start(disposed: 250) { xs.asObservable().merge(maxConcurrent: 1) }
    #expect(res.events == [.next(220, 1)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(ys1.subscriptions == [Subscription(210, 250)])
    #expect(ys2.subscriptions == [])
  }

  @Test("merging synchronous sources delivers them in order")
  func synchronous() {
    let one = Observable<Int>.create { observer in
      observer.onNext(1)
      observer.onNext(2)
      observer.onCompleted()
      return Disposables.create()
    }
    let two = Observable<Int>.create { observer in
      observer.onNext(3)
      observer.onCompleted()
      return Disposables.create()
    }
    var events: [Event<Int>] = []
    _ = Observable.merge(one, two).subscribe { events.append($0) }
    #expect(events == [.next(1), .next(2), .next(3), .completed])
  }

  @Test("static merge of sequences that complete while subscribed", arguments: InnerKind.allCases)
  func synchronousSingles(kind: InnerKind) {
    var events: [Event<Int>] = []
    _ = Observable.merge(kind.make(1), kind.make(2), kind.make(3)).subscribe { events.append($0) }
    #expect(events == [.next(1), .next(2), .next(3), .completed])
  }

  @Test(
    "merge(maxConcurrent: 1) starts queued synchronous sequences in order",
    arguments: InnerKind.allCases)
  func queuedSynchronousSingles(kind: InnerKind) {
    let outer = PublishSubject<Observable<Int>>()
    let running = PublishSubject<Int>()
    var events: [Event<Int>] = []
    _ = outer.merge(maxConcurrent: 1).subscribe { events.append($0) }
    outer.onNext(running.asObservable())
    outer.onNext(kind.make(1))
    outer.onNext(kind.make(2))
    outer.onCompleted()
    #expect(events.isEmpty)
    running.onCompleted()
    #expect(events == [.next(1), .next(2), .completed])
  }

  @Test("an event sent from inside delivery is delivered after the current one")
  func reentrant() {
    let a = PublishSubject<Int>()
    let b = PublishSubject<Int>()
    var received: [Int] = []
    let subscription = Observable.merge(a.asObservable(), b.asObservable()).subscribe(
      onNext: { value in
        received.append(value)
        if value == 1 { b.onNext(2) }
        received.append(-value)
      })
    a.onNext(1)
    #expect(received == [1, -1, 2, -2])
    subscription.dispose()
  }
}

// MARK: - Releasing outside the lock

extension MergeTests {
  /// A sequence that never emits and keeps `token` alive for as long as it lives itself.
  static func holding(_ token: Reentrant) -> Observable<Int> {
    Observable.create { _ in
      withExtendedLifetime(token) {}
      return Disposables.create()
    }
  }

  @Test("disposal releases a queued element outside the lock (its deinit re-enters)")
  func disposalReleasesQueuedElementOutsideLock() {
    let ids = withWatchdog { () -> [Int] in
      let first = PublishSubject<Reentrant>()
      let second = PublishSubject<Reentrant>()
      let third = PublishSubject<Reentrant>()
      let subscription = DisposableHolder()
      var ids: [Int] = []
      subscription.disposable = Observable.merge(first, second, third).subscribe(onNext: {
        ids.append($0.id)
        guard $0.id == 1 else { return }
        // Queued behind element 1, which is being delivered; its deinit emits into `third`.
        second.onNext(Reentrant(2) { third.onNext(Reentrant(3)) })
        subscription.dispose()
      })
      first.onNext(Reentrant(1))
      return ids
    }
    #expect(ids != nil, "merge released a queued element under its lock on disposal")
    #expect(ids == [1])
  }

  @Test("disposal releases waiting sequences outside the lock (their deinit re-enters)")
  func disposalReleasesWaitingSequencesOutsideLock() {
    let finished = finishesInTime {
      let outer = PublishSubject<Observable<Int>>()
      let running = PublishSubject<Int>()
      let subscription = outer.merge(maxConcurrent: 1).subscribe(onNext: { _ in })
      outer.onNext(running.asObservable())
      // Waits for a free slot; releasing it releases its token, whose deinit emits into `running`.
      outer.onNext(Self.holding(Reentrant(1) { running.onNext(1) }))
      subscription.dispose()
    }
    #expect(finished, "merge released its waiting sequences under its lock on disposal")
  }
}
