import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {}

/// Test state touched from `@Sendable` scheduler actions, which all run on the test's thread.
private final class Slot<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}

@Suite("refCount")
struct RefCountTests {
  @Test("connects on the first subscriber and forwards values and completion")
  func connectsOnFirst() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250),
    ])
    let res = scheduler.start { xs.publish().refCount() }
    #expect(
      res.events == [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("forwards an error")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError())])
    let res = scheduler.start { xs.publish().refCount() }
    #expect(res.events == [.next(210, 1), .error(250, TestError())])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("disposing the last subscriber mid-stream disconnects")
  func disposeMidStream() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
    let res = scheduler.start(disposed: 235) { xs.replay(1).refCount() }
    #expect(res.events == [.next(210, 1)])
    #expect(xs.subscriptions == [Subscription(200, 235)])
  }

  @Test(
    "a subscriber that gets a terminal event while subscribing does not connect",
    arguments: [false, true])
  func doesNotConnectOnSynchronousTerminal(fails: Bool) {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1)])
    let subject = PublishSubject<Int>()
    if fails { subject.onError(TestError()) } else { subject.onCompleted() }
    let res = scheduler.start { xs.multicast(subject).refCount() }
    let terminal: Recorded<Event<Int>> = fails ? .error(200, TestError()) : .completed(200)
    #expect(res.events == [terminal])
    #expect(xs.subscriptions == [])
  }

  @Test("the source stays connected until the last subscriber leaves")
  func countsSubscribers() {
    let subscriptions = Slot(0)
    let disconnections = Slot(0)
    let source = Observable<Int>.create { _ in
      subscriptions.value += 1
      return Disposables.create { disconnections.value += 1 }
    }
    let shared = source.publish().refCount()
    let first = shared.subscribe()
    #expect(subscriptions.value == 1)
    let second = shared.subscribe()
    #expect(subscriptions.value == 1)
    first.dispose()
    #expect(disconnections.value == 0)
    first.dispose()
    #expect(disconnections.value == 0)
    second.dispose()
    #expect(disconnections.value == 1)
    let third = shared.subscribe()
    #expect(subscriptions.value == 2)
    third.dispose()
    #expect(disconnections.value == 2)
  }

  @Test("overlapping subscribers share one connection; a new one after zero reconnects")
  func publishRefCount() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(260, 6),
      .next(270, 7), .next(280, 8), .next(290, 9), .completed(300),
    ])
    let res = Slot(xs.publish().refCount())
    let observers = (0..<4).map { _ in scheduler.createObserver(Int.self) }
    let windows = [(215, 235), (225, 275), (255, 265), (285, 320)]
    for (observer, window) in zip(observers, windows) {
      let subscription = Slot<(any Disposable)?>(nil)
      scheduler.scheduleAt(window.0) { subscription.value = res.value.subscribe(observer) }
      scheduler.scheduleAt(window.1) { subscription.value?.dispose() }
    }
    scheduler.start()
    #expect(observers[0].events == [.next(220, 2), .next(230, 3)])
    #expect(
      observers[1].events == [
        .next(230, 3), .next(240, 4), .next(250, 5), .next(260, 6), .next(270, 7),
      ])
    #expect(observers[2].events == [.next(260, 6)])
    #expect(observers[3].events == [.next(290, 9), .completed(300)])
    #expect(xs.subscriptions == [Subscription(215, 275), Subscription(285, 300)])
  }

  @Test(
    "subscribers that subscribe again on the terminal event start a new connection",
    arguments: [false, true])
  func resubscribeOnTerminal(fails: Bool) {
    let scheduler = TestScheduler(initialClock: 0)
    func terminal(_ time: TestTime) -> Recorded<Event<Int>> {
      fails ? .error(time, TestError()) : .completed(time)
    }
    let xs1 = scheduler.createColdObservable([.next(10, 1), terminal(20)])
    let xs2 = scheduler.createColdObservable([.next(10, 2), terminal(30)])
    let xs3 = scheduler.createColdObservable([.next(10, 3), terminal(40)])
    let attempts = Slot(0)
    let sources = [xs1, xs2, xs3]
    let xs = Observable<Int>.create { observer in
      defer { attempts.value += 1 }
      return sources[min(attempts.value, 2)].subscribe(observer)
    }
    let res = Slot(xs.multicast(makeSubject: { PublishSubject<Int>() }).refCount())
    let o1 = scheduler.createObserver(Int.self)
    let o2 = scheduler.createObserver(Int.self)
    let o3 = scheduler.createObserver(Int.self)
    for (observer, time) in [(o1, 215), (o2, 220)] {
      scheduler.scheduleAt(time) {
        _ = res.value.subscribe { event in
          observer.on(event)
          if event.isStopEvent { _ = res.value.subscribe(observer) }
        }
      }
    }
    scheduler.scheduleAt(400) { _ = res.value.subscribe(o3) }
    scheduler.start()
    let expected = [.next(225, 1), terminal(235), .next(245, 2), terminal(265)]
    #expect(o1.events == expected)
    #expect(o2.events == expected)
    #expect(o3.events == [.next(410, 3), terminal(440)])
    #expect(xs1.subscriptions == [Subscription(215, 235)])
    #expect(xs2.subscriptions == [Subscription(235, 265)])
    #expect(xs3.subscriptions == [Subscription(400, 440)])
  }

  @Test("every object is released after the subscribers leave or the source ends")
  func releasesResources() async {
    await #expect(processExitsWith: .success) {
      let before = Resources.total
      do {
        let subject = PublishSubject<Int>()
        let shared = subject.publish().refCount()
        let first = shared.subscribe(onNext: { _ in })
        let second = shared.subscribe(onNext: { _ in })
        subject.onNext(1)
        first.dispose()
        second.dispose()
        _ = shared.subscribe(onNext: { _ in })
        subject.onCompleted()
      }
      precondition(Resources.total == before, "leaked \(Resources.total - before) objects")
    }
  }
}
