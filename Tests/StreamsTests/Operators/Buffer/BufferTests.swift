import Streams
import StreamsTest
import Testing

private struct TestFailure: Error, Equatable {}

@Suite("buffer(timeSpan:count:scheduler:)")
struct BufferTests {
  private static let source: [Recorded<Event<Int>>] = [
    .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5), .next(350, 6),
    .next(370, 7), .next(420, 8), .next(470, 9),
  ]

  @Test("a full buffer or the end of a window emits; completion emits the rest, even empty")
  func basic() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable(Self.source + [.completed(600)])
    let res = scheduler.start {
      xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler)
    }
    #expect(
      res.events == [
        .next(240, [1, 2, 3]), .next(310, [4]), .next(370, [5, 6, 7]), .next(440, [8]),
        .next(510, [9]), .next(580, []), .next(600, []), .completed(600),
      ])
    #expect(xs.subscriptions == [Subscription(200, 600)])
  }

  @Test("a window filled while the previous window's end starts its timer keeps its own timer")
  func timersStartedOutOfOrder() {
    // The window-1 timer is started by the end of window 0; while it is being scheduled, window 1
    // fills up and starts the window-2 timer. This is the order two threads can produce; the
    // stale window-1 timer must not replace the window-2 one.
    let scheduler = TestScheduler(initialClock: 0)
    let source = PublishSubject<Int>()
    let hooked = HookedScheduler(base: scheduler) { call in
      if call == 2 {
        source.onNext(1)
        source.onNext(2)
      }
    }
    let res = scheduler.start(disposed: 650) {
      source.buffer(timeSpan: .seconds(100), count: 2, scheduler: hooked)
    }
    #expect(
      res.events == [
        .next(300, []), .next(300, [1, 2]), .next(400, []), .next(500, []), .next(600, []),
      ])
  }

  @Test("as in RxSwift, the first window is scheduled before the source is subscribed")
  func windowBeforeSource() {
    // Actions due at the same instant run in the order they were scheduled: the window that ends
    // at 250 was scheduled before the cold source's element due at 250, so it closes first.
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(50, 20)])
    let res = scheduler.start(disposed: 400) {
      xs.buffer(timeSpan: .seconds(50), count: 5, scheduler: scheduler)
    }
    #expect(res.events == [.next(250, []), .next(300, [20]), .next(350, [])])
    #expect(xs.subscriptions == [Subscription(200, 400)])
  }

  @Test("an error drops the buffer")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable(Self.source + [.error(600, TestFailure())])
    let res = scheduler.start {
      xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler)
    }
    #expect(
      res.events == [
        .next(240, [1, 2, 3]), .next(310, [4]), .next(370, [5, 6, 7]), .next(440, [8]),
        .next(510, [9]), .next(580, []), .error(600, TestFailure()),
      ])
    #expect(xs.subscriptions == [Subscription(200, 600)])
  }

  @Test("disposal stops the windows")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable(Self.source + [.completed(600)])
    let res = scheduler.start(disposed: 360) {
      xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler)
    }
    #expect(res.events == [.next(240, [1, 2, 3]), .next(310, [4])])
    #expect(xs.subscriptions == [Subscription(200, 360)])
  }

  @Test("a count that is not positive stops the program")
  func badCount() async {
    await #expect(processExitsWith: .failure) {
      let scheduler = TestScheduler(initialClock: 0)
      _ = Observable<Int>.create { _ in Disposables.create() }
        .buffer(timeSpan: .seconds(1), count: 0, scheduler: scheduler)
    }
  }
}

/// A scheduler that runs `hook` with the call's number (from 1) before each `scheduleRelative`
/// it forwards to `base`.
///
/// `@unchecked Sendable`: `calls` and `hook` are only touched on the thread that drives the
/// `TestScheduler`.
private final class HookedScheduler: SchedulerType, @unchecked Sendable {
  private let base: TestScheduler
  private let hook: (Int) -> Void
  private var calls = 0

  init(base: TestScheduler, hook: @escaping (Int) -> Void) {
    self.base = base
    self.hook = hook
  }

  var now: RxTime { base.now }

  func schedule<StateType: Sendable>(
    _ state: StateType, action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    base.schedule(state, action: action)
  }

  func scheduleRelative<StateType: Sendable>(
    _ state: StateType, dueTime: RxTimeInterval,
    action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    calls += 1
    hook(calls)
    return base.scheduleRelative(state, dueTime: dueTime, action: action)
  }
}
