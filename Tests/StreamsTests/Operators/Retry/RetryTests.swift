import Dispatch
import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {
  var id = 0
}

private struct OtherError: Error, Equatable {}

/// A counter shared with disposables and sources; the tests that use it run on one thread.
private final class Counter: @unchecked Sendable {
  var value = 0
}

/// A source that fails synchronously `failures` times, then emits `1` and completes; it counts
/// the disposals of its subscriptions.
private func flakySource(failures: Int, disposals: Counter) -> Observable<Int> {
  var attempts = 0
  return Observable.create { observer in
    attempts += 1
    if attempts <= failures {
      observer.onError(TestError(id: attempts))
    } else {
      observer.onNext(1)
      observer.onCompleted()
    }
    return Disposables.create(with: { disposals.value += 1 })
  }
}

@Suite("retry")
struct RetryTests {
  @Test("retry() resubscribes after every error")
  func retryForever() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([
      .next(100, 1), .next(150, 2), .next(200, 3), .error(250, TestError()),
    ])
    let res = scheduler.start(disposed: 1100) { xs.retry() }
    #expect(
      res.events == [
        .next(300, 1), .next(350, 2), .next(400, 3), .next(550, 1), .next(600, 2), .next(650, 3),
        .next(800, 1), .next(850, 2), .next(900, 3), .next(1050, 1),
      ])
    #expect(
      xs.subscriptions == [
        Subscription(200, 450), Subscription(450, 700), Subscription(700, 950),
        Subscription(950, 1100),
      ])
  }

  @Test("retry() completes when the source completes")
  func retryCompletes() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([
      .next(100, 1), .next(150, 2), .next(200, 3), .completed(250),
    ])
    let res = scheduler.start { xs.retry() }
    #expect(res.events == [.next(300, 1), .next(350, 2), .next(400, 3), .completed(450)])
    #expect(xs.subscriptions == [Subscription(200, 450)])
  }

  @Test("retry(n) makes n attempts in all, then fails with the last error")
  func retryCount() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([
      .next(5, 1), .next(10, 2), .next(15, 3), .error(20, TestError()),
    ])
    let res = scheduler.start { xs.retry(3) }
    #expect(
      res.events == [
        .next(205, 1), .next(210, 2), .next(215, 3), .next(225, 1), .next(230, 2), .next(235, 3),
        .next(245, 1), .next(250, 2), .next(255, 3), .error(260, TestError()),
      ])
    #expect(
      xs.subscriptions == [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
  }

  @Test("retry(1) behaves like the source; retry(0) completes without subscribing")
  func retryOneAndZero() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(5, 1), .error(20, TestError())])
    let res = scheduler.start { xs.retry(1) }
    #expect(res.events == [.next(205, 1), .error(220, TestError())])
    #expect(xs.subscriptions == [Subscription(200, 220)])

    let scheduler2 = TestScheduler(initialClock: 0)
    let ys = scheduler2.createColdObservable([.next(5, 1), .error(20, TestError())])
    let res2 = scheduler2.start { ys.retry(0) }
    #expect(res2.events == [.completed(200)])
    #expect(ys.subscriptions == [])
  }

  @Test("retry(n) stops retrying once the source completes")
  func retryCountCompletes() {
    let disposals = Counter()
    var events: [Event<Int>] = []
    _ = flakySource(failures: 2, disposals: disposals).retry(5).subscribe { events.append($0) }
    #expect(events == [.next(1), .completed])
    #expect(disposals.value == 3)
  }

  @Test("retry: disposal mid-stream disposes the current attempt")
  func retryDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(5, 1), .error(20, TestError())])
    let res = scheduler.start(disposed: 230) { xs.retry() }
    #expect(res.events == [.next(205, 1), .next(225, 1)])
    #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 230)])
  }

  @Test("retry() and retry(n) loop over synchronous failures instead of recursing")
  func retrySynchronousFailures() {
    let failures = 20_000
    let disposals = Counter()
    var events: [Event<Int>] = []
    _ = flakySource(failures: failures, disposals: disposals).retry()
      .subscribe { events.append($0) }
    #expect(events == [.next(1), .completed])
    #expect(disposals.value == failures + 1)

    let disposals2 = Counter()
    var events2: [Event<Int>] = []
    _ = flakySource(failures: failures, disposals: disposals2).retry(failures)
      .subscribe { events2.append($0) }
    #expect(events2 == [.error(TestError(id: failures))])
    #expect(disposals2.value == failures)
  }
}

