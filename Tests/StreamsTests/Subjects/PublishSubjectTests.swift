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
  events += [.next(640, 9), .next(870, 10), .next(940, 11)]
  return scheduler.createHotObservable(events)
}

@Suite("PublishSubject")
struct PublishSubjectTests {
  @Test("each subscriber receives only the events sent while it is subscribed")
  func lateSubscribers() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = hotSource(scheduler)
    let subject = PublishSubject<Int>()
    scheduler.scheduleAt(100) { _ = xs.subscribe(subject) }
    let res1 = watch(subject, on: scheduler, from: 300, to: 600)
    let res2 = watch(subject, on: scheduler, from: 400, to: 700)
    let res3 = watch(subject, on: scheduler, from: 900, to: 950)
    scheduler.start()
    #expect(res1.events == [.next(340, 5), .next(410, 6), .next(520, 7)])
    #expect(res2.events == [.next(410, 6), .next(520, 7), .next(640, 9)])
    #expect(res3.events == [.next(940, 11)])
    #expect(xs.subscriptions == [Subscription(100)])
  }

  @Test("a terminal event reaches current subscribers and every later one at once")
  func terminalReplayed() {
    for terminal in [Recorded<Event<Int>>.completed(630), .error(630, TestError())] {
      let scheduler = TestScheduler(initialClock: 0)
      let xs = hotSource(scheduler, terminal: terminal)
      let subject = PublishSubject<Int>()
      scheduler.scheduleAt(100) { _ = xs.subscribe(subject) }
      let res1 = watch(subject, on: scheduler, from: 300, to: 1000)
      let res2 = watch(subject, on: scheduler, from: 900, to: 1000)
      scheduler.start()
      #expect(res1.events == [.next(340, 5), .next(410, 6), .next(520, 7), terminal])
      #expect(res2.events == [Recorded(time: 900, value: terminal.value)])
    }
  }

  @Test("a disposed subject drops events, releases observers and fails later subscribers")
  func disposed() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = hotSource(scheduler)
    let subject = PublishSubject<Int>()
    scheduler.scheduleAt(100) { _ = xs.subscribe(subject) }
    let res1 = watch(subject, on: scheduler, from: 300, to: 1000)
    let states = Slot<[Bool]>([])
    scheduler.scheduleAt(500) { states.value += [subject.hasObservers, subject.isDisposed] }
    scheduler.scheduleAt(600) { subject.dispose() }
    scheduler.scheduleAt(650) { states.value += [subject.hasObservers, subject.isDisposed] }
    let res2 = watch(subject, on: scheduler, from: 900, to: 1000)
    scheduler.start()
    #expect(res1.events == [.next(340, 5), .next(410, 6), .next(520, 7)])
    #expect(res2.events == [.error(900, RxError.disposed(object: "PublishSubject"))])
    #expect(states.value == [true, false, false, true])
  }

  @Test(
    "an observer is released as soon as its subscription is disposed, terminated or the subject disposed",
    arguments: ["dispose subscription", "complete subject", "dispose subject"])
  func releasesObserverAtOnce(ending: String) {
    final class Token {}
    weak var weakToken: Token?
    let subject = PublishSubject<Int>()
    let received = Slot<[Int]>([])
    var subscription: (any Disposable)?
    do {
      let token = Token()
      weakToken = token
      // The event-closure form returns the subject's own subscription, which does not hold
      // the observer: what is checked here is that the subject lets it go.
      subscription = subject.subscribe { event in
        withExtendedLifetime(token) {
          if case .next(let element) = event { received.value.append(element) }
        }
      }
    }
    subject.onNext(1)
    subject.onNext(2)
    #expect(weakToken != nil)
    switch ending {
    case "dispose subscription": subscription?.dispose()
    case "complete subject": subject.onCompleted()
    default: subject.dispose()
    }
    // No further event: the subject must not keep the observer for a delivery that never comes.
    #expect(weakToken == nil)
    #expect(received.value == [1, 2])
    withExtendedLifetime(subscription) {}
  }

  @Test("hasObservers follows subscriptions and disposals")
  func hasObservers() {
    let subject = PublishSubject<Int>()
    #expect(!subject.hasObservers)
    let first = subject.subscribe(onNext: { _ in })
    let second = subject.subscribe(onNext: { _ in })
    #expect(subject.hasObservers)
    first.dispose()
    #expect(subject.hasObservers)
    second.dispose()
    second.dispose()
    #expect(!subject.hasObservers)
  }

  @Test("disposing a subscription from inside its observer stops delivery to it only")
  func disposeInsideObserver() {
    let subject = PublishSubject<Int>()
    let first = Slot<[Int]>([])
    let second = Slot<[Int]>([])
    let subscription = Slot<(any Disposable)?>(nil)
    subscription.value = subject.subscribe(onNext: { element in
      first.value.append(element)
      if element == 2 { subscription.value?.dispose() }
    })
    _ = subject.subscribe(onNext: { second.value.append($0) })
    for element in 1...3 { subject.onNext(element) }
    #expect(first.value == [1, 2])
    #expect(second.value == [1, 2, 3])
  }

  @Test("an observer disposed by another observer of the same event does not receive it")
  func disposedByAnotherObserver() {
    let subject = PublishSubject<Int>()
    let log = Slot<[String]>([])
    let victim = Slot<(any Disposable)?>(nil)
    // Raw observers (no `GuardedSink` in between): only the subject can hold the event back.
    _ = subject.subscribe { event in
      guard case .next(let element) = event else { return }
      log.value.append("A\(element)")
      victim.value?.dispose()
    }
    victim.value = subject.subscribe { event in
      guard case .next(let element) = event else { return }
      log.value.append("B\(element)")
    }
    subject.onNext(1)
    subject.onNext(2)
    #expect(log.value == ["A1", "A2"])
  }

  @Test("an event queued behind a reentrant one is not delivered to an observer disposed meanwhile")
  func queuedEventAfterDisposal() {
    let subject = PublishSubject<Int>()
    let log = Slot<[String]>([])
    let other = Slot<(any Disposable)?>(nil)
    _ = subject.subscribe { event in
      guard case .next(let element) = event else { return }
      log.value.append("A\(element)")
      if element == 1 {
        subject.onNext(2)  // queued until 1 has reached every observer
        other.value?.dispose()
      }
    }
    other.value = subject.subscribe { event in
      guard case .next(let element) = event else { return }
      log.value.append("B\(element)")
    }
    subject.onNext(1)
    #expect(log.value == ["A1", "A2"])
  }

  @Test("observers are called in subscription order, also after an earlier observer left")
  func subscriptionOrder() {
    // A documented difference: in RxSwift the third observer, which takes the first one's slot,
    // would be called before the second.
    let subject = PublishSubject<Int>()
    var order: [String] = []
    let first = subject.subscribe(onNext: { _ in order.append("first") })
    let second = subject.subscribe(onNext: { _ in order.append("second") })
    first.dispose()
    let third = subject.subscribe(onNext: { _ in order.append("third") })
    subject.onNext(1)
    #expect(order == ["second", "third"])
    second.dispose()
    third.dispose()
  }

  @Test("events after a terminal event are ignored")
  func grammar() {
    let subject = PublishSubject<Int>()
    let events = Slot<[Event<Int>]>([])
    _ = subject.subscribe { events.value.append($0) }
    subject.onNext(1)
    subject.onCompleted()
    subject.onNext(2)
    subject.onError(TestError())
    subject.onCompleted()
    #expect(events.value == [.next(1), .completed])
    #expect(!subject.hasObservers)
  }
}
