import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {}

/// Test state touched from `@Sendable` scheduler actions, which all run on the test's thread.
private final class Slot<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}

/// RxSwift's connect/disconnect schedule: connect 300–400, connect 420 (and again at 440, which
/// returns the same connection, disposed at 530), connect 575–621; the connection of 420 is
/// disposed again at 590, which does nothing.
private func scheduleConnections(
  _ scheduler: TestScheduler, _ ys: Slot<ConnectableObservable<Int>?>
) {
  let connection = Slot<(any Disposable)?>(nil)
  let inner = Slot<(any Disposable)?>(nil)
  let last = Slot<(any Disposable)?>(nil)
  scheduler.scheduleAt(300) { connection.value = ys.value!.connect() }
  scheduler.scheduleAt(400) { connection.value?.dispose() }
  scheduler.scheduleAt(420) { connection.value = ys.value!.connect() }
  scheduler.scheduleAt(440) { inner.value = ys.value!.connect() }
  scheduler.scheduleAt(530) { inner.value?.dispose() }
  scheduler.scheduleAt(575) { last.value = ys.value!.connect() }
  scheduler.scheduleAt(590) { connection.value?.dispose() }
  scheduler.scheduleAt(621) { last.value?.dispose() }
}

private func longHotSource(_ scheduler: TestScheduler, terminal: Recorded<Event<Int>>? = nil)
  -> TestableObservable<Int>
{
  var events: [Recorded<Event<Int>>] = [
    .next(110, 7), .next(220, 3), .next(280, 4), .next(290, 1), .next(340, 8), .next(360, 5),
    .next(370, 6), .next(390, 7), .next(410, 13), .next(430, 2),
  ]
  if let terminal { events.append(terminal) }
  events += [
    .next(450, 9), .next(520, 11), .next(560, 20), .next(570, 21), .next(580, 23),
    .next(590, 24), .next(600, 25), .next(610, 26), .next(620, 27), .next(630, 28),
    .error(800, TestError()),
  ]
  return scheduler.createHotObservable(events)
}

@Suite("multicast, publish, replay")
struct MulticastTests {
  // MARK: multicast(makeSubject:)

