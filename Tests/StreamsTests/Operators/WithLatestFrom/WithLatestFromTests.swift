import Streams
import StreamsTest
import Testing

@Suite("WithLatestFrom")
struct WithLatestFromTests {
  private func sources(_ scheduler: TestScheduler) -> (
    TestableObservable<Int>, TestableObservable<String>
  ) {
    let xs = scheduler.createHotObservable([
      .next(90, 1), .next(180, 2), .next(250, 3), .next(260, 4), .next(310, 5), .next(340, 6),
      .next(410, 7), .next(420, 8), .next(470, 9), .next(550, 10), .completed(590),
    ])
    let ys = scheduler.createHotObservable([
      .next(255, "bar"), .next(330, "foo"), .next(350, "qux"), .completed(400),
    ])
    return (xs, ys)
  }

  @Test("combines each element with the latest of the second sequence")
  func values() {
    let scheduler = TestScheduler(initialClock: 0)
    let (xs, ys) = sources(scheduler)
    let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
    #expect(
      res.events == [
        .next(260, "4bar"), .next(310, "5bar"), .next(340, "6foo"), .next(410, "7qux"),
        .next(420, "8qux"), .next(470, "9qux"), .next(550, "10qux"), .completed(590),
      ])
    #expect(xs.subscriptions == [Subscription(200, 590)])
    #expect(ys.subscriptions == [Subscription(200, 400)])
  }

  @Test("without a selector emits the latest element of the second sequence")
  func latestOnly() {
    let scheduler = TestScheduler(initialClock: 0)
    let (xs, ys) = sources(scheduler)
    let res = scheduler.start(disposed: 415) { xs.withLatestFrom(ys) }
    #expect(
      res.events == [.next(260, "bar"), .next(310, "bar"), .next(340, "foo"), .next(410, "qux")])
    #expect(xs.subscriptions == [Subscription(200, 415)])
    #expect(ys.subscriptions == [Subscription(200, 400)])
  }

  @Test("an error of the second sequence fails")
  func secondError() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(260, 4), .next(310, 5), .completed(590)])
    let ys = scheduler.createHotObservable([
      .next(255, "bar"), .error(290, MultiTestError.second),
    ])
    let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
    #expect(res.events == [.next(260, "4bar"), .error(290, MultiTestError.second)])
    #expect(xs.subscriptions == [Subscription(200, 290)])
    #expect(ys.subscriptions == [Subscription(200, 290)])
  }

  @Test("an error of the first sequence fails")
  func firstError() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(260, 4), .error(300, MultiTestError.first)])
    let ys = scheduler.createHotObservable([.next(255, "bar"), .completed(400)])
    let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
    #expect(res.events == [.next(260, "4bar"), .error(300, MultiTestError.first)])
    #expect(ys.subscriptions == [Subscription(200, 300)])
  }

  @Test("a throwing result selector fails and disposes both sequences")
  func selectorThrows() {
    let scheduler = TestScheduler(initialClock: 0)
    let (xs, ys) = sources(scheduler)
    let res = scheduler.start {
      xs.withLatestFrom(ys) { x, y -> String in
        if x == 5 { throw MultiTestError.selector }
        return "\(x)\(y)"
      }
    }
    #expect(res.events == [.next(260, "4bar"), .error(310, MultiTestError.selector)])
    #expect(xs.subscriptions == [Subscription(200, 310)])
    #expect(ys.subscriptions == [Subscription(200, 310)])
  }

  @Test("disposal mid-stream disposes both sequences")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let (xs, ys) = sources(scheduler)
    let res = scheduler.start(disposed: 320) { xs.withLatestFrom(ys) { "\($0)\($1)" } }
    #expect(res.events == [.next(260, "4bar"), .next(310, "5bar")])
    #expect(xs.subscriptions == [Subscription(200, 320)])
    #expect(ys.subscriptions == [Subscription(200, 320)])
  }

  @Test("the second sequence is subscribed first, so its replayed value is used at once")
  func subscriptionOrder() {
    let latest = BehaviorSubject(value: "a")
    let first = BehaviorSubject(value: 1)
    var received: [String] = []
    let subscription = first.withLatestFrom(latest) { "\($0)\($1)" }
      .subscribe(onNext: { received.append($0) })
    #expect(received == ["1a"])
    subscription.dispose()
  }
}

// MARK: - Releasing outside the lock

extension WithLatestFromTests {
  @Test("an overwritten latest element is released outside the lock (its deinit re-enters)")
  func overwrittenLatestReleasedOutsideLock() {
    let ids = withWatchdog { () -> [Int] in
      let first = PublishSubject<Int>()
      let second = PublishSubject<Reentrant>()
      var ids: [Int] = []
      let subscription = first.withLatestFrom(second) { _, latest in latest.id }
        .subscribe(onNext: { ids.append($0) })
      // The deinit of element 1 emits into the first source of the same withLatestFrom.
      second.onNext(Reentrant(1) { first.onNext(0) })
      second.onNext(Reentrant(2))
      subscription.dispose()
      return ids
    }
    #expect(ids != nil, "withLatestFrom released its overwritten latest element under its lock")
    #expect(ids == [2])
  }

  @Test("disposal releases the latest element outside the lock (its deinit re-enters)")
  func disposalReleasesLatestOutsideLock() {
    let finished = finishesInTime {
      let first = PublishSubject<Int>()
      let second = PublishSubject<Reentrant>()
      let subscription = first.withLatestFrom(second).subscribe(onNext: { _ in })
      second.onNext(Reentrant(1) { first.onNext(0) })
      subscription.dispose()
    }
    #expect(finished, "withLatestFrom released its latest element under its lock on disposal")
  }
}
