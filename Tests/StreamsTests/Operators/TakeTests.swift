import Dispatch
import Streams
import StreamsTest
import Testing

private struct Failure: Error, Equatable {}

@Suite("take")
struct TakeTests {
  @Test("takes the first elements and completes at the last one")
  func count() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(300),
    ])
    let res = scheduler.start { xs.take(2) }
    #expect(res.events == [.next(210, 2), .next(220, 3), .completed(220)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("completes when the source completes first")
  func sourceCompletes() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .completed(250)])
    let res = scheduler.start { xs.take(5) }
    #expect(res.events == [.next(210, 2), .completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("forwards an error")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .error(250, Failure())])
    let res = scheduler.start { xs.take(5) }
    #expect(res.events == [.next(210, 2), .error(250, Failure())])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("disposal mid-stream disposes the source")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .next(260, 3), .completed(300)])
    let res = scheduler.start(disposed: 250) { xs.take(5) }
    #expect(res.events == [.next(210, 2)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("take(0) completes at once without subscribing")
  func zero() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .completed(300)])
    let res = scheduler.start { xs.take(0) }
    #expect(res.events == [.completed(200)])
    #expect(xs.subscriptions.isEmpty)
  }

  @Test("an element delivered reentrantly is still counted")
  func reentrant() {
    let subject = PublishSubject<Int>()
    let values = Locked<[Int]>([])
    let completions = Locked(0)
    _ = subject.take(2).subscribe(
      onNext: { value in
        values.withLock { $0.append(value) }
        if value == 1 { subject.onNext(2) }
      }, onCompleted: { completions.withLock { $0 += 1 } })
    subject.onNext(1)
    subject.onNext(3)
    #expect(values.withLock { $0 } == [1, 2])
    #expect(completions.withLock { $0 } == 1)
  }

  @Test("a negative count traps")
  func negative() async {
    await #expect(processExitsWith: .failure) {
      _ = Observable.of(1).take(-1)
    }
  }

  /// A `create` source does not queue an element sent from inside its observer: take(1) must
  /// still forward one element and complete once.
  @Test("an element sent re-entrantly by a create source after the last one is dropped")
  func reentrantCreate() {
    let sent = Locked<AnyObserver<Int>?>(nil)
    let source = Observable<Int>.create { observer in
      sent.withLock { $0 = observer }
      return Disposables.create()
    }
    var events: [String] = []
    _ = source.take(1).subscribe(
      onNext: { value in
        events.append("next(\(value))")
        if value == 1 { sent.withLock { $0 }?.onNext(2) }
      }, onCompleted: { events.append("completed") })
    sent.withLock { $0 }?.onNext(1)
    #expect(events == ["next(1)", "completed"])
  }

  /// Over a subject the stage hands the subject's subscription on as the caller's disposable:
  /// disposing that during the last element must still stop the completion.
  @Test(
    "disposed during its last element, over a subject or a source with a sink: no completion",
    arguments: [false, true])
  func disposedDuringLast(overSubject: Bool) {
    let subject = PublishSubject<Int>()
    let source = overSubject ? subject.asObservable() : subject.throughCreate()
    var events: [String] = []
    var subscription: (any Disposable)?
    subscription = source.take(2).subscribe(
      onNext: { value in
        events.append("next(\(value))")
        if value == 2 { subscription?.dispose() }
      }, onCompleted: { events.append("completed") })
    subject.onNext(1)
    subject.onNext(2)
    subject.onNext(3)
    #expect(events == ["next(1)", "next(2)"])
    #expect(!subject.hasObservers)
  }
}

extension Observable<Int> {
  /// The elements unchanged, through an operator with a sink of its own (not a stage).
  fileprivate func throughCreate() -> Observable<Int> {
    Observable.create { observer in self.subscribe(observer) }
  }
}

