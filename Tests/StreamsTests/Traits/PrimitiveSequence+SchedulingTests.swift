import Streams
import StreamsTest
import Testing

@Suite("PrimitiveSequence observe(on:) and subscribe(on:)")
struct PrimitiveSequenceSchedulingTests {
  @Test("observe(on:) delivers a Single's success on the scheduler, one action per event")
  func observeOnSingle() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(210)])
    let res = scheduler.start { xs.asSingle().observe(on: scheduler).asObservable() }
    #expect(res.events == [.next(211, 1), .completed(212)])
    #expect(xs.subscriptions == [Subscription(200, 210)])
  }

  @Test("observe(on:) moves a Maybe's empty completion and a Completable's failure")
  func observeOnMaybeCompletable() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.completed(230)] as [Recorded<Event<Int>>])
    let res = scheduler.start { xs.asMaybe().observe(on: scheduler).asObservable() }
    #expect(res.events == [.completed(231)])

    let failing = TestScheduler(initialClock: 0)
    let ys = failing.createHotObservable([.error(240, TraitError(1))] as [Recorded<Event<Never>>])
    let failed = failing.start { ys.asCompletable().observe(on: failing).asObservable() }
    #expect(failed.events == [.error(241, TraitError(1))])
    #expect(ys.subscriptions == [Subscription(200, 240)])
  }

  @Test("observe(on:): disposal before the scheduled delivery drops the event")
  func observeOnDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(210)])
    let res = scheduler.start(disposed: 211) {
      xs.asSingle().observe(on: scheduler).asObservable()
    }
    #expect(res.events == [])
  }

  @Test("subscribe(on:) subscribes to the source on the scheduler")
  func subscribeOn() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 7), .completed(10)])
    let res = scheduler.start { xs.asSingle().subscribe(on: scheduler).asObservable() }
    #expect(res.events == [.next(211, 7), .completed(211)])
    #expect(xs.subscriptions == [Subscription(201, 211)])

    let failing = TestScheduler(initialClock: 0)
    let ys = failing.createColdObservable([.error(20, TraitError(2))] as [Recorded<Event<Never>>])
    let failed = failing.start { ys.asCompletable().subscribe(on: failing).asObservable() }
    #expect(failed.events == [.error(221, TraitError(2))])
  }

  @Test("subscribe(on:): disposal before the scheduled subscription cancels it")
  func subscribeOnCancelled() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 7), .completed(10)])
    let res = scheduler.start(created: 100, subscribed: 200, disposed: 200) {
      xs.asMaybe().subscribe(on: scheduler).asObservable()
    }
    #expect(res.events == [])
    #expect(xs.subscriptions == [])
  }

  @Test("the closures of a scheduled Single are released when it succeeds")
  func releasesClosures() {
    final class Owner {}
    weak var weakOwner: Owner?
    let scheduler = TestScheduler(initialClock: 0)
    var received: [Int] = []
    let bag = DisposeBag()
    do {
      let owner = Owner()
      weakOwner = owner
      Single.just(5).subscribe(on: scheduler).observe(on: scheduler)
        .subscribe(onSuccess: { [owner] in
          _ = owner
          received.append($0)
        })
        .disposed(by: bag)
    }
    #expect(weakOwner != nil)
    scheduler.start()
    #expect(received == [5])
    #expect(weakOwner == nil)
  }
}
