import Streams
import StreamsTest
import Testing

private struct TestFailure: Error, Equatable {}

@Suite("delaySubscription")
struct DelaySubscriptionTests {
  @Test("subscribes after the due time; events then pass through")
  func values() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([
      .next(50, 42), .next(60, 43), Recorded<Event<Int>>.completed(70),
    ])
    let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
    #expect(res.events == [.next(280, 42), .next(290, 43), .completed(300)])
    #expect(xs.subscriptions == [Subscription(230, 300)])
  }

  @Test("an error passes through")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([
      .next(50, 42), .next(60, 43), Recorded<Event<Int>>.error(70, TestFailure()),
    ])
    let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
    #expect(res.events == [.next(280, 42), .next(290, 43), .error(300, TestFailure())])
    #expect(xs.subscriptions == [Subscription(230, 300)])
  }

  @Test("disposal before the due time means no subscription at all")
  func disposedBeforeSubscribing() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(50, 42), Recorded<Event<Int>>.completed(70)])
    let res = scheduler.start(disposed: 220) {
      xs.delaySubscription(.seconds(30), scheduler: scheduler)
    }
    #expect(res.events == [])
    #expect(xs.subscriptions == [])
  }

  @Test("disposal after subscribing disposes the source")
  func disposedAfterSubscribing() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(50, 42), Recorded<Event<Int>>.completed(170)])
    let res = scheduler.start(disposed: 300) {
      xs.delaySubscription(.seconds(30), scheduler: scheduler)
    }
    #expect(res.events == [.next(280, 42)])
    #expect(xs.subscriptions == [Subscription(230, 300)])
  }
}
