import Streams
import StreamsTest
import Testing

@Suite("Single operators")
struct SingleOperatorsTests {
  /// A hot source that succeeds with `value` at 220 (element at 210, completion at 220).
  private func source(_ scheduler: TestScheduler, _ value: Int = 2) -> TestableObservable<Int> {
    scheduler.createHotObservable([.next(150, 1), .next(210, value), .completed(220)])
  }

  @Test("map: value, throw, error, disposal")
  func map() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = source(scheduler)
    let res = scheduler.start { xs.asSingle().map { $0 * 10 }.asObservable() }
    #expect(res.events == [.next(220, 20), .completed(220)])
    #expect(xs.subscriptions == [Subscription(200, 220)])

    let throwing = TestScheduler(initialClock: 0)
    let ys = source(throwing)
    let thrown = throwing.start {
      ys.asSingle().map { _ -> Int in throw TraitError(1) }.asObservable()
    }
    #expect(thrown.events == [.error(220, TraitError(1))])

    let failing = TestScheduler(initialClock: 0)
    let zs = failing.createHotObservable([.error(230, TraitError(2))] as [Recorded<Event<Int>>])
    #expect(
      failing.start { zs.asSingle().map { $0 }.asObservable() }.events == [
        .error(230, TraitError(2))
      ])

    let disposed = TestScheduler(initialClock: 0)
    let ws = source(disposed)
    #expect(disposed.start(disposed: 215) { ws.asSingle().map { $0 }.asObservable() }.events == [])
    #expect(ws.subscriptions == [Subscription(200, 215)])
  }

  @Test("compactMap and filter give a Maybe")
  func compactMapFilter() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = source(scheduler)
    let kept = scheduler.start {
      xs.asSingle().compactMap { $0 > 1 ? "\($0)" : nil }.asObservable()
    }
    #expect(kept.events == [.next(220, "2"), .completed(220)])

    let dropping = TestScheduler(initialClock: 0)
    let ys = source(dropping)
    let dropped = dropping.start { ys.asSingle().filter { $0 > 5 }.asObservable() }
    #expect(dropped.events == [.completed(220)])
    #expect(ys.subscriptions == [Subscription(200, 220)])

    var errors: [String] = []
    _ = Single.just(1).compactMap { _ -> Int? in throw TraitError(3) }
      .subscribe(onError: { errors.append("\($0)") })
    _ = Single.just(1).filter { _ in throw TraitError(4) }
      .subscribe(onError: { errors.append("\($0)") })
    #expect(errors == ["TraitError(code: 3)", "TraitError(code: 4)"])
  }

  @Test("flatMap subscribes to the inner Single after the source succeeds")
  func flatMap() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = source(scheduler)
    let ys = scheduler.createColdObservable([.next(10, 5), .completed(20)])
    let res = scheduler.start {
      xs.asSingle().flatMap { value in ys.asSingle().map { $0 * value } }.asObservable()
    }
    #expect(res.events == [.next(240, 10), .completed(240)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
    #expect(ys.subscriptions == [Subscription(220, 240)])
  }

  @Test("flatMap: selector throw, inner failure, disposal while the inner runs")
  func flatMapFailures() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = source(scheduler)
    let thrown = scheduler.start {
      xs.asSingle().flatMap { _ -> Single<Int> in throw TraitError(5) }.asObservable()
    }
    #expect(thrown.events == [.error(220, TraitError(5))])

    let failing = TestScheduler(initialClock: 0)
    let ys = source(failing)
    let inner = failing.createColdObservable([.error(5, TraitError(6))] as [Recorded<Event<Int>>])
    #expect(
      failing.start { ys.asSingle().flatMap { _ in inner.asSingle() }.asObservable() }.events
        == [.error(225, TraitError(6))])
    #expect(inner.subscriptions == [Subscription(220, 225)])

    let disposing = TestScheduler(initialClock: 0)
    let zs = source(disposing)
    let never = disposing.createColdObservable([] as [Recorded<Event<Int>>])
    let res = disposing.start(disposed: 300) {
      zs.asSingle().flatMap { _ in never.asSingle() }.asObservable()
    }
    #expect(res.events == [])
    #expect(never.subscriptions == [Subscription(220, 300)])
  }

  @Test("flatMapMaybe and flatMapCompletable")
  func flatMapMaybeCompletable() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = source(scheduler)
    let res = scheduler.start {
      xs.asSingle().flatMapMaybe { _ in Maybe<String>.empty() }.asObservable()
    }
    #expect(res.events == [.completed(220)])

    let second = TestScheduler(initialClock: 0)
    let ys = source(second)
    let done = second.createColdObservable([.completed(30)] as [Recorded<Event<Never>>])
    let completed = second.start {
      ys.asSingle().flatMapCompletable { _ in done.asCompletable() }.asObservable()
    }
    #expect(completed.events == [.completed(250)])
    #expect(done.subscriptions == [Subscription(220, 250)])
  }

  @Test("do: order of side effects on success")
  func doOnSuccess() {
    var log: [String] = []
    _ = Single.just(1)
      .do(
        onSuccess: { log.append("onSuccess \($0)") }, afterSuccess: { log.append("after \($0)") },
        onSubscribe: { log.append("onSubscribe") }, onSubscribed: { log.append("onSubscribed") },
        onDispose: { log.append("onDispose") }
      )
      .subscribe(onSuccess: { log.append("success \($0)") })
    #expect(
      log == [
        "onSubscribe", "onSuccess 1", "success 1", "after 1", "onSubscribed", "onDispose",
      ])
  }

  @Test("do: a throw from onSuccess fails the result; onError sees failures")
  func doThrows() {
    var log: [String] = []
    _ = Single.just(1)
      .do(onSuccess: { _ in throw TraitError(7) })
      .subscribe(onSuccess: { log.append("success \($0)") }, onFailure: { log.append("\($0)") })
    _ = Single<Int>.error(TraitError(8))
      .do(onError: { log.append("onError \($0)") }, afterError: { log.append("after \($0)") })
      .subscribe(onFailure: { log.append("failure \($0)") })
    #expect(
      log == [
        "TraitError(code: 7)", "onError TraitError(code: 8)", "failure TraitError(code: 8)",
        "after TraitError(code: 8)",
      ])
  }

  @Test("do: onDispose runs once on disposal")
  func doDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = source(scheduler)
    let log = TraitLog()
    let res = scheduler.start(disposed: 215) {
      xs.asSingle().do(onDispose: { log.append("disposed at \(scheduler.clock)") }).asObservable()
    }
    #expect(res.events == [])
    #expect(log.entries == ["disposed at 215"])
    #expect(xs.subscriptions == [Subscription(200, 215)])
  }

  @Test("catchAndReturn and catch")
  func catching() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.error(230, TraitError())] as [Recorded<Event<Int>>])
    let res = scheduler.start { xs.asSingle().catchAndReturn(9).asObservable() }
    #expect(res.events == [.next(230, 9), .completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 230)])

    let second = TestScheduler(initialClock: 0)
    let ys = second.createHotObservable([.error(230, TraitError(1))] as [Recorded<Event<Int>>])
    let fallback = second.createColdObservable([.next(10, 3), .completed(10)])
    let caught = second.start {
      ys.asSingle().catch { error in
        (error as? TraitError)?.code == 1 ? fallback.asSingle() : .error(error)
      }.asObservable()
    }
    #expect(caught.events == [.next(240, 3), .completed(240)])
    #expect(fallback.subscriptions == [Subscription(230, 240)])

    var errors: [String] = []
    _ = Single<Int>.error(TraitError(1)).catch { _ in throw TraitError(2) }
      .subscribe(onFailure: { errors.append("\($0)") })
    #expect(errors == ["TraitError(code: 2)"])
  }

  @Test("deprecated catchError and catchErrorJustReturn")
  @available(*, deprecated)
  func deprecatedCatch() {
    var values: [Int] = []
    _ = Single<Int>.error(TraitError()).catchErrorJustReturn(1)
      .subscribe(onSuccess: { values.append($0) })
    _ = Single<Int>.error(TraitError()).catchError { _ in .just(2) }
      .subscribe(onSuccess: { values.append($0) })
    #expect(values == [1, 2])
  }

  @Test("asMaybe and asCompletable")
  func conversions() {
    var log: [String] = []
    _ = Single.just(1).asMaybe().subscribe(onSuccess: { log.append("maybe \($0)") })
    _ = Single.just(1).asCompletable().subscribe(onCompleted: { log.append("completed") })
    _ = Single<Int>.error(TraitError()).asCompletable().subscribe(onError: { log.append("\($0)") })
    #expect(log == ["maybe 1", "completed", "TraitError(code: 0)"])
  }
}
