import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {}

@Suite("toArray")
struct ToArrayTests {
  @Test("emits every element as one array at completion")
  func values() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(220, 3), .completed(250),
    ])
    let res = scheduler.start { xs.toArray().asObservable() }
    #expect(res.events == [.next(250, [2, 3]), .completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("an empty source yields an empty array")
  func empty() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
    let res = scheduler.start { xs.toArray().asObservable() }
    #expect(res.events == [.next(250, []), .completed(250)])
  }

  @Test("the source's error ends it without the partial array")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .error(220, TestError())])
    let res = scheduler.start { xs.toArray().asObservable() }
    #expect(res.events == [.error(220, TestError())])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("disposal before completion emits nothing and disposes the source")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
    let res = scheduler.start(disposed: 230) { xs.toArray().asObservable() }
    #expect(res.events.isEmpty)
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("every subscription collects its own elements")
  func perSubscription() {
    var received: [[Int]] = []
    let source = Observable<Int>.create { observer in
      observer.onNext(1)
      observer.onNext(2)
      observer.onCompleted()
      return Disposables.create()
    }.toArray()
    _ = source.subscribe(onSuccess: { received.append($0) })
    _ = source.subscribe(onSuccess: { received.append($0) })
    #expect(received == [[1, 2], [1, 2]])
  }
}
