import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {}

private struct Indexed: Equatable {
  let index: Int
  let element: String
}

@Suite("enumerated")
struct EnumeratedTests {
  @Test("pairs each element with its index")
  func values() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, "z"), .next(210, "a"), .next(220, "b"), .next(230, "c"), .completed(250),
    ])
    let res = scheduler.start {
      xs.enumerated().map { Indexed(index: $0.index, element: $0.element) }
    }
    #expect(
      res.events == [
        .next(210, Indexed(index: 0, element: "a")), .next(220, Indexed(index: 1, element: "b")),
        .next(230, Indexed(index: 2, element: "c")), .completed(250),
      ])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("passes the source's error on")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, "a"), .error(220, TestError())])
    let res = scheduler.start { xs.enumerated().map(\.index) }
    #expect(res.events == [.next(210, 0), .error(220, TestError())])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("disposal mid-stream disposes the source; a new subscription counts from zero")
  func disposalAndRestart() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, "a"), .next(20, "b"), .next(30, "c")])
    let res = scheduler.start(disposed: 225) { xs.enumerated().map(\.index) }
    #expect(res.events == [.next(210, 0), .next(220, 1)])
    #expect(xs.subscriptions == [Subscription(200, 225)])

    var indexes: [Int] = []
    let synchronous = Observable<String>.create { observer in
      observer.onNext("x")
      observer.onNext("y")
      observer.onCompleted()
      return Disposables.create()
    }.enumerated()
    _ = synchronous.subscribe(onNext: { indexes.append($0.index) })
    _ = synchronous.subscribe(onNext: { indexes.append($0.index) })
    #expect(indexes == [0, 1, 0, 1])
  }
}
