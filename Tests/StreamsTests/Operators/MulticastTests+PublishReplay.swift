import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {}

/// Test state touched from `@Sendable` scheduler actions, which all run on the test's thread.
private final class Slot<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}

extension MulticastTests {
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
