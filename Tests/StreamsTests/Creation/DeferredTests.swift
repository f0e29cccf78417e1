import Streams
import StreamsTest
import Testing

private struct Failure: Error, Equatable {}

@Suite("deferred")
struct DeferredTests {
  @Test("calls the factory once per subscription")
  func perSubscription() {
    let calls = Locked(0)
    let source = Observable.deferred {
      let count = calls.withLock { value -> Int in
        value += 1
        return value
      }
      return Observable.just(count)
    }
    let values = Locked<[Int]>([])
    _ = source.subscribe(onNext: { value in values.withLock { $0.append(value) } })
    _ = source.subscribe(onNext: { value in values.withLock { $0.append(value) } })
    #expect(values.withLock { $0 } == [1, 2])
  }

  @Test("forwards the created observable's events and disposal")
  func forwards() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
    let res = scheduler.start { Observable.deferred { xs.asObservable() } }
    #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("disposal reaches the created observable")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 1), .next(100, 2)])
    let res = scheduler.start(disposed: 250) { Observable.deferred { xs.asObservable() } }
    #expect(res.events == [.next(210, 1)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("a throwing factory becomes an error")
  func throwingFactory() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start { Observable<Int>.deferred { throw Failure() } }
    #expect(res.events == [.error(200, Failure())])
  }
}