@Suite("take(while:) and take(until: predicate)")
struct TakeWhileTests {
  @Test("exclusive: completes at the first element failing the predicate, without it")
  func whileExclusive() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 5), .next(240, 1), .completed(300),
    ])
    let res = scheduler.start { xs.take(while: { $0 < 3 }) }
    #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("inclusive: emits the element that fails the predicate")
  func whileInclusive() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(230, 5), .next(240, 1), .completed(300),
    ])
    let res = scheduler.start { xs.take(while: { $0 < 3 }, behavior: .inclusive) }
    #expect(res.events == [.next(210, 1), .next(230, 5), .completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("until predicate: exclusive and inclusive")
  func untilPredicate() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .completed(300),
    ])
    let res = scheduler.start { xs.take(until: { $0 == 2 }) }
    #expect(res.events == [.next(210, 1), .completed(220)])

    let scheduler2 = TestScheduler(initialClock: 0)
    let ys = scheduler2.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .completed(300),
    ])
    let res2 = scheduler2.start { ys.take(until: { $0 == 2 }, behavior: .inclusive) }
    #expect(res2.events == [.next(210, 1), .next(220, 2), .completed(220)])
    #expect(ys.subscriptions == [Subscription(200, 220)])
  }

  @Test("completes and fails with the source")
  func sourceTerminal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
    let res = scheduler.start { xs.take(while: { _ in true }) }
    #expect(res.events == [.next(210, 1), .completed(250)])

    let scheduler2 = TestScheduler(initialClock: 0)
    let ys = scheduler2.createHotObservable([.next(210, 1), .error(250, Failure())])
    let res2 = scheduler2.start { ys.take(while: { _ in true }) }
    #expect(res2.events == [.next(210, 1), .error(250, Failure())])
  }

  @Test("a throwing predicate becomes an error and disposes the source")
  func throwing() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
    let res = scheduler.start {
      xs.take(while: { value in
        if value == 2 { throw Failure() }
        return true
      })
    }
    #expect(res.events == [.next(210, 1), .error(220, Failure())])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("disposal mid-stream disposes the source")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
    let res = scheduler.start(disposed: 250) { xs.take(while: { _ in true }) }
    #expect(res.events == [.next(210, 1)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("a predicate that disposes the subscription and stops it: no completion")
  func predicateDisposes() {
    let subject = PublishSubject<Int>()
    var events: [String] = []
    var subscription: (any Disposable)?
    subscription = subject.take(while: { value in
      if value == 2 { subscription?.dispose() }
      return value < 2
    }).subscribe(
      onNext: { events.append("next(\($0))") }, onCompleted: { events.append("completed") })
    subject.onNext(1)
    subject.onNext(2)
    #expect(events == ["next(1)"])
    #expect(!subject.hasObservers)
  }
}

