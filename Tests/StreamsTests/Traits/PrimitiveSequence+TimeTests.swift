import Streams
import StreamsTest
import Testing

@Suite("PrimitiveSequence timeout, delay, delaySubscription and timer")
struct PrimitiveSequenceTimeTests {
  @Test("timeout: a Single that answers in time passes through")
  func timeoutInTime() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(20, 1), .completed(20)])
    let res = scheduler.start {
      xs.asSingle().timeout(.seconds(30), scheduler: scheduler).asObservable()
    }
    #expect(res.events == [.next(220, 1), .completed(220)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("timeout: a late Single fails with RxError.timeout and its source is disposed")
  func timeoutLate() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
    let res = scheduler.start {
      xs.asSingle().timeout(.seconds(30), scheduler: scheduler).asObservable()
    }
    #expect(res.events == [.error(230, RxError.timeout)])
    #expect(xs.subscriptions == [Subscription(200, 230)])

    let completable = TestScheduler(initialClock: 0)
    let ys = completable.createColdObservable([.completed(50)] as [Recorded<Event<Never>>])
    let timedOut = completable.start {
      ys.asCompletable().timeout(.seconds(10), scheduler: completable).asObservable()
    }
    #expect(timedOut.events == [.error(210, RxError.timeout)])
  }

  @Test("timeout(other:): a late Maybe switches to the other Maybe on the scheduler")
  func timeoutOther() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
    let other = scheduler.createColdObservable([.next(5, 9), .completed(5)])
    let res = scheduler.start {
      xs.asMaybe().timeout(.seconds(30), other: other.asMaybe(), scheduler: scheduler)
        .asObservable()
    }
    #expect(res.events == [.next(235, 9), .completed(235)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
    #expect(other.subscriptions == [Subscription(230, 235)])

    let inTime = TestScheduler(initialClock: 0)
    let ys = inTime.createColdObservable([.completed(10)] as [Recorded<Event<Int>>])
    let unused = inTime.createColdObservable([.next(5, 9), .completed(5)])
    let passed = inTime.start {
      ys.asMaybe().timeout(.seconds(30), other: unused.asMaybe(), scheduler: inTime)
        .asObservable()
    }
    #expect(passed.events == [.completed(210)])
    #expect(unused.subscriptions == [])
  }

  @Test("delay shifts a success and an empty completion; a failure is not delayed")
  func delay() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(210)])
    let res = scheduler.start { xs.asSingle().delay(.seconds(20), scheduler: scheduler) }
    // As in RxSwift, the completion that arrived with the element is a second timer action,
    // due at once, which TestScheduler runs one tick later.
    #expect(res.events == [.next(230, 1), .completed(231)])
    #expect(xs.subscriptions == [Subscription(200, 210)])

    let empty = TestScheduler(initialClock: 0)
    let ys = empty.createHotObservable([.completed(220)] as [Recorded<Event<Never>>])
    let completed = empty.start { ys.asCompletable().delay(.seconds(5), scheduler: empty) }
    #expect(completed.events == [.completed(225)])

    let failing = TestScheduler(initialClock: 0)
    let zs = failing.createHotObservable([.error(220, TraitError(1))] as [Recorded<Event<Int>>])
    let failed = failing.start { zs.asMaybe().delay(.seconds(5), scheduler: failing) }
    #expect(failed.events == [.error(220, TraitError(1))])
  }

  @Test("delay: disposal while the success waits drops it")
  func delayDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(210)])
    let res = scheduler.start(disposed: 220) {
      xs.asSingle().delay(.seconds(20), scheduler: scheduler)
    }
    #expect(res.events == [])
  }

  @Test("delaySubscription subscribes to the source after the delay")
  func delaySubscription() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 4), .completed(10)])
    let res = scheduler.start {
      xs.asSingle().delaySubscription(.seconds(30), scheduler: scheduler)
    }
    #expect(res.events == [.next(240, 4), .completed(240)])
    #expect(xs.subscriptions == [Subscription(230, 240)])

    let cancelled = TestScheduler(initialClock: 0)
    let ys = cancelled.createColdObservable([.completed(10)] as [Recorded<Event<Never>>])
    let none = cancelled.start(disposed: 220) {
      ys.asCompletable().delaySubscription(.seconds(30), scheduler: cancelled)
    }
    #expect(none.events == [])
    #expect(ys.subscriptions == [])
  }

  @Test("Single.timer and Maybe.timer succeed with 0 after the due time")
  func timer() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start { Single<Int>.timer(.seconds(30), scheduler: scheduler) }
    #expect(res.events == [.next(230, 0), .completed(230)])

    let maybe = TestScheduler(initialClock: 0)
    let maybeRes = maybe.start { Maybe<UInt8>.timer(.seconds(5), scheduler: maybe) }
    #expect(maybeRes.events == [.next(205, 0), .completed(205)])

    let disposed = TestScheduler(initialClock: 0)
    let none = disposed.start(disposed: 210) {
      Single<Int>.timer(.seconds(30), scheduler: disposed)
    }
    #expect(none.events == [])
  }

  @Test("a timed-out Single releases its closures")
  func timeoutReleasesClosures() {
    final class Owner {}
    weak var weakOwner: Owner?
    let scheduler = TestScheduler(initialClock: 0)
    var errors: [String] = []
    let bag = DisposeBag()
    do {
      let owner = Owner()
      weakOwner = owner
      Single<Int>.never().timeout(.seconds(5), scheduler: scheduler)
        .subscribe(onFailure: { [owner] in
          _ = owner
          errors.append("\($0)")
        })
        .disposed(by: bag)
    }
    #expect(weakOwner != nil)
    scheduler.start()
    #expect(errors == ["Sequence timeout."])
    #expect(weakOwner == nil)
  }
}
