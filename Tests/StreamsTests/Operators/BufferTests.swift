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
