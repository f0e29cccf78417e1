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
}