@Suite("retry(when:)")
struct RetryWhenTests {
  @Test("a source that completes is passed through; the trigger's completion waits for a failure")
  func sourceCompletes() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
    let trigger = scheduler.createHotObservable([.next(150, 1), .completed(210)])
    let res = scheduler.start(disposed: 300) {
      xs.retry(when: { (_: Observable<TestError>) in trigger })
    }
    #expect(res.events == [.completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(trigger.subscriptions == [Subscription(200, 210)])
  }

  @Test("a trigger that never emits leaves the sequence waiting after a failure")
  func triggerNever() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(220, 3), .error(250, TestError()),
    ])
    let never = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)])
    let res = scheduler.start { xs.retry(when: { (_: Observable<TestError>) in never }) }
    #expect(res.events == [.next(210, 2), .next(220, 3)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(never.subscriptions == [Subscription(200, 1000)])
  }

  @Test("each trigger element after a failure resubscribes; a trigger error fails")
  func triggerNextThenError() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([
      .next(10, 1), .next(20, 2), .error(30, TestError(id: 1)), .completed(40),
    ])
    let res = scheduler.start(disposed: 300) {
      xs.retry(when: { (errors: Observable<TestError>) in
        errors.scan(0) { count, _ in
          if count == 1 { throw TestError(id: 9) }
          return count + 1
        }
      })
    }
    #expect(
      res.events == [
        .next(210, 1), .next(220, 2), .next(240, 1), .next(250, 2), .error(260, TestError(id: 9)),
      ])
    #expect(xs.subscriptions == [Subscription(200, 230), Subscription(230, 260)])
  }

  @Test("a trigger that completed before a failure completes the sequence at that failure")
  func triggerCompletedEarlier() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([
      .next(10, 1), .next(20, 2), .error(30, TestError()), .completed(40),
    ])
    let trigger = scheduler.createHotObservable([Recorded<Event<Int>>.completed(225)])
    let res = scheduler.start { xs.retry(when: { (_: Observable<TestError>) in trigger }) }
    #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("a trigger that completes while a failure waits completes the sequence at once")
  func triggerCompletesWhileWaiting() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([
      .next(10, 1), .next(20, 2), .error(30, TestError(id: 1)), .completed(40),
    ])
    let res = scheduler.start(disposed: 300) {
      xs.retry(when: { (errors: Observable<TestError>) in
        errors.enumerated()
          .map { $0.index < 1 ? Event<Void>.next(()) : Event<Void>.completed }
          .dematerialize()
      })
    }
    #expect(
      res.events == [.next(210, 1), .next(220, 2), .next(240, 1), .next(250, 2), .completed(260)])
    #expect(xs.subscriptions == [Subscription(200, 230), Subscription(230, 260)])
  }

  @Test("a trigger that fails while a failure waits fails the sequence at once")
  func triggerFailsWhileWaiting() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(id: 1))])
    let trigger = scheduler.createHotObservable([
      Recorded<Event<Int>>.error(240, TestError(id: 2))
    ])
    let res = scheduler.start { xs.retry(when: { (_: Observable<TestError>) in trigger }) }
    #expect(res.events == [.next(210, 1), .error(240, TestError(id: 2))])
    #expect(xs.subscriptions == [Subscription(200, 220)])
    #expect(trigger.subscriptions == [Subscription(200, 240)])
  }

  @Test("trigger elements while no failure waits are ignored")
  func triggerElementsWithoutFailure() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError())])
    let trigger = scheduler.createHotObservable([.next(205, 0), .next(250, 1)])
    let res = scheduler.start(disposed: 300) {
      xs.retry(when: { (_: Observable<TestError>) in trigger })
    }
    #expect(res.events == [.next(210, 1), .next(260, 1)])
    #expect(xs.subscriptions == [Subscription(200, 220), Subscription(250, 270)])
    #expect(trigger.subscriptions == [Subscription(200, 300)])
  }

  @Test("an incremental back-off built on the scheduler")
  func incrementalBackOff() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(5, 1), .error(10, TestError())])
    let maxAttempts = 4
    let res = scheduler.start(disposed: 800) {
      xs.retry(when: { (errors: Observable<any Error>) in
        Observable<Int>.create { observer in
          errors.enumerated().subscribe(onNext: { attempt, error in
            if attempt >= maxAttempts - 1 {
              observer.onError(error)
            } else {
              _ = scheduler.scheduleRelative((), dueTime: .seconds((attempt + 1) * 50)) { _ in
                observer.onNext(attempt)
                return Disposables.create()
              }
            }
          })
        }
      })
    }
    #expect(
      res.events == [
        .next(205, 1), .next(265, 1), .next(375, 1), .next(535, 1), .error(540, TestError()),
      ])
    #expect(
      xs.subscriptions == [
        Subscription(200, 210), Subscription(260, 270), Subscription(370, 380),
        Subscription(530, 540),
      ])
  }

  @Test("an error that is not of the handler's error type fails at once")
  func otherErrorType() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(5, 1), .error(10, TestError())])
    let res = scheduler.start(disposed: 800) {
      xs.retry(when: { (errors: Observable<OtherError>) in errors })
    }
    #expect(res.events == [.next(205, 1), .error(210, TestError())])
    #expect(xs.subscriptions == [Subscription(200, 210)])
  }

  @Test("disposal mid-stream disposes the current attempt and the trigger")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError())])
    let trigger = scheduler.createHotObservable([.next(230, 0), .next(400, 1)])
    let res = scheduler.start(disposed: 245) {
      xs.retry(when: { (_: Observable<TestError>) in trigger })
    }
    #expect(res.events == [.next(210, 1), .next(240, 1)])
    #expect(xs.subscriptions == [Subscription(200, 220), Subscription(230, 245)])
    #expect(trigger.subscriptions == [Subscription(200, 245)])
  }

  @Test("errors.take(1) retries once, whether the failure is synchronous or not")
  func takeOneTrigger() {
    // A documented difference: RxSwift never retries a synchronous failure with this trigger.
    var attempts = 0
    var events: [Event<Int>] = []
    _ = Observable<Int>.create { observer in
      attempts += 1
      observer.onError(TestError(id: attempts))
      return Disposables.create()
    }
    .retry(when: { errors in errors.take(1) })
    .subscribe { events.append($0) }
    #expect(attempts == 2)
    #expect(events == [.completed])

    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError())])
    let res = scheduler.start { xs.retry(when: { errors in errors.take(1) }) }
    #expect(res.events == [.next(210, 1), .next(230, 1), .completed(240)])
    #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 240)])
  }

  @Test("retry(n): the failed attempt's onDispose runs before the next attempt's onSubscribe")
  func retryDisposesBeforeResubscribing() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError())])
    var log: [String] = []
    let res = scheduler.start {
      xs.do(
        afterError: { _ in log.append("afterError") }, onSubscribe: { log.append("show") },
        onDispose: { log.append("hide") }
      ).retry(2)
    }
    #expect(res.events == [.next(210, 1), .next(230, 1), .error(240, TestError())])
    // As in RxSwift; when the last attempt fails, `afterError` still runs before `onDispose`.
    #expect(log == ["show", "hide", "show", "afterError", "afterError", "hide"])
  }

  @Test("retry(when:): the failed attempt's onDispose runs before the next attempt's onSubscribe")
  func retryWhenDisposesBeforeResubscribing() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError())])
    var log: [String] = []
    _ = scheduler.start(disposed: 235) {
      xs.do(onSubscribe: { log.append("show") }, onDispose: { log.append("hide") })
        .retry(when: { errors in errors })
    }
    #expect(log == ["show", "hide", "show", "hide"])
  }

  @Test("synchronous failures retried by a synchronous trigger do not recurse")
  func synchronousFailures() {
    let failures = 20_000
    let disposals = Counter()
    var events: [Event<Int>] = []
    _ = flakySource(failures: failures, disposals: disposals)
      .retry(when: { errors in errors })
      .subscribe { events.append($0) }
    #expect(events == [.next(1), .completed])
    #expect(disposals.value == failures + 1)
  }
}
