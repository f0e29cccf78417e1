import Streams
import StreamsTest
import Testing

private struct Failure: Error, Equatable {}

@Suite("skip")
struct SkipTests {
  @Test("drops the first elements")
  func count() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(300),
    ])
    let res = scheduler.start { xs.skip(2) }
    #expect(res.events == [.next(230, 4), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("skip(0) passes everything")
  func zero() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .completed(300)])
    let res = scheduler.start { xs.skip(0) }
    #expect(res.events == [.next(210, 2), .completed(300)])
  }

  @Test("forwards an error, even while skipping")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .error(250, Failure())])
    let res = scheduler.start { xs.skip(5) }
    #expect(res.events == [.error(250, Failure())])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("disposal mid-stream disposes the source")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .next(260, 4)])
    let res = scheduler.start(disposed: 250) { xs.skip(1) }
    #expect(res.events == [.next(220, 3)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("a negative count traps")
  func negative() async {
    await #expect(processExitsWith: .failure) {
      _ = Observable.of(1).skip(-1)
    }
  }
}

@Suite("skip(while:)")
struct SkipWhileTests {
  @Test("drops elements while the predicate holds, then passes everything")
  func values() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 5), .next(240, 1), .completed(300),
    ])
    let calls = Locked(0)
    let res = scheduler.start {
      xs.skip(while: { value in
        calls.withLock { $0 += 1 }
        return value < 3
      })
    }
    #expect(res.events == [.next(230, 5), .next(240, 1), .completed(300)])
    #expect(calls.withLock { $0 } == 3)
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("forwards an error")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .error(250, Failure())])
    let res = scheduler.start { xs.skip(while: { $0 < 3 }) }
    #expect(res.events == [.error(250, Failure())])
  }

  @Test("a throwing predicate becomes an error and disposes the source")
  func throwing() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
    let res = scheduler.start {
      xs.skip(while: { value in
        if value == 2 { throw Failure() }
        return true
      })
    }
    #expect(res.events == [.error(220, Failure())])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("disposal mid-stream disposes the source")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 5), .next(260, 6)])
    let res = scheduler.start(disposed: 250) { xs.skip(while: { $0 < 3 }) }
    #expect(res.events == [.next(210, 5)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }
}

@Suite("skip(until:)")
struct SkipUntilTests {
  @Test("passes elements after the other sequence emits")
  func otherEmits() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250),
    ])
    let ys = scheduler.createHotObservable([.next(150, 1), .next(225, 99), .completed(230)])
    let res = scheduler.start { xs.skip(until: ys) }
    #expect(res.events == [.next(230, 4), .next(240, 5), .completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(ys.subscriptions == [Subscription(200, 225)])
  }

  @Test("fails when the other sequence fails")
  func otherFails() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .next(230, 4), .completed(250)])
    let ys = scheduler.createHotObservable([Recorded<Event<Int>>.error(225, Failure())])
    let res = scheduler.start { xs.skip(until: ys) }
    #expect(res.events == [.error(225, Failure())])
    #expect(xs.subscriptions == [Subscription(200, 225)])
    #expect(ys.subscriptions == [Subscription(200, 225)])
  }

  @Test("fails when the source fails")
  func sourceFails() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .error(220, Failure())])
    let ys = scheduler.createHotObservable([.next(230, 2), .completed(250)])
    let res = scheduler.start { xs.skip(until: ys) }
    #expect(res.events == [.error(220, Failure())])
    #expect(xs.subscriptions == [Subscription(200, 220)])
    #expect(ys.subscriptions == [Subscription(200, 220)])
  }

  @Test("the source completing before the other emits ends silently, as in RxSwift")
  func sourceCompletesFirst() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .completed(250)])
    let ys = scheduler.createHotObservable([Recorded<Event<Int>>.next(300, 1)])
    let res = scheduler.start { xs.skip(until: ys) }
    #expect(res.events.isEmpty)
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(ys.subscriptions == [Subscription(200, 250)])
  }

  @Test("the other sequence completing without elements: nothing ever passes")
  func otherCompletes() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(230, 4), .completed(250)])
    let ys = scheduler.createHotObservable([Recorded<Event<Int>>.completed(225)])
    let res = scheduler.start { xs.skip(until: ys) }
    #expect(res.events.isEmpty)
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(ys.subscriptions == [Subscription(200, 225)])
  }

  @Test("disposal disposes both sequences")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 3), .next(300, 4)])
    let ys = scheduler.createHotObservable([.next(220, 1)])
    let res = scheduler.start(disposed: 250) { xs.skip(until: ys) }
    #expect(res.events == [.next(240, 3)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(ys.subscriptions == [Subscription(200, 220)])
  }
}

@Suite("skip(_:scheduler:)")
struct SkipDurationTests {
  static func source(_ scheduler: TestScheduler) -> TestableObservable<Int> {
    scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
  }

  @Test("a zero duration passes everything")
  func zero() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Self.source(scheduler)
    let res = scheduler.start { xs.skip(.seconds(0), scheduler: scheduler) }
    #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("drops the elements emitted during the duration")
  func some() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Self.source(scheduler)
    let res = scheduler.start { xs.skip(.seconds(15), scheduler: scheduler) }
    #expect(res.events == [.next(220, 2), .completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("a hot element due when the duration ends is dropped, as in RxSwift")
  func boundary() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Self.source(scheduler)
    let res = scheduler.start { xs.skip(.seconds(10), scheduler: scheduler) }
    #expect(res.events == [.next(220, 2), .completed(230)])
  }

  @Test("completion and errors pass during the duration")
  func terminalDuringDuration() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Self.source(scheduler)
    let res = scheduler.start { xs.skip(.seconds(50), scheduler: scheduler) }
    #expect(res.events == [.completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
    let failing = TestScheduler(initialClock: 0)
    let ys = failing.createHotObservable([.next(210, 1), .error(220, Failure())])
    let failed = failing.start { ys.skip(.seconds(50), scheduler: failing) }
    #expect(failed.events == [.error(220, Failure())])
    #expect(ys.subscriptions == [Subscription(200, 220)])
  }

  @Test("disposal mid-stream disposes the source and cancels the timer")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(260, 3)])
    let res = scheduler.start(disposed: 250) { xs.skip(.seconds(15), scheduler: scheduler) }
    #expect(res.events == [.next(220, 2)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("an ended subscription releases the observer")
  func lifetime() {
    final class Token { var count = 0 }
    for completes in [false, true] {
      let scheduler = TestScheduler(initialClock: 0)
      let subject = PublishSubject<Int>()
      weak var weakToken: Token?
      var kept: (any Disposable)?
      do {
        let token = Token()
        weakToken = token
        kept = subject.skip(.seconds(5), scheduler: scheduler)
          .subscribe(onNext: { _ in token.count += 1 })
        scheduler.advanceTo(10)
        subject.onNext(1)
        #expect(token.count == 1)
      }
      if completes { subject.onCompleted() } else { kept?.dispose() }
      #expect(weakToken == nil)
      #expect(!subject.hasObservers)
      withExtendedLifetime(kept) {}
    }
  }
}
