import Dispatch
import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {}

@Suite("window(timeSpan:count:scheduler:)")
struct WindowTests {
  static func source(_ scheduler: TestScheduler, end: Recorded<Event<Int>> = .completed(600))
    -> TestableObservable<Int>
  {
    scheduler.createHotObservable([
      .next(150, 0), .next(205, 1), .next(215, 2), .next(250, 3), .next(290, 4), .next(330, 5),
      .next(340, 6), .next(345, 7), .next(430, 8), .next(480, 9), end,
    ])
  }

  /// Each element tagged with the index of its window, windows merged.
  static func tagged(_ windows: Observable<Observable<Int>>) -> Observable<String> {
    windows.enumerated().map { index, window in window.map { "\(index):\($0)" } }.merge()
  }

  @Test("windows end when full or when the time span has passed")
  func basic() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Self.source(scheduler)
    let res = scheduler.start {
      Self.tagged(xs.window(timeSpan: .seconds(60), count: 3, scheduler: scheduler))
    }
    // Windows open at 200, 250 (0 is full), 310 (1's time span), 345 (2 is full),
    // 405 (3's time span), 465, 525, 585.
    #expect(
      res.events == [
        .next(205, "0:1"), .next(215, "0:2"), .next(250, "0:3"), .next(290, "1:4"),
        .next(330, "2:5"), .next(340, "2:6"), .next(345, "2:7"), .next(430, "4:8"),
        .next(480, "5:9"), .completed(600),
      ])
    #expect(xs.subscriptions == [Subscription(200, 600)])
  }

  @Test("the first window opens at subscription; empty windows are emitted too")
  func openingTimes() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Self.source(scheduler)
    let res = scheduler.start {
      xs.window(timeSpan: .seconds(60), count: 3, scheduler: scheduler).enumerated().map {
        index, _ in index
      }
    }
    #expect(
      res.events == [
        .next(200, 0), .next(250, 1), .next(310, 2), .next(345, 3), .next(405, 4),
        .next(465, 5), .next(525, 6), .next(585, 7), .completed(600),
      ])
  }

  @Test("each window completes before the next one is emitted")
  func windowCompletion() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
    var log: [String] = []
    scheduler.scheduleAt(200) {
      _ = xs.window(timeSpan: .seconds(50), count: 2, scheduler: scheduler).enumerated()
        .subscribe(
          onNext: { index, window in
            log.append("open \(index) @\(scheduler.clock)")
            _ = window.subscribe(
              onNext: { log.append("\(index): \($0)") },
              onCompleted: { log.append("close \(index) @\(scheduler.clock)") })
          }, onCompleted: { log.append("completed @\(scheduler.clock)") })
    }
    scheduler.start()
    #expect(
      log == [
        "open 0 @200", "0: 1", "0: 2", "close 0 @220", "open 1 @220", "close 1 @270",
        "open 2 @270", "close 2 @300", "completed @300",
      ])
  }

  @Test("a source error fails the open window, then the outer sequence")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Self.source(scheduler, end: .error(600, TestError()))
    let res = scheduler.start {
      Self.tagged(xs.window(timeSpan: .seconds(60), count: 3, scheduler: scheduler))
    }
    #expect(res.events.last == .error(600, TestError()))
    #expect(res.events.count == 10)
    #expect(xs.subscriptions == [Subscription(200, 600)])
  }

  @Test("disposal mid-stream disposes the source and the timer")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Self.source(scheduler)
    let res = scheduler.start(disposed: 340) {
      Self.tagged(xs.window(timeSpan: .seconds(60), count: 3, scheduler: scheduler))
    }
    #expect(
      res.events == [
        .next(205, "0:1"), .next(215, "0:2"), .next(250, "0:3"), .next(290, "1:4"),
        .next(330, "2:5"), .next(340, "2:6"),
      ])
    #expect(xs.subscriptions == [Subscription(200, 340)])
  }

  @Test("a window subscriber keeps the source running after the outer subscription ends")
  func windowOutlivesOuter() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Self.source(scheduler)
    let observer = scheduler.createObserver(Int.self)
    var outer: (any Disposable)?
    var inner: (any Disposable)?
    scheduler.scheduleAt(200) {
      outer = xs.window(timeSpan: .seconds(1000), count: 100, scheduler: scheduler)
        .subscribe(onNext: { window in inner = window.subscribe(observer) })
    }
    scheduler.scheduleAt(220) { outer?.dispose() }
    scheduler.scheduleAt(300) { inner?.dispose() }
    scheduler.start()
    #expect(observer.events == [.next(205, 1), .next(215, 2), .next(250, 3), .next(290, 4)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("an ended subscription releases the observers")
  func lifetime() {
    final class Token { var count = 0 }
    for completes in [false, true] {
      let scheduler = TestScheduler(initialClock: 0)
      let subject = PublishSubject<Int>()
      weak var weakOuter: Token?
      weak var weakInner: Token?
      var outer: (any Disposable)?
      var inner: (any Disposable)?
      do {
        let outerToken = Token()
        let innerToken = Token()
        weakOuter = outerToken
        weakInner = innerToken
        outer = subject.window(timeSpan: .seconds(10), count: 2, scheduler: scheduler)
          .subscribe(onNext: { window in
            outerToken.count += 1
            inner = window.subscribe(onNext: { _ in innerToken.count += 1 })
          })
        scheduler.advanceTo(5)
        subject.onNext(1)
        #expect(innerToken.count == 1)
      }
      if completes {
        subject.onCompleted()
      } else {
        outer?.dispose()
        inner?.dispose()
      }
      scheduler.start()
      #expect(weakOuter == nil)
      #expect(weakInner == nil)
      #expect(!subject.hasObservers)
      withExtendedLifetime((outer, inner)) {}
    }
  }

  @Test("elements and window ends racing on two threads keep every element once, in order")
  func concurrentTimer() async {
    let subject = PublishSubject<Int>()
    let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
    let collected = Collected()
    let done = DispatchSemaphore(value: 0)
    let subscription = subject.window(timeSpan: .microseconds(50), count: 7, scheduler: scheduler)
      .merge()
      .subscribe(
        onNext: { collected.append($0) }, onCompleted: { done.signal() })
    await Task.detached { @Sendable in
      for value in 0..<20_000 { subject.onNext(value) }
      subject.onCompleted()
    }.value
    done.wait()
    #expect(collected.values == Array(0..<20_000))
    subscription.dispose()
  }

  @Test("a count below one stops the program with a message")
  func badCount() async {
    await #expect(processExitsWith: .failure) {
      let scheduler = TestScheduler(initialClock: 0)
      _ = Observable.just(1).window(timeSpan: .seconds(1), count: 0, scheduler: scheduler)
    }
  }
}

/// Collects values from any thread.
private final class Collected: @unchecked Sendable {
  // `@unchecked Sendable`: `storage` is only touched on the serial `queue`.
  private var storage: [Int] = []
  private let queue = DispatchQueue(label: "WindowTests.Collected")

  var values: [Int] { queue.sync { storage } }

  func append(_ value: Int) { queue.sync { storage.append(value) } }
}