@Suite("take(until: other)")
struct TakeUntilTests {
  @Test("completes when the other sequence emits")
  func otherEmits() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(250),
    ])
    let ys = scheduler.createHotObservable([.next(150, 1), .next(225, 99), .completed(230)])
    let res = scheduler.start { xs.take(until: ys) }
    #expect(res.events == [.next(210, 2), .next(220, 3), .completed(225)])
    #expect(xs.subscriptions == [Subscription(200, 225)])
    #expect(ys.subscriptions == [Subscription(200, 225)])
  }

  @Test("fails when the other sequence fails")
  func otherFails() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .next(230, 4), .completed(250)])
    let ys = scheduler.createHotObservable([Recorded<Event<Int>>.error(225, Failure())])
    let res = scheduler.start { xs.take(until: ys) }
    #expect(res.events == [.next(210, 2), .error(225, Failure())])
    #expect(xs.subscriptions == [Subscription(200, 225)])
    #expect(ys.subscriptions == [Subscription(200, 225)])
  }

  @Test("the other sequence completing without elements only ends its subscription")
  func otherCompletes() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 4), .completed(250)])
    let ys = scheduler.createHotObservable([Recorded<Event<Int>>.completed(225)])
    let res = scheduler.start { xs.take(until: ys) }
    #expect(res.events == [.next(210, 2), .next(240, 4), .completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(ys.subscriptions == [Subscription(200, 225)])
  }

  @Test("the source terminating disposes the other sequence")
  func sourceTerminates() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .error(240, Failure())])
    let ys = scheduler.createHotObservable([.next(300, 1)])
    let res = scheduler.start { xs.take(until: ys) }
    #expect(res.events == [.next(210, 2), .error(240, Failure())])
    #expect(xs.subscriptions == [Subscription(200, 240)])
    #expect(ys.subscriptions == [Subscription(200, 240)])
  }

  @Test("disposal disposes both sequences")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .next(300, 3)])
    let ys = scheduler.createHotObservable([.next(400, 1)])
    let res = scheduler.start(disposed: 250) { xs.take(until: ys) }
    #expect(res.events == [.next(210, 2)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(ys.subscriptions == [Subscription(200, 250)])
  }

  @Test("as in RxSwift, the source is disposed before the other sequence")
  func untilDisposalOrder() {
    let endings:
      [(disposed: TestTime, source: [Recorded<Event<Int>>], other: [Recorded<Event<Int>>])] = [
        (1000, [.next(210, 1)], [.next(250, 0)]),
        (250, [.next(210, 1)], []),
      ]
    for ending in endings {
      let scheduler = TestScheduler(initialClock: 0)
      let xs = scheduler.createHotObservable(ending.source)
      let ys = scheduler.createHotObservable(ending.other)
      var log: [String] = []
      _ = scheduler.start(disposed: ending.disposed) {
        xs.do(onDispose: { log.append("source") })
          .take(until: ys.do(onDispose: { log.append("other") }))
      }
      #expect(log == ["source", "other"])
    }
  }

  @Test("an other sequence that emits at subscription stops the source before it starts")
  func immediateOther() {
    let events = Locked<[Event<Int>]>([])
    _ = Observable.repeatElement(1).take(until: Observable.just(())).subscribe { event in
      events.withLock { $0.append(event) }
    }
    #expect(events.withLock { $0 } == [.completed])
  }

  @Test("a trigger fired from inside an element's delivery completes right after it")
  func reentrantTrigger() {
    let source = PublishSubject<Int>()
    let trigger = PublishSubject<Void>()
    let events = Locked<[Event<Int>]>([])
    _ = source.take(until: trigger).subscribe { event in
      events.withLock { $0.append(event) }
      if case .next(1) = event { trigger.onNext(()) }
    }
    source.onNext(1)
    source.onNext(2)
    #expect(events.withLock { $0 } == [.next(1), .completed])
  }

  @Test("concurrent elements and trigger: serial delivery, one terminal event, nothing after it")
  func concurrentStress() {
    for _ in 0..<200 {
      let source = PublishSubject<Int>()
      let trigger = PublishSubject<Void>()
      let state = Locked((inside: false, overlapped: false, afterTerminal: false, terminals: 0))
      let subscription = source.take(until: trigger).subscribe { event in
        state.withLock { value in
          if value.inside { value.overlapped = true }
          if value.terminals > 0 { value.afterTerminal = true }
          value.inside = true
          if event.isStopEvent { value.terminals += 1 }
        }
        var spin = 0
        for step in 0..<50 { spin &+= step }
        state.withLock { value in
          value.inside = false
          if spin < 0 { value.overlapped = true }
        }
      }
      let group = DispatchGroup()
      DispatchQueue.global().async(group: group) {
        for value in 0..<200 { source.onNext(value) }
      }
      DispatchQueue.global().async(group: group) {
        trigger.onNext(())
      }
      // A hang detector, not a timing assertion.
      #expect(group.wait(timeout: .now() + .seconds(10)) == .success, "emitting threads hung")
      subscription.dispose()
      let result = state.withLock { $0 }
      #expect(!result.overlapped)
      #expect(!result.afterTerminal)
      #expect(result.terminals == 1)
    }
  }
}
