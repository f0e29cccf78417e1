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

@Suite("AsyncSubject")
struct AsyncSubjectTests {
  @Test("emits only the last element, with completion; later subscribers get the same")
  func lastElementOnCompletion() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(70, 1), .next(110, 2), .next(220, 3), .next(270, 4), .completed(630), .next(640, 9),
    ])
    let subject = AsyncSubject<Int>()
    scheduler.scheduleAt(100) { _ = xs.subscribe(subject) }
    let res1 = watch(subject, on: scheduler, from: 200, to: 1000)
    let res2 = watch(subject, on: scheduler, from: 300, to: 500)
    let res3 = watch(subject, on: scheduler, from: 900, to: 1000)
    scheduler.start()
    #expect(res1.events == [.next(630, 4), .completed(630)])
    #expect(res2.events == [])
    #expect(res3.events == [.next(900, 4), .completed(900)])
  }

  @Test("an error is forwarded without the last element")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(110, 2), .next(220, 3), .error(630, TestError()), .next(640, 9),
    ])
    let subject = AsyncSubject<Int>()
    scheduler.scheduleAt(100) { _ = xs.subscribe(subject) }
    let res1 = watch(subject, on: scheduler, from: 200, to: 1000)
    let res2 = watch(subject, on: scheduler, from: 900, to: 1000)
    scheduler.start()
    #expect(res1.events == [.error(630, TestError())])
    #expect(res2.events == [.error(900, TestError())])
  }

  @Test("completing without elements sends only completion")
  func empty() {
    let scheduler = TestScheduler(initialClock: 0)
    let subject = AsyncSubject<Int>()
    let res1 = watch(subject, on: scheduler, from: 200, to: 1000)
    scheduler.scheduleAt(300) { subject.onCompleted() }
    let res2 = watch(subject, on: scheduler, from: 400, to: 1000)
    scheduler.start()
    #expect(res1.events == [.completed(300)])
    #expect(res2.events == [.completed(400)])
  }

  @Test("a disposed subject fails later subscribers and sends nothing to earlier ones")
  func disposed() {
    let scheduler = TestScheduler(initialClock: 0)
    let subject = AsyncSubject<Int>()
    let res1 = watch(subject, on: scheduler, from: 200, to: 1000)
    scheduler.scheduleAt(250) { subject.onNext(1) }
    scheduler.scheduleAt(300) { subject.dispose() }
    scheduler.scheduleAt(350) { subject.onCompleted() }
    let res2 = watch(subject, on: scheduler, from: 400, to: 1000)
    scheduler.start()
    #expect(res1.events == [])
    #expect(res2.events == [.error(400, RxError.disposed(object: "AsyncSubject"))])
    #expect(subject.isDisposed)
  }
}
