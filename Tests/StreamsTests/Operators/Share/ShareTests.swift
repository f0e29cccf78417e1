import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {}

/// Test state touched from `@Sendable` scheduler actions, which all run on the test's thread.
private final class Slot<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}

/// The elements before `last` (inclusive) that a replay of `count` elements holds, stamped `time`.
private func replayed(_ count: Int, endingWith last: Int, at time: TestTime)
  -> [Recorded<Event<Int>>]
{
  (0..<count).map { .next(time, last - count + 1 + $0) }
}

@Suite("share(replay:scope:)")
struct ShareTests {
  // MARK: single subscriber

  @Test("values and completion pass through; the source subscription ends with the source")
  func valuesAndCompletion() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(220, 3), .completed(300),
    ])
    let res = scheduler.start { xs.share() }
    #expect(res.events == [.next(210, 2), .next(220, 3), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("an error is forwarded and ends the source subscription")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError())])
    let res = scheduler.start { xs.share(replay: 1) }
    #expect(res.events == [.next(210, 1), .error(250, TestError())])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("disposing the only subscriber mid-stream disposes the source subscription")
  func disposeMidStream() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(310, 2), .completed(400)])
    let res = scheduler.start(disposed: 300) { xs.share(replay: 2, scope: .forever) }
    #expect(res.events == [.next(210, 1)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("a cold source is subscribed once for concurrent subscribers")
  func coldSourceSubscribedOnce() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
    let ys = Slot<Observable<Int>?>(nil)
    let res1 = scheduler.createObserver(Int.self)
    let res2 = scheduler.createObserver(Int.self)
    scheduler.scheduleAt(100) { ys.value = xs.share() }
    scheduler.scheduleAt(200) { _ = ys.value!.subscribe(res1) }
    scheduler.scheduleAt(215) { _ = ys.value!.subscribe(res2) }
    scheduler.start()
    #expect(res1.events == [.next(210, 1), .next(220, 2), .completed(230)])
    #expect(res2.events == [.next(220, 2), .completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  // MARK: RxSwift's scope scenarios

  @Test("default arguments: no replay, reconnect after the count falls to zero")
  func defaultArguments() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6),
      .next(550, 7),
    ])
    let run = ThreeSubscribers(scheduler: scheduler) { xs.share() }
    scheduler.start()
    #expect(
      run.res1.events == [
        .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6),
      ])
    #expect(run.res2.events == [.next(320, 6)])
    #expect(run.res3.events == [.next(550, 7)])
    #expect(xs.subscriptions == [Subscription(200, 400), Subscription(500, 600)])
  }

  @Test(".forever keeps the replay buffer across reconnects", arguments: 0..<5)
  func foreverReceivesCorrectElements(replay: Int) {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6),
      .next(550, 7),
    ])
    let run = ThreeSubscribers(scheduler: scheduler) { xs.share(replay: replay, scope: .forever) }
    scheduler.start()
    #expect(
      run.res1.events == [
        .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6),
      ])
    #expect(run.res2.events == replayed(replay, endingWith: 5, at: 300) + [.next(320, 6)])
    #expect(run.res3.events == replayed(replay, endingWith: 6, at: 500) + [.next(550, 7)])
    #expect(xs.subscriptions == [Subscription(200, 400), Subscription(500, 600)])
  }

  @Test(".whileConnected starts every connection with an empty buffer", arguments: 0..<5)
  func whileConnectedReceivesCorrectElements(replay: Int) {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6),
      .next(550, 7),
    ])
    let run = ThreeSubscribers(scheduler: scheduler) {
      xs.share(replay: replay, scope: .whileConnected)
    }
    scheduler.start()
    #expect(
      run.res1.events == [
        .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6),
      ])
    #expect(run.res2.events == replayed(replay, endingWith: 5, at: 300) + [.next(320, 6)])
    #expect(run.res3.events == [.next(550, 7)])
    #expect(xs.subscriptions == [Subscription(200, 400), Subscription(500, 600)])
  }

  @Test(
    ".forever: after a terminal event late subscribers get replay and terminal, no reconnect",
    arguments: [false, true], 0..<5)
  func foreverTerminal(fails: Bool, replay: Int) {
    let scheduler = TestScheduler(initialClock: 0)
    let terminal: Recorded<Event<Int>> = fails ? .error(330, TestError()) : .completed(330)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6),
      terminal, .next(340, -1), .next(550, 7),
    ])
    let run = ResubscribingSubscribers(scheduler: scheduler) {
      xs.share(replay: replay, scope: .forever)
    }
    scheduler.start()
    let end = { (time: TestTime) in Recorded(time: time, value: terminal.value) }
    #expect(
      run.res1.events == [
        .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6),
        end(330),
      ])
    #expect(run.res1Again.events == replayed(replay, endingWith: 6, at: 330) + [end(330)])
    #expect(run.res2Again.events == replayed(replay, endingWith: 6, at: 330) + [end(330)])
    #expect(
      run.res2.events == replayed(replay, endingWith: 5, at: 300) + [.next(320, 6), end(330)])
    #expect(run.res3.events == replayed(replay, endingWith: 6, at: 500) + [end(500)])
    #expect(xs.subscriptions == [Subscription(200, 330)])
  }

  @Test(
    ".whileConnected: a subscriber arriving on the terminal event connects again",
    arguments: [false, true], 0..<5)
  func whileConnectedTerminal(fails: Bool, replay: Int) {
    let scheduler = TestScheduler(initialClock: 0)
    let terminal: Recorded<Event<Int>> = fails ? .error(330, TestError()) : .completed(330)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6),
      terminal, .next(340, -1), .next(550, 7),
    ])
    let run = ResubscribingSubscribers(scheduler: scheduler) {
      xs.share(replay: replay, scope: .whileConnected)
    }
    scheduler.start()
    #expect(
      run.res1.events == [
        .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6),
        terminal,
      ])
    #expect(run.res1Again.events == [.next(340, -1)])
    #expect(run.res2Again.events == [.next(340, -1)])
    #expect(
      run.res2.events == replayed(replay, endingWith: 5, at: 300) + [.next(320, 6), terminal])
    #expect(run.res3.events == [.next(550, 7)])
    #expect(
      xs.subscriptions == [Subscription(200, 330), Subscription(330, 400), Subscription(500, 600)])
  }

  // MARK: synchronous sources

  @Test(".whileConnected runs a synchronous source again for every subscriber")
  func whileConnectedSynchronousSource() {
    let work = Slot(0)
    let source = Observable<Int>.create { observer in
      work.value += 1
      observer.onNext(work.value)
      observer.onCompleted()
      return Disposables.create()
    }
    let shared = source.share(replay: 1, scope: .whileConnected)
    let first = Slot<[Event<Int>]>([])
    let second = Slot<[Event<Int>]>([])
    _ = shared.subscribe { first.value.append($0) }
    _ = shared.subscribe { second.value.append($0) }
    #expect(work.value == 2)
    #expect(first.value == [.next(1), .completed])
    #expect(second.value == [.next(2), .completed])
  }

  @Test(".forever runs a synchronous source once and replays it afterwards", arguments: 0..<3)
  func foreverSynchronousSource(replay: Int) {
    let work = Slot(0)
    let source = Observable<Int>.create { observer in
      work.value += 1
      observer.onNext(10)
      observer.onNext(20)
      observer.onCompleted()
      return Disposables.create()
    }
    let shared = source.share(replay: replay, scope: .forever)
    let first = Slot<[Event<Int>]>([])
    let second = Slot<[Event<Int>]>([])
    _ = shared.subscribe { first.value.append($0) }
    _ = shared.subscribe { second.value.append($0) }
    #expect(work.value == 1)
    #expect(first.value == [.next(10), .next(20), .completed])
    let replay: [Event<Int>] = Array([Event<Int>.next(10), .next(20)].suffix(replay))
    #expect(second.value == replay + [.completed])
  }

  @Test("an observer that disposes its own subscription on an element disconnects the source")
  func disposeFromInsideDelivery() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
    let shared = Slot(xs.share(replay: 1))
    let subscription = Slot<(any Disposable)?>(nil)
    let received = Slot<[Int]>([])
    scheduler.scheduleAt(200) {
      subscription.value = shared.value.subscribe(onNext: { element in
        received.value.append(element)
        if element == 2 { subscription.value?.dispose() }
      })
    }
    scheduler.start()
    #expect(received.value == [1, 2])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("subscribers are called in subscription order, also after an earlier one left")
  func subscriptionOrder() {
    let source = PublishSubject<Int>()
    let shared = source.share()
    var order: [String] = []
    let first = shared.subscribe(onNext: { _ in order.append("first") })
    let second = shared.subscribe(onNext: { _ in order.append("second") })
    first.dispose()
    let third = shared.subscribe(onNext: { _ in order.append("third") })
    source.onNext(1)
    #expect(order == ["second", "third"])
    second.dispose()
    third.dispose()
  }

  @Test("a negative replay count stops the program")
  func negativeReplay() async {
    await #expect(processExitsWith: .failure) {
      _ = PublishSubject<Int>().share(replay: -1)
    }
  }

  @Test("every object is released after the subscribers and the source end")
  func releasesResources() async {
    await #expect(processExitsWith: .success) {
      let before = Resources.total
      do {
        for scope in [SubjectLifetimeScope.whileConnected, .forever] {
          for replay in 0..<3 {
            let subject = PublishSubject<Int>()
            let shared = subject.share(replay: replay, scope: scope)
            let first = shared.subscribe(onNext: { _ in })
            let second = shared.subscribe(onNext: { _ in })
            subject.onNext(1)
            first.dispose()
            subject.onNext(2)
            second.dispose()
            let third = shared.subscribe(onNext: { _ in })
            subject.onCompleted()
            third.dispose()
            _ = shared.subscribe(onNext: { _ in })
          }
        }
      }
      precondition(Resources.total == before, "leaked \(Resources.total - before) objects")
    }
  }
}

