import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {}

/// Test state touched from `@Sendable` scheduler actions, which all run on the test's thread.
private final class Slot<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}

/// Subscribes a recording observer to `source` at `from` and disposes it at `to`.
private func watch<Source: ObservableType & Sendable>(
  _ source: Source, on scheduler: TestScheduler, from: TestTime, to: TestTime
) -> TestableObserver<Source.Element> {
  let observer = scheduler.createObserver(Source.Element.self)
  let subscription = Slot<(any Disposable)?>(nil)
  scheduler.scheduleAt(from) { subscription.value = source.subscribe(observer) }
  scheduler.scheduleAt(to) { subscription.value?.dispose() }
  return observer
}

/// What `value()` returned, or the error it threw.
private func read(_ subject: BehaviorSubject<Int>) -> Result<Int, any Error> {
  Result { try subject.value() }
}

private func sameOutcome(_ lhs: Result<Int, any Error>, _ rhs: Result<Int, any Error>) -> Bool {
  switch (lhs, rhs) {
  case (.success(let l), .success(let r)): return l == r
  case (.failure(let l), .failure(let r)): return errorsMatch(l, r)
  default: return false
  }
}

@Suite("BehaviorSubject")
struct BehaviorSubjectTests {
  @Test("a subscriber receives the current value first, then later values")
  func currentValueFirst() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(70, 1), .next(110, 2), .next(220, 3), .next(270, 4), .next(340, 5), .next(410, 6),
      .next(520, 7), .next(630, 8),
    ])
    let subject = BehaviorSubject(value: 100)
    let early = watch(subject, on: scheduler, from: 50, to: 1000)
    scheduler.scheduleAt(100) { _ = xs.subscribe(subject) }
    let res1 = watch(subject, on: scheduler, from: 300, to: 600)
    let res2 = watch(subject, on: scheduler, from: 400, to: 700)
    scheduler.start()
    #expect(
      early.events == [
        .next(50, 100), .next(110, 2), .next(220, 3), .next(270, 4), .next(340, 5), .next(410, 6),
        .next(520, 7), .next(630, 8),
      ])
    #expect(res1.events == [.next(300, 4), .next(340, 5), .next(410, 6), .next(520, 7)])
    #expect(res2.events == [.next(400, 5), .next(410, 6), .next(520, 7), .next(630, 8)])
  }

  @Test("after a terminal event a subscriber receives only the terminal event")
  func terminal() {
    for terminal in [Recorded<Event<Int>>.completed(300), .error(300, TestError())] {
      let scheduler = TestScheduler(initialClock: 0)
      let xs = scheduler.createHotObservable([.next(210, 1), terminal, .next(310, 2)])
      let subject = BehaviorSubject(value: 0)
      scheduler.scheduleAt(100) { _ = xs.subscribe(subject) }
      let res1 = watch(subject, on: scheduler, from: 200, to: 1000)
      let res2 = watch(subject, on: scheduler, from: 400, to: 1000)
      scheduler.start()
      #expect(res1.events == [.next(200, 0), .next(210, 1), terminal])
      #expect(res2.events == [Recorded(time: 400, value: terminal.value)])
    }
  }

  @Test("value() is the latest element, the last one after completion, and throws after an error")
  func value() {
    let subject = BehaviorSubject(value: 1)
    #expect(sameOutcome(read(subject), .success(1)))
    subject.onNext(2)
    #expect(sameOutcome(read(subject), .success(2)))
    subject.onCompleted()
    subject.onNext(3)
    #expect(sameOutcome(read(subject), .success(2)))

    let failing = BehaviorSubject(value: 1)
    failing.onError(TestError())
    #expect(sameOutcome(read(failing), .failure(TestError())))
  }

  @Test("a disposed subject throws RxError.disposed and fails later subscribers")
  func disposed() {
    let scheduler = TestScheduler(initialClock: 0)
    let subject = BehaviorSubject(value: 1)
    let res1 = watch(subject, on: scheduler, from: 200, to: 1000)
    scheduler.scheduleAt(250) { subject.onNext(2) }
    scheduler.scheduleAt(300) { subject.dispose() }
    scheduler.scheduleAt(350) { subject.onNext(3) }
    let res2 = watch(subject, on: scheduler, from: 400, to: 1000)
    scheduler.start()
    let disposedError = RxError.disposed(object: "BehaviorSubject")
    #expect(res1.events == [.next(200, 1), .next(250, 2)])
    #expect(res2.events == [.error(400, disposedError)])
    #expect(sameOutcome(read(subject), .failure(disposedError)))
    #expect(subject.isDisposed)
    #expect(!subject.hasObservers)
  }

  @Test("a subscription made during a delivery receives the current value inside subscribe")
  func reentrantSubscribe() {
    let subject = BehaviorSubject(value: 1)
    var log: [String] = []
    var inner: (any Disposable)?
    let outer = subject.subscribe(onNext: { element in
      log.append("outer \(element)")
      if element == 2 {
        inner = subject.subscribe(onNext: { log.append("inner \($0)") })
        log.append("subscribed")
      }
    })
    subject.onNext(2)
    subject.onNext(3)
    #expect(log == ["outer 1", "outer 2", "inner 2", "subscribed", "outer 3", "inner 3"])
    inner?.dispose()
    outer.dispose()
  }

  @Test("a subscription disposed mid-stream receives nothing more")
  func disposeMidStream() {
    let scheduler = TestScheduler(initialClock: 0)
    let subject = BehaviorSubject(value: 0)
    let res = watch(subject, on: scheduler, from: 200, to: 300)
    scheduler.scheduleAt(250) { subject.onNext(1) }
    scheduler.scheduleAt(350) { subject.onNext(2) }
    scheduler.start()
    #expect(res.events == [.next(200, 0), .next(250, 1)])
    #expect(!subject.hasObservers)
  }
}
