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

private func hotSource(_ scheduler: TestScheduler, terminal: Recorded<Event<Int>>? = nil)
  -> TestableObservable<Int>
{
  var events: [Recorded<Event<Int>>] = [
    .next(70, 1), .next(110, 2), .next(220, 3), .next(270, 4), .next(340, 5), .next(410, 6),
    .next(520, 7),
  ]
  if let terminal { events.append(terminal) }
  events += [.next(640, 9), .next(870, 10)]
  return scheduler.createHotObservable(events)
}

@Suite("ReplaySubject")
struct ReplaySubjectTests {
  @Test("a late subscriber receives up to bufferSize latest elements, then live ones")
  func bounded() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = hotSource(scheduler)
    let subject = ReplaySubject<Int>.create(bufferSize: 3)
    scheduler.scheduleAt(100) { _ = xs.subscribe(subject) }
    let res1 = watch(subject, on: scheduler, from: 300, to: 600)
    let res2 = watch(subject, on: scheduler, from: 400, to: 700)
    scheduler.start()
    #expect(
      res1.events == [
        .next(300, 2), .next(300, 3), .next(300, 4), .next(340, 5), .next(410, 6), .next(520, 7),
      ])
    #expect(
      res2.events == [
        .next(400, 3), .next(400, 4), .next(400, 5), .next(410, 6), .next(520, 7), .next(640, 9),
      ])
  }

  @Test("createUnbounded replays everything; a buffer of 0 replays nothing")
  func unboundedAndEmpty() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = hotSource(scheduler)
    let all = ReplaySubject<Int>.createUnbounded()
    let none = ReplaySubject<Int>.create(bufferSize: 0)
    scheduler.scheduleAt(100) {
      _ = xs.subscribe(all)
      _ = xs.subscribe(none)
    }
    let res1 = watch(all, on: scheduler, from: 300, to: 420)
    let res2 = watch(none, on: scheduler, from: 300, to: 420)
    scheduler.start()
    #expect(
      res1.events == [
        .next(300, 2), .next(300, 3), .next(300, 4), .next(340, 5), .next(410, 6),
      ])
    #expect(res2.events == [.next(340, 5), .next(410, 6)])
  }

  @Test("after a terminal event a subscriber receives the buffer and the terminal event")
  func terminal() {
    for terminal in [Recorded<Event<Int>>.completed(630), .error(630, TestError())] {
      let scheduler = TestScheduler(initialClock: 0)
      let xs = hotSource(scheduler, terminal: terminal)
      let subject = ReplaySubject<Int>.create(bufferSize: 2)
      scheduler.scheduleAt(100) { _ = xs.subscribe(subject) }
      let res1 = watch(subject, on: scheduler, from: 500, to: 1000)
      let res2 = watch(subject, on: scheduler, from: 900, to: 1000)
      scheduler.start()
      #expect(res1.events == [.next(500, 5), .next(500, 6), .next(520, 7), terminal])
      #expect(
        res2.events == [.next(900, 6), .next(900, 7), Recorded(time: 900, value: terminal.value)])
    }
  }

  @Test("a disposed subject drops its buffer and fails later subscribers")
  func disposed() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = hotSource(scheduler)
    let subject = ReplaySubject<Int>.create(bufferSize: 2)
    scheduler.scheduleAt(100) { _ = xs.subscribe(subject) }
    let res1 = watch(subject, on: scheduler, from: 300, to: 1000)
    scheduler.scheduleAt(500) { subject.dispose() }
    let res2 = watch(subject, on: scheduler, from: 600, to: 1000)
    scheduler.start()
    #expect(
      res1.events == [.next(300, 3), .next(300, 4), .next(340, 5), .next(410, 6)])
    #expect(res2.events == [.error(600, RxError.disposed(object: "ReplaySubject"))])
    #expect(subject.isDisposed)
  }

  @Test("a subscription disposed mid-stream receives nothing more")
  func disposeMidStream() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = hotSource(scheduler)
    let subject = ReplaySubject<Int>.create(bufferSize: 1)
    scheduler.scheduleAt(100) { _ = xs.subscribe(subject) }
    let res = watch(subject, on: scheduler, from: 300, to: 400)
    scheduler.start()
    #expect(res.events == [.next(300, 4), .next(340, 5)])
  }

  @Test("a subscription made during a delivery receives the buffer inside subscribe")
  func reentrantSubscribe() {
    let subject = ReplaySubject<Int>.create(bufferSize: 2)
    var log: [String] = []
    var inner: (any Disposable)?
    subject.onNext(1)
    let outer = subject.subscribe(onNext: { element in
      log.append("outer \(element)")
      if element == 2 {
        inner = subject.subscribe(onNext: { log.append("inner \($0)") })
        log.append("subscribed")
      }
    })
    subject.onNext(2)
    subject.onNext(3)
    #expect(
      log == ["outer 1", "outer 2", "inner 1", "inner 2", "subscribed", "outer 3", "inner 3"])
    inner?.dispose()
    outer.dispose()
  }

  @Test("a negative buffer size stops the program")
  func negativeBufferSize() async {
    await #expect(processExitsWith: .failure) {
      _ = ReplaySubject<Int>.create(bufferSize: -1)
    }
  }
}