/// RxSwift's three-subscriber scenario: subscribers at 200 and 300 disposed at 350 and 400, a
/// third subscribed from 500 to 600.
private struct ThreeSubscribers {
  let res1: TestableObserver<Int>
  let res2: TestableObserver<Int>
  let res3: TestableObserver<Int>

  init(scheduler: TestScheduler, makeShared: @escaping () -> Observable<Int>) {
    res1 = scheduler.createObserver(Int.self)
    res2 = scheduler.createObserver(Int.self)
    res3 = scheduler.createObserver(Int.self)
    let ys = Slot<Observable<Int>?>(nil)
    let factory = Slot(makeShared)
    let subscriptions = Slot<[any Disposable]>([])
    let (res1, res2, res3) = (res1, res2, res3)
    scheduler.scheduleAt(100) { ys.value = factory.value() }
    scheduler.scheduleAt(200) { subscriptions.value.append(ys.value!.subscribe(res1)) }
    scheduler.scheduleAt(300) { subscriptions.value.append(ys.value!.subscribe(res2)) }
    scheduler.scheduleAt(350) { subscriptions.value[0].dispose() }
    scheduler.scheduleAt(400) { subscriptions.value[1].dispose() }
    scheduler.scheduleAt(500) { subscriptions.value.append(ys.value!.subscribe(res3)) }
    scheduler.scheduleAt(600) { subscriptions.value[2].dispose() }
  }
}

