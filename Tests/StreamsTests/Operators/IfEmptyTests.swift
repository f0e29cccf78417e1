import Streams
import StreamsTest
import Testing

private struct Failure: Error, Equatable {}

@Suite("ifEmpty")
struct IfEmptyTests {
  @Test("default: emitted only for an empty source")
  func defaultValue() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([Recorded<Event<Int>>.completed(300)])
    let res = scheduler.start { xs.ifEmpty(default: 7) }
    #expect(res.events == [.next(300, 7), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])

    let scheduler2 = TestScheduler(initialClock: 0)
    let ys = scheduler2.createHotObservable([.next(210, 1), .completed(300)])
    let res2 = scheduler2.start { ys.ifEmpty(default: 7) }
    #expect(res2.events == [.next(210, 1), .completed(300)])
  }

  @Test("default: an error passes through")
  func defaultError() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([Recorded<Event<Int>>.error(250, Failure())])
    let res = scheduler.start { xs.ifEmpty(default: 7) }
    #expect(res.events == [.error(250, Failure())])
  }

  @Test("default: disposal disposes the source")
  func defaultDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([Recorded<Event<Int>>.completed(300)])
    let res = scheduler.start(disposed: 250) { xs.ifEmpty(default: 7) }
    #expect(res.events.isEmpty)
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("switchTo: continues with the other sequence for an empty source")
  func switchTo() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([Recorded<Event<Int>>.completed(300)])
    let ys = scheduler.createColdObservable([.next(10, 5), .completed(20)])
    let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
    #expect(res.events == [.next(310, 5), .completed(320)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
    #expect(ys.subscriptions == [Subscription(300, 320)])
  }

  @Test("switchTo: a non-empty source never subscribes the other sequence")
  func switchToNonEmpty() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
    let ys = scheduler.createColdObservable([.next(10, 5), .completed(20)])
    let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
    #expect(res.events == [.next(210, 1), .completed(300)])
    #expect(ys.subscriptions.isEmpty)
  }

  @Test("switchTo: errors from either sequence pass through")
  func switchToErrors() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([Recorded<Event<Int>>.error(250, Failure())])
    let ys = scheduler.createColdObservable([.next(10, 5)])
    let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
    #expect(res.events == [.error(250, Failure())])
    #expect(ys.subscriptions.isEmpty)

    let scheduler2 = TestScheduler(initialClock: 0)
    let xs2 = scheduler2.createHotObservable([Recorded<Event<Int>>.completed(300)])
    let ys2 = scheduler2.createColdObservable([Recorded<Event<Int>>.error(10, Failure())])
    let res2 = scheduler2.start { xs2.ifEmpty(switchTo: ys2.asObservable()) }
    #expect(res2.events == [.error(310, Failure())])
    #expect(ys2.subscriptions == [Subscription(300, 310)])
  }

  @Test("switchTo: disposal disposes the other sequence")
  func switchToDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([Recorded<Event<Int>>.completed(300)])
    let ys = scheduler.createColdObservable([.next(10, 5), .next(900, 6)])
    let res = scheduler.start(disposed: 400) { xs.ifEmpty(switchTo: ys.asObservable()) }
    #expect(res.events == [.next(310, 5)])
    #expect(ys.subscriptions == [Subscription(300, 400)])
  }
}
