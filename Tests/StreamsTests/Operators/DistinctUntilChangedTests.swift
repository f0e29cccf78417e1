import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {}

private struct User: Equatable {
  var name: String
  var age: Int
}

@Suite("distinctUntilChanged")
struct DistinctUntilChangedTests {
  @Test("drops consecutive equal elements")
  func equatable() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(215, 2), .next(220, 3), .next(230, 3), .next(240, 2),
      .completed(250),
    ])
    let res = scheduler.start { xs.distinctUntilChanged() }
    #expect(res.events == [.next(210, 2), .next(220, 3), .next(240, 2), .completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("key selector compares by key")
  func keySelector() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, "a"), .next(220, "b"), .next(230, "cd"), .next(240, "ef"), .next(250, "g"),
      .completed(260),
    ])
    let res = scheduler.start { xs.distinctUntilChanged { $0.count } }
    #expect(res.events == [.next(210, "a"), .next(230, "cd"), .next(250, "g"), .completed(260)])
  }

  @Test("comparer keeps the last emitted element as the reference")
  func comparer() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 3), .next(230, 5), .next(240, 6), .completed(260),
    ])
    // 3 and 5 are each within 3 of their predecessor, but 5 is not within 3 of 1, the last
    // emitted element, so it passes.
    let res = scheduler.start { xs.distinctUntilChanged { abs($0 - $1) < 3 } }
    #expect(res.events == [.next(210, 1), .next(230, 5), .completed(260)])
  }

  @Test("key selector with comparer")
  func keySelectorAndComparer() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, "a"), .next(220, "A"), .next(230, "b"), .completed(260),
    ])
    let res = scheduler.start {
      xs.distinctUntilChanged({ $0.lowercased() }, comparer: { $0 == $1 })
    }
    #expect(res.events == [.next(210, "a"), .next(230, "b"), .completed(260)])
  }

  @Test("key path compares by property")
  func keyPath() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, User(name: "a", age: 1)), .next(220, User(name: "a", age: 2)),
      .next(230, User(name: "b", age: 2)), .completed(260),
    ])
    let res = scheduler.start { xs.distinctUntilChanged(at: \.name) }
    #expect(
      res.events == [
        .next(210, User(name: "a", age: 1)), .next(230, User(name: "b", age: 2)),
        .completed(260),
      ])
  }

  @Test("passes the source's error on")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 1), .error(230, TestError())])
    let res = scheduler.start { xs.distinctUntilChanged() }
    #expect(res.events == [.next(210, 1), .error(230, TestError())])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("a throw from the key selector or the comparer becomes an error")
  func throwing() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(260)])
    let res = scheduler.start {
      xs.distinctUntilChanged { value -> Int in
        if value == 2 { throw TestError() }
        return value
      }
    }
    #expect(res.events == [.next(210, 1), .error(220, TestError())])
    #expect(xs.subscriptions == [Subscription(200, 220)])

    let scheduler2 = TestScheduler(initialClock: 0)
    let ys = scheduler2.createHotObservable([.next(210, 1), .next(220, 2), .completed(260)])
    let res2 = scheduler2.start {
      ys.distinctUntilChanged { (_: Int, _: Int) -> Bool in throw TestError() }
    }
    // The first element is never compared.
    #expect(res2.events == [.next(210, 1), .error(220, TestError())])
    #expect(ys.subscriptions == [Subscription(200, 220)])
  }

  @Test("disposal mid-stream disposes the source")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .completed(260),
    ])
    let res = scheduler.start(disposed: 225) { xs.distinctUntilChanged() }
    #expect(res.events == [.next(210, 1), .next(220, 2)])
    #expect(xs.subscriptions == [Subscription(200, 225)])
  }
}