/// RxSwift's terminal scenario: the subscribers at 200 and 300 subscribe again (into `res1Again`,
/// `res2Again`) from inside their terminal event; the latest subscriptions are disposed at 350 and
/// 400; a third subscriber comes from 500 to 600.
private struct ResubscribingSubscribers {
  let res1: TestableObserver<Int>
  let res2: TestableObserver<Int>
  let res1Again: TestableObserver<Int>
  let res2Again: TestableObserver<Int>
  let res3: TestableObserver<Int>

  init(scheduler: TestScheduler, makeShared: @escaping () -> Observable<Int>) {
    res1 = scheduler.createObserver(Int.self)
    res2 = scheduler.createObserver(Int.self)
    res1Again = scheduler.createObserver(Int.self)
    res2Again = scheduler.createObserver(Int.self)
    res3 = scheduler.createObserver(Int.self)
    let ys = Slot<Observable<Int>?>(nil)
    let factory = Slot(makeShared)
    let subscription1 = Slot<(any Disposable)?>(nil)
    let subscription2 = Slot<(any Disposable)?>(nil)
    let subscription3 = Slot<(any Disposable)?>(nil)
    let (res1, res2, res1Again, res2Again, res3) = (res1, res2, res1Again, res2Again, res3)
    scheduler.scheduleAt(100) { ys.value = factory.value() }
    scheduler.scheduleAt(200) {
      subscription1.value = ys.value!.subscribe { event in
        res1.on(event)
        if event.isStopEvent { subscription1.value = ys.value!.subscribe(res1Again) }
      }
    }
    scheduler.scheduleAt(300) {
      subscription2.value = ys.value!.subscribe { event in
        res2.on(event)
        if event.isStopEvent { subscription2.value = ys.value!.subscribe(res2Again) }
      }
    }
    scheduler.scheduleAt(350) { subscription1.value?.dispose() }
    scheduler.scheduleAt(400) { subscription2.value?.dispose() }
    scheduler.scheduleAt(500) { subscription3.value = ys.value!.subscribe(res3) }
    scheduler.scheduleAt(600) { subscription3.value?.dispose() }
  }
}
