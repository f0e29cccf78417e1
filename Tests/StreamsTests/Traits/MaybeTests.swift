import Streams
import StreamsTest
import Testing

@Suite("Maybe")
struct MaybeTests {
  @Test("create: success, completion and failure")
  func create() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start {
      Maybe<Int>.create { maybe in
        maybe(.success(1))
        return Disposables.create()
      }.asObservable()
    }
    #expect(res.events == [.next(200, 1), .completed(200)])
    var events: [String] = []
    _ = Maybe<Int>.create { maybe in
      maybe(.completed)
      maybe(.success(2))
      return Disposables.create()
    }.subscribe { events.append("\($0)") }
    _ = Maybe<Int>.create { maybe in
      maybe(.error(TraitError(1)))
      maybe(.completed)
      return Disposables.create()
    }.subscribe { events.append("\($0)") }
    #expect(events == ["completed", "error(StreamsTests.TraitError(code: 1))"])
  }

  @Test("create: disposal disposes the resource; later calls are dropped")
  func createDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let log = TraitLog()
    let res = scheduler.start(disposed: 300) {
      Maybe<Int>.create { maybe in
        scheduler.scheduleAt(400) { maybe(.success(1)) }
        return Disposables.create { log.append("disposed at \(scheduler.clock)") }
      }.asObservable()
    }
    #expect(res.events == [])
    #expect(log.entries == ["disposed at 300"])
  }

  @Test("subscribe(onSuccess:onError:onCompleted:onDisposed:)")
  func subscribeClosures() {
    var log: [String] = []
    _ = Maybe.just(1).subscribe(
      onSuccess: { log.append("success \($0)") }, onError: { log.append("error \($0)") },
      onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
    _ = Maybe<Int>.empty().subscribe(
      onSuccess: { log.append("success \($0)") }, onCompleted: { log.append("completed") },
      onDisposed: { log.append("disposed") })
    _ = Maybe<Int>.error(TraitError(2)).subscribe(
      onError: { log.append("error \($0)") }, onDisposed: { log.append("disposed") })
    let pending = Maybe<Int>.never().subscribe(onDisposed: { log.append("disposed never") })
    pending.dispose()
    pending.dispose()
    #expect(
      log == [
        "success 1", "disposed", "completed", "disposed", "error TraitError(code: 2)", "disposed",
        "disposed never",
      ])
  }

  @Test("subscribe(with:) passes the object")
  func subscribeWith() {
    final class Owner {
      var log: [String] = []
    }
    let owner = Owner()
    _ = Maybe<Int>.empty().subscribe(with: owner, onCompleted: { $0.log.append("completed") })
    _ = Maybe.just(3).subscribe(with: owner, onSuccess: { $0.log.append("success \($1)") })
    #expect(owner.log == ["completed", "success 3"])
  }

  @Test("just, empty, error, never, just(_:scheduler:)")
  func factories() {
    let s1 = TestScheduler(initialClock: 0)
    #expect(s1.start { Maybe.just(1).asObservable() }.events == [.next(200, 1), .completed(200)])
    let s2 = TestScheduler(initialClock: 0)
    #expect(s2.start { Maybe<Int>.empty().asObservable() }.events == [.completed(200)])
    let s3 = TestScheduler(initialClock: 0)
    #expect(s3.start { Maybe<Int>.error(TraitError()).asObservable() }.events == [
      .error(200, TraitError())
    ])
    let s4 = TestScheduler(initialClock: 0)
    #expect(s4.start { Maybe<Int>.never().asObservable() }.events == [])
    let s5 = TestScheduler(initialClock: 0)
    #expect(s5.start { Maybe.just(2, scheduler: s5).asObservable() }.events == [
      .next(201, 2), .completed(201),
    ])
  }
}

