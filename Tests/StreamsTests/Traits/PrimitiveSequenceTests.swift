import Streams
import StreamsTest
import Testing

@Suite("PrimitiveSequence")
struct PrimitiveSequenceTests {
  @Test("primitiveSequence and asObservable expose the underlying sequence")
  func shape() {
    let single = Single.just(1)
    var events: [Event<Int>] = []
    _ = single.primitiveSequence.asObservable().subscribe { events.append($0) }
    #expect(events == [.next(1), .completed])
  }

  @Test("retry: resubscribes until an attempt succeeds")
  func retrySucceeds() {
    let scheduler = TestScheduler(initialClock: 0)
    let attempts = TraitLog()
    let xs = scheduler.createColdObservable([.error(10, TraitError())] as [Recorded<Event<Int>>])
    let ys = scheduler.createColdObservable([.next(10, 1), .completed(10)])
    let res = scheduler.start {
      Single<Int>.deferred {
        attempts.append("attempt")
        return attempts.entries.count < 3 ? xs.asSingle() : ys.asSingle()
      }.retry(3).asObservable()
    }
    #expect(res.events == [.next(230, 1), .completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 210), Subscription(210, 220)])
    #expect(ys.subscriptions == [Subscription(220, 230)])
  }

  @Test("retry: forwards the last error after maxAttemptCount attempts")
  func retryExhausted() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.error(10, TraitError(1))] as [Recorded<Event<Int>>])
    let res = scheduler.start { xs.asSingle().retry(2).asObservable() }
    #expect(res.events == [.error(220, TraitError(1))])
    #expect(xs.subscriptions == [Subscription(200, 210), Subscription(210, 220)])
  }

  @Test("retry: disposal disposes the running attempt")
  func retryDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.error(30, TraitError(1))] as [Recorded<Event<Int>>])
    let res = scheduler.start(disposed: 245) { xs.asSingle().retry(5).asObservable() }
    #expect(res.events == [])
    #expect(xs.subscriptions == [Subscription(200, 230), Subscription(230, 245)])
  }

  @Test("retry: synchronous failures do not grow the stack")
  func retrySynchronous() {
    var attempts = 0
    var failure: String?
    _ = Single<Int>.deferred {
      attempts += 1
      return .error(TraitError(attempts))
    }.retry(100_000).subscribe(onFailure: { failure = "\($0)" })
    #expect(attempts == 100_000)
    #expect(failure == "TraitError(code: 100000)")
  }

  @Test("retry(0) completes without subscribing, as in RxSwift")
  func retryZero() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
    let res = scheduler.start { xs.asMaybe().retry(0).asObservable() }
    #expect(res.events == [.completed(200)])
    #expect(xs.subscriptions == [])
  }

  @Test("retry with a negative count stops the program")
  func retryNegative() async {
    await #expect(processExitsWith: .failure) {
      _ = Single.just(1).retry(-1)
    }
  }

  @Test("retry(when:): a trigger element after an error resubscribes")
  func retryWhen() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.error(10, TraitError(1))] as [Recorded<Event<Int>>])
    let res = scheduler.start(disposed: 300) {
      xs.asSingle().retry(when: { (errors: Observable<TraitError>) in
        errors.map { $0.code }
      }).asObservable()
    }
    #expect(res.events == [])
    #expect(xs.subscriptions == (0..<10).map { Subscription(200 + $0 * 10, 210 + $0 * 10) })
  }

  @Test("retry(when:): the trigger's completion completes, its error fails")
  func retryWhenTerminal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.error(10, TraitError(1))] as [Recorded<Event<Int>>])
    let trigger = scheduler.createHotObservable([.next(205, 0), .completed(250)])
    let res = scheduler.start {
      xs.asMaybe().retry(when: { (_: Observable<any Error>) in trigger }).asObservable()
    }
    #expect(res.events == [.completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 210)])
    #expect(trigger.subscriptions == [Subscription(200, 250)])

    let failing = TestScheduler(initialClock: 0)
    let ys = failing.createColdObservable([.error(10, TraitError(1))] as [Recorded<Event<Int>>])
    let failingTrigger = failing.createHotObservable(
      [.error(205, TraitError(2))] as [Recorded<Event<Int>>])
    let failed = failing.start {
      ys.asSingle().retry(when: { (_: Observable<any Error>) in failingTrigger }).asObservable()
    }
    #expect(failed.events == [.error(210, TraitError(2))])
  }

  @Test("retry(when:): an error of another type fails at once")
  func retryWhenOtherError() {
    var failures: [String] = []
    var handlerCalls = 0
    _ = Single<Int>.error(RxError.unknown)
      .retry(when: { (errors: Observable<TraitError>) -> Observable<Int> in
        handlerCalls += 1
        return errors.map { $0.code }
      })
      .subscribe(onFailure: { failures.append("\($0)") })
    #expect(failures == ["Unknown error occurred."])
    #expect(handlerCalls == 1)
  }

  @Test("deprecated retryWhen")
  @available(*, deprecated)
  func retryWhenDeprecated() {
    var attempts = 0
    var value: Int?
    _ = Single<Int>.deferred {
      attempts += 1
      return attempts < 2 ? .error(TraitError()) : .just(attempts)
    }.retryWhen { (errors: Observable<any Error>) in errors }
      .subscribe(onSuccess: { value = $0 })
    #expect(value == 2)
  }
}
