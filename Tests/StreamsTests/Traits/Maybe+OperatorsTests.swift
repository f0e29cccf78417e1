import Streams
import StreamsTest
import Testing

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