@Suite("Maybe operators")
struct MaybeOperatorsTests {
  @Test("map, compactMap, filter")
  func transforms() {
    var log: [String] = []
    _ = Maybe.just(2).map { $0 * 10 }.subscribe(onSuccess: { log.append("map \($0)") })
    _ = Maybe.just("x").compactMap { Int($0) }.subscribe(onCompleted: { log.append("compact") })
    _ = Maybe.just(3).filter { $0 > 5 }.subscribe(onCompleted: { log.append("filtered") })
    _ = Maybe.just(3).map { _ -> Int in throw TraitError(1) }
      .subscribe(onError: { log.append("\($0)") })
    _ = Maybe.just(3).filter { _ in throw TraitError(2) }
      .subscribe(onError: { log.append("\($0)") })
    _ = Maybe.just(3).compactMap { _ -> Int? in throw TraitError(3) }
      .subscribe(onError: { log.append("\($0)") })
    #expect(
      log == [
        "map 20", "compact", "filtered", "TraitError(code: 1)", "TraitError(code: 2)",
        "TraitError(code: 3)",
      ])
  }

  @Test("flatMap: empty source completes without calling the selector")
  func flatMap() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
    let ys = scheduler.createColdObservable([.completed(10)] as [Recorded<Event<Int>>])
    let res = scheduler.start { xs.asMaybe().flatMap { _ in ys.asMaybe() }.asObservable() }
    #expect(res.events == [.completed(230)])
    #expect(ys.subscriptions == [Subscription(220, 230)])

    var calls = 0
    var completed = false
    _ = Maybe<Int>.empty().flatMap { value -> Maybe<Int> in
      calls += 1
      return .just(value)
    }.subscribe(onCompleted: { completed = true })
    #expect(calls == 0)
    #expect(completed)
  }

  @Test("ifEmpty(default:) and ifEmpty(switchTo:)")
  func ifEmpty() {
    var log: [String] = []
    _ = Maybe<Int>.empty().ifEmpty(default: 0).subscribe(onSuccess: { log.append("default \($0)") })
    _ = Maybe.just(1).ifEmpty(default: 0).subscribe(onSuccess: { log.append("value \($0)") })
    _ = Maybe<Int>.empty().ifEmpty(switchTo: Maybe.just(2))
      .subscribe(onSuccess: { log.append("maybe \($0)") })
    _ = Maybe<Int>.empty().ifEmpty(switchTo: Single.just(3))
      .subscribe(onSuccess: { log.append("single \($0)") })
    _ = Maybe<Int>.error(TraitError()).ifEmpty(default: 0)
      .subscribe(onFailure: { log.append("\($0)") })
    #expect(log == ["default 0", "value 1", "maybe 2", "single 3", "TraitError(code: 0)"])

    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<Int>>])
    let ys = scheduler.createColdObservable([.next(5, 4), .completed(5)])
    let res = scheduler.start { xs.asMaybe().ifEmpty(switchTo: ys.asSingle()).asObservable() }
    #expect(res.events == [.next(225, 4), .completed(225)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
    #expect(ys.subscriptions == [Subscription(220, 225)])
  }

  @Test("do: side effects for completion")
  func doCompleted() {
    var log: [String] = []
    _ = Maybe<Int>.empty()
      .do(
        onNext: { log.append("next \($0)") }, onCompleted: { log.append("onCompleted") },
        afterCompleted: { log.append("afterCompleted") }, onDispose: { log.append("dispose") }
      )
      .subscribe(onCompleted: { log.append("completed") })
    _ = Maybe.just(1)
      .do(onNext: { log.append("next \($0)") }, afterNext: { log.append("after \($0)") })
      .subscribe(onSuccess: { log.append("success \($0)") })
    _ = Maybe<Int>.empty().do(onCompleted: { throw TraitError(5) })
      .subscribe(onError: { log.append("\($0)") })
    #expect(
      log == [
        "onCompleted", "completed", "afterCompleted", "dispose", "next 1", "success 1", "after 1",
        "TraitError(code: 5)",
      ])
  }

  @Test("catchAndReturn, catch, asCompletable")
  func catching() {
    var log: [String] = []
    _ = Maybe<Int>.error(TraitError()).catchAndReturn(1)
      .subscribe(onSuccess: { log.append("value \($0)") })
    _ = Maybe<Int>.error(TraitError()).catch { _ in .empty() }
      .subscribe(onCompleted: { log.append("empty") })
    _ = Maybe.just(1).asCompletable().subscribe(onCompleted: { log.append("completed") })
    #expect(log == ["value 1", "empty", "completed"])
  }
}
