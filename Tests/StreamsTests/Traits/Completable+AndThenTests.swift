import Streams
import StreamsTest
import Testing

@Suite("Completable andThen")
struct CompletableAndThenTests {
  @Test("andThen(Single) subscribes after completion")
  func andThenSingle() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<Never>>])
    let ys = scheduler.createColdObservable([.next(10, 1), .completed(10)])
    let res = scheduler.start { xs.asCompletable().andThen(ys.asSingle()).asObservable() }
    #expect(res.events == [.next(230, 1), .completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
    #expect(ys.subscriptions == [Subscription(220, 230)])
  }

  @Test("andThen(Maybe), andThen(Completable), andThen(Observable), concat")
  func andThenOthers() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<Never>>])
    let ys = scheduler.createColdObservable([.next(5, 1), .next(10, 2), .completed(15)])
    let res = scheduler.start { xs.asCompletable().andThen(ys.asObservable()) }
    #expect(res.events == [.next(225, 1), .next(230, 2), .completed(235)])
    #expect(ys.subscriptions == [Subscription(220, 235)])

    var log: [String] = []
    _ = Completable.empty().andThen(Maybe<Int>.empty())
      .subscribe(onCompleted: { log.append("maybe empty") })
    _ = Completable.empty().andThen(Completable.empty())
      .subscribe(onCompleted: { log.append("completable") })
    _ = Completable.empty().concat(Completable.error(TraitError()))
      .subscribe(onError: { log.append("concat \($0)") })
    #expect(log == ["maybe empty", "completable", "concat TraitError(code: 0)"])
  }

  @Test("a failure skips the second sequence")
  func failure() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.error(220, TraitError())] as [Recorded<Event<Never>>])
    let ys = scheduler.createColdObservable([.next(10, 1), .completed(10)])
    let res = scheduler.start { xs.asCompletable().andThen(ys.asSingle()).asObservable() }
    #expect(res.events == [.error(220, TraitError())])
    #expect(ys.subscriptions == [])
  }

  @Test("disposal while the second sequence runs")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<Never>>])
    let ys = scheduler.createColdObservable([.next(100, 1), .completed(100)])
    let res = scheduler.start(disposed: 250) {
      xs.asCompletable().andThen(ys.asSingle()).asObservable()
    }
    #expect(res.events == [])
    #expect(ys.subscriptions == [Subscription(220, 250)])
  }

  @Test("as in RxSwift (its #2604), the first Completable is released when it completes")
  func releasesFirstOnCompletion() {
    let trigger = PublishSubject<Never>()
    let second = PublishSubject<Int>()
    weak var weakCaptured: AndThenCaptured?
    var subscription: (any Disposable)?
    do {
      let captured = AndThenCaptured()
      weakCaptured = captured
      let first = trigger.do(onCompleted: { withExtendedLifetime(captured) {} }).asCompletable()
      subscription = first.andThen(second.asObservable()).subscribe()
    }
    #expect(weakCaptured != nil)
    trigger.onCompleted()
    #expect(weakCaptured == nil)
    #expect(second.hasObservers)
    subscription?.dispose()
    #expect(!second.hasObservers)
  }

  @Test("the first Completable is released when it fails, before the subscription is disposed")
  func releasesFirstOnFailure() {
    let trigger = PublishSubject<Never>()
    weak var weakCaptured: AndThenCaptured?
    var failures = 0
    var subscription: (any Disposable)?
    do {
      let captured = AndThenCaptured()
      weakCaptured = captured
      let first = trigger.do(onError: { _ in withExtendedLifetime(captured) {} }).asCompletable()
      subscription = first.andThen(Single.just(1)).subscribe(onFailure: { _ in failures += 1 })
    }
    #expect(weakCaptured != nil)
    trigger.onError(TraitError())
    #expect(failures == 1)
    #expect(weakCaptured == nil)
    subscription?.dispose()
  }
}

/// An object the first `Completable` of `andThen` captures.
private final class AndThenCaptured {}