  @Test(
    "multicast(makeSubject:): connect controls the source subscription; a subject per connection")
  func makeSubjectConnectControlsSubscription() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = longHotSource(scheduler)
    let ys = Slot<ConnectableObservable<Int>?>(nil)
    let res = scheduler.createObserver(Int.self)
    let subscription = Slot<(any Disposable)?>(nil)
    scheduler.scheduleAt(100) {
      ys.value = xs.multicast(makeSubject: { ReplaySubject<Int>.create(bufferSize: 3) })
    }
    scheduler.scheduleAt(405) { subscription.value = ys.value!.subscribe(res) }
    scheduler.scheduleAt(1000) { subscription.value?.dispose() }
    scheduleConnections(scheduler, ys)
    scheduler.start()
    // Subscribed at 405 to the subject made for the next connection (420–530); the connection at
    // 575 has a new subject this subscriber is not registered with.
    #expect(res.events == [.next(430, 2), .next(450, 9), .next(520, 11)])
    #expect(
      xs.subscriptions == [Subscription(300, 400), Subscription(420, 530), Subscription(575, 621)])
  }

  @Test("multicast(makeSubject:): a subscriber of a live connection gets its replay")
  func makeSubjectConnectFirstThenSubscribe() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = longHotSource(scheduler)
    let ys = Slot<ConnectableObservable<Int>?>(nil)
    let res = scheduler.createObserver(Int.self)
    let subscription = Slot<(any Disposable)?>(nil)
    scheduler.scheduleAt(100) {
      ys.value = xs.multicast(makeSubject: { ReplaySubject<Int>.create(bufferSize: 1) })
    }
    scheduler.scheduleAt(470) { subscription.value = ys.value!.subscribe(res) }
    scheduler.scheduleAt(1000) { subscription.value?.dispose() }
    scheduleConnections(scheduler, ys)
    scheduler.start()
    #expect(res.events == [.next(470, 9), .next(520, 11)])
    #expect(
      xs.subscriptions == [Subscription(300, 400), Subscription(420, 530), Subscription(575, 621)])
  }

  @Test(
    "multicast(makeSubject:): a terminal event drops the subject, so a reconnect starts afresh",
    arguments: [false, true])
  func makeSubjectTerminal(fails: Bool) {
    let scheduler = TestScheduler(initialClock: 0)
    let terminal: Recorded<Event<Int>> = fails ? .error(435, TestError()) : .completed(435)
    let xs = longHotSource(scheduler, terminal: terminal)
    let ys = Slot<ConnectableObservable<Int>?>(nil)
    let res = scheduler.createObserver(Int.self)
    let again = scheduler.createObserver(Int.self)
    let subscription = Slot<(any Disposable)?>(nil)
    scheduler.scheduleAt(100) {
      ys.value = xs.multicast(makeSubject: { ReplaySubject<Int>.create(bufferSize: 1) })
    }
    scheduler.scheduleAt(405) {
      subscription.value = ys.value!.subscribe { event in
        res.on(event)
        if event.isStopEvent {
          subscription.value = ys.value!.subscribe(again)
          _ = ys.value!.connect()
        }
      }
    }
    scheduler.scheduleAt(1000) { subscription.value?.dispose() }
    scheduleConnections(scheduler, ys)
    scheduler.start()
    #expect(res.events == [.next(430, 2), terminal])
    #expect(again.events == [.next(450, 9), .next(520, 11)])
    #expect(
      xs.subscriptions == [
        Subscription(300, 400), Subscription(420, 435), Subscription(435, 530),
        Subscription(575, 621),
      ])
  }

  // MARK: multicast(_:) with one subject

  @Test("multicast(_:): one subject serves every connection")
  func fixedSubjectConnectControlsSubscription() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = longHotSource(scheduler)
    let ys = Slot<ConnectableObservable<Int>?>(nil)
    let res = scheduler.createObserver(Int.self)
    let subscription = Slot<(any Disposable)?>(nil)
    scheduler.scheduleAt(100) { ys.value = xs.multicast(ReplaySubject<Int>.create(bufferSize: 3)) }
    scheduler.scheduleAt(405) { subscription.value = ys.value!.subscribe(res) }
    scheduler.scheduleAt(1000) { subscription.value?.dispose() }
    scheduleConnections(scheduler, ys)
    scheduler.start()
    #expect(
      res.events == [
        .next(405, 5), .next(405, 6), .next(405, 7), .next(430, 2), .next(450, 9), .next(520, 11),
        .next(580, 23), .next(590, 24), .next(600, 25), .next(610, 26), .next(620, 27),
      ])
    #expect(
      xs.subscriptions == [Subscription(300, 400), Subscription(420, 530), Subscription(575, 621)])
  }

  @Test(
    "multicast(_:): after a terminal event the subject stays terminated across reconnects",
    arguments: [false, true])
  func fixedSubjectTerminal(fails: Bool) {
    let scheduler = TestScheduler(initialClock: 0)
    let terminal: Recorded<Event<Int>> = fails ? .error(435, TestError()) : .completed(435)
    let xs = longHotSource(scheduler, terminal: terminal)
    let ys = Slot<ConnectableObservable<Int>?>(nil)
    let res = scheduler.createObserver(Int.self)
    let again = scheduler.createObserver(Int.self)
    let subscription = Slot<(any Disposable)?>(nil)
    scheduler.scheduleAt(100) { ys.value = xs.multicast(ReplaySubject<Int>.create(bufferSize: 1)) }
    scheduler.scheduleAt(405) {
      subscription.value = ys.value!.subscribe { event in
        res.on(event)
        if event.isStopEvent {
          subscription.value = ys.value!.subscribe(again)
          _ = ys.value!.connect()
        }
      }
    }
    scheduler.scheduleAt(1000) { subscription.value?.dispose() }
    scheduleConnections(scheduler, ys)
    scheduler.start()
    #expect(res.events == [.next(405, 7), .next(430, 2), terminal])
    #expect(again.events == [.next(435, 2), terminal])
    #expect(
      xs.subscriptions == [
        Subscription(300, 400), Subscription(420, 435), Subscription(435, 530),
        Subscription(575, 621),
      ])
  }

  @Test("connect() is idempotent while connected and a disposed connection stays disposed")
  func connectIsIdempotent() {
    let subject = PublishSubject<Int>()
    let connectable = subject.publish()
    let received = Slot<[Int]>([])
    _ = connectable.subscribe(onNext: { received.value.append($0) })
    let first = connectable.connect()
    let second = connectable.connect()
    subject.onNext(1)
    #expect(received.value == [1])
    #expect(subject.hasObservers)
    second.dispose()
    #expect(!subject.hasObservers)
    subject.onNext(2)
    first.dispose()
    #expect((first as? any Cancelable)?.isDisposed == true)
    #expect(received.value == [1])
  }

  // MARK: multicast(_:selector:)

  @Test("multicast(_:selector:) completes with the source", arguments: [false, true])
  func selectorTerminal(fails: Bool) {
    let scheduler = TestScheduler(initialClock: 0)
    let terminal: Recorded<Event<Int>> = fails ? .error(390, TestError()) : .completed(390)
    let xs = scheduler.createHotObservable([
      .next(40, 0), .next(90, 1), .next(150, 2), .next(210, 3), .next(240, 4), .next(270, 5),
      .next(330, 6), .next(340, 7), terminal,
    ])
    let res = scheduler.start { xs.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
    #expect(
      res.events == [
        .next(210, 3), .next(240, 4), .next(270, 5), .next(330, 6), .next(340, 7), terminal,
      ])
    #expect(xs.subscriptions == [Subscription(200, 390)])
  }

  @Test("multicast(_:selector:) disposal disposes the source subscription")
  func selectorDispose() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 3), .next(240, 4), .next(340, 7)])
    let res = scheduler.start(disposed: 300) {
      xs.multicast({ PublishSubject<Int>() }, selector: { $0.map { $0 * 10 } })
    }
    #expect(res.events == [.next(210, 30), .next(240, 40)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("multicast(_:selector:) subscribes the source once however often the selector subscribes")
  func selectorSharesTheSource() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
    let res = scheduler.start {
      xs.multicast({ PublishSubject<Int>() }) { shared in
        Observable<Int>.create { observer in
          let tens = shared.map { $0 * 10 }.subscribe(onNext: { observer.onNext($0) })
          let ones = shared.subscribe(
            onNext: { observer.onNext($0) }, onCompleted: { observer.onCompleted() })
          return Disposables.create(tens, ones)
        }
      }
    }
    #expect(
      res.events == [.next(210, 10), .next(210, 1), .next(220, 20), .next(220, 2), .completed(230)]
    )
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("a throwing subject selector fails at subscription and never subscribes the source")
  func subjectSelectorThrows() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
    let res = scheduler.start {
      xs.multicast({ () throws -> PublishSubject<Int> in throw TestError() }, selector: { $0 })
    }
    #expect(res.events == [.error(200, TestError())])
    #expect(xs.subscriptions == [])
  }

  @Test("a throwing selector fails at subscription and never subscribes the source")
  func selectorThrows() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
    let res = scheduler.start {
      xs.multicast(
        { PublishSubject<Int>() },
        selector: { _ -> Observable<Int> in throw TestError() })
    }
    #expect(res.events == [.error(200, TestError())])
    #expect(xs.subscriptions == [])
  }
}
