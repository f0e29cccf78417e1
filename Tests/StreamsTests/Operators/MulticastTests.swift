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

  // MARK: publish

  @Test("publish: subscribers receive what the connection they registered for delivers")
  func publishBasic() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(110, 7), .next(220, 3), .next(280, 4), .next(290, 1), .next(340, 8), .next(360, 5),
      .next(370, 6), .next(390, 7), .next(410, 13), .next(430, 2), .next(450, 9), .next(520, 11),
      .next(560, 20), .error(600, TestError()),
    ])
    let ys = Slot<ConnectableObservable<Int>?>(nil)
    let early = scheduler.createObserver(Int.self)
    let late = scheduler.createObserver(Int.self)
    let connection = Slot<(any Disposable)?>(nil)
    scheduler.scheduleAt(100) { ys.value = xs.publish() }
    scheduler.scheduleAt(200) { _ = ys.value!.subscribe(early) }
    scheduler.scheduleAt(450) { _ = ys.value!.subscribe(late) }
    scheduler.scheduleAt(300) { connection.value = ys.value!.connect() }
    scheduler.scheduleAt(400) { connection.value?.dispose() }
    scheduler.scheduleAt(500) { connection.value = ys.value!.connect() }
    scheduler.scheduleAt(550) { connection.value?.dispose() }
    scheduler.scheduleAt(650) { connection.value = ys.value!.connect() }
    scheduler.scheduleAt(800) { connection.value?.dispose() }
    scheduler.start()
    #expect(early.events == [.next(340, 8), .next(360, 5), .next(370, 6), .next(390, 7)])
    #expect(late.events == [.next(520, 11)])
    #expect(
      xs.subscriptions == [Subscription(300, 400), Subscription(500, 550), Subscription(650, 800)])
  }

  @Test("publish forwards an error and ends the source subscription")
  func publishError() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError())])
    let ys = Slot<ConnectableObservable<Int>?>(nil)
    let res = scheduler.createObserver(Int.self)
    scheduler.scheduleAt(100) { ys.value = xs.publish() }
    scheduler.scheduleAt(200) { _ = ys.value!.subscribe(res) }
    scheduler.scheduleAt(205) { _ = ys.value!.connect() }
    scheduler.start()
    #expect(res.events == [.next(210, 1), .error(250, TestError())])
    #expect(xs.subscriptions == [Subscription(205, 250)])
  }

  // MARK: replay

  @Test("replay(_:) replays the current connection's latest elements", arguments: [1, 3])
  func replayBasic(bufferSize: Int) {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([
      .next(10, 5), .next(20, 9), .next(30, 11), .next(40, 20), .next(50, 22), .next(60, 23),
      .next(70, 24), .next(80, 25), .completed(130),
    ])
    let run = ReplayRun(scheduler: scheduler, disposeAt: 1000) { xs.replay(bufferSize) }
    scheduler.start()
    // 5, 9, 11 and 20 arrived before the subscription at 450; 22 arrives at 450, after it.
    let buffered: [Recorded<Event<Int>>] = [5, 9, 11, 20].suffix(bufferSize).map { .next(450, $0) }
    #expect(
      run.res.events == buffered + [.next(450, 22), .next(460, 23), .next(470, 24), .next(480, 25)])
    #expect(xs.subscriptions == [Subscription(400, 520), Subscription(650, 700)])
  }

  @Test("replay(_:) forwards the terminal event", arguments: [false, true])
  func replayTerminal(fails: Bool) {
    let scheduler = TestScheduler(initialClock: 0)
    let terminal: Recorded<Event<Int>> = fails ? .error(90, TestError()) : .completed(90)
    let xs = scheduler.createColdObservable([
      .next(10, 5), .next(20, 9), .next(30, 11), .next(40, 20), .next(50, 22), .next(60, 23),
      .next(70, 24), .next(80, 25), terminal,
    ])
    let run = ReplayRun(scheduler: scheduler, disposeAt: 1000) { xs.replay(3) }
    scheduler.start()
    #expect(
      run.res.events == [
        .next(450, 9), .next(450, 11), .next(450, 20), .next(450, 22), .next(460, 23),
        .next(470, 24), .next(480, 25), Recorded(time: 490, value: terminal.value),
      ])
    #expect(xs.subscriptions == [Subscription(400, 490), Subscription(650, 700)])
  }

  @Test("replay(_:): disposing the subscriber mid-stream leaves the connection alone")
  func replayDispose() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([
      .next(10, 5), .next(20, 9), .next(30, 11), .next(40, 20), .next(50, 22), .next(60, 23),
      .next(70, 24), .next(80, 25), .completed(130),
    ])
    let run = ReplayRun(scheduler: scheduler, disposeAt: 475) { xs.replay(3) }
    scheduler.start()
    #expect(
      run.res.events == [
        .next(450, 9), .next(450, 11), .next(450, 20), .next(450, 22), .next(460, 23),
        .next(470, 24),
      ])
    #expect(xs.subscriptions == [Subscription(400, 520), Subscription(650, 700)])
  }

  @Test("replayAll() replays every element of the current connection")
  func replayAllBasic() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([
      .next(10, 5), .next(20, 9), .next(30, 11), .next(40, 20), .next(50, 22), .next(60, 23),
      .next(70, 24), .next(80, 25), .completed(130),
    ])
    let run = ReplayRun(scheduler: scheduler, disposeAt: 1000) { xs.replayAll() }
    scheduler.start()
    #expect(
      run.res.events == [
        .next(450, 5), .next(450, 9), .next(450, 11), .next(450, 20), .next(450, 22),
        .next(460, 23), .next(470, 24), .next(480, 25),
      ])
    #expect(xs.subscriptions == [Subscription(400, 520), Subscription(650, 700)])
  }

  @Test("a negative replay buffer size stops the program")
  func negativeReplay() async {
    await #expect(processExitsWith: .failure) {
      _ = PublishSubject<Int>().replay(-1)
    }
  }

  @Test("every object is released after the connections end")
  func releasesResources() async {
    await #expect(processExitsWith: .success) {
      let before = Resources.total
      do {
        let subject = PublishSubject<Int>()
        let connectables = [
          subject.publish(), subject.replay(2), subject.replayAll(),
          subject.multicast(PublishSubject<Int>()),
        ]
        for connectable in connectables {
          let subscription = connectable.subscribe(onNext: { _ in })
          let connection = connectable.connect()
          subject.onNext(1)
          connection.dispose()
          subscription.dispose()
        }
        let completing = PublishSubject<Int>()
        let published = completing.publish()
        _ = published.subscribe(onNext: { _ in })
        _ = published.connect()
        completing.onCompleted()
      }
      precondition(Resources.total == before, "leaked \(Resources.total - before) objects")
    }
  }
}

/// RxSwift's replay schedule: a subscriber at 450 (disposed at `disposeAt`), connections 400–520
/// and 650–700.
private struct ReplayRun {
  let res: TestableObserver<Int>

  init(
    scheduler: TestScheduler, disposeAt: TestTime,
    makeConnectable: @escaping () -> ConnectableObservable<Int>
  ) {
    let res = scheduler.createObserver(Int.self)
    self.res = res
    let ys = Slot<ConnectableObservable<Int>?>(nil)
    let factory = Slot(makeConnectable)
    let subscription = Slot<(any Disposable)?>(nil)
    let connection = Slot<(any Disposable)?>(nil)
    scheduler.scheduleAt(100) { ys.value = factory.value() }
    scheduler.scheduleAt(450) { subscription.value = ys.value!.subscribe(res) }
    scheduler.scheduleAt(disposeAt) { subscription.value?.dispose() }
    scheduler.scheduleAt(400) { connection.value = ys.value!.connect() }
    scheduler.scheduleAt(520) { connection.value?.dispose() }
    scheduler.scheduleAt(650) { connection.value = ys.value!.connect() }
    scheduler.scheduleAt(700) { connection.value?.dispose() }
  }
}
