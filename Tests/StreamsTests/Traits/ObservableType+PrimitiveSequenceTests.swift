import Streams
import StreamsTest
import Testing

@Suite("ObservableType to traits")
struct ObservableTypePrimitiveSequenceTests {
  @Test("asSingle: the element is emitted with the completion")
  func asSingle() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(250)])
    let res = scheduler.start { xs.asSingle().asObservable() }
    #expect(res.events == [.next(250, 2), .completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("asSingle: a second element fails with moreThanOneElement at once")
  func asSingleTwoElements() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
    let res = scheduler.start { xs.asSingle().asObservable() }
    #expect(res.events == [.error(220, RxError.moreThanOneElement)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("asSingle: completion without an element fails with noElements; errors pass")
  func asSingleEmpty() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
    #expect(
      scheduler.start { xs.asSingle().asObservable() }.events == [
        .error(250, RxError.noElements)
      ])
    let failing = TestScheduler(initialClock: 0)
    let ys = failing.createHotObservable([.next(210, 1), .error(250, TraitError())])
    #expect(failing.start { ys.asSingle().asObservable() }.events == [.error(250, TraitError())])
  }

  @Test("asSingle: disposal before completion")
  func asSingleDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(400)])
    #expect(scheduler.start(disposed: 300) { xs.asSingle().asObservable() }.events == [])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("asMaybe: one, none, two")
  func asMaybe() {
    let s1 = TestScheduler(initialClock: 0)
    let xs = s1.createHotObservable([.next(210, 1), .completed(250)])
    #expect(s1.start { xs.asMaybe().asObservable() }.events == [.next(250, 1), .completed(250)])
    let s2 = TestScheduler(initialClock: 0)
    let ys = s2.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
    #expect(s2.start { ys.asMaybe().asObservable() }.events == [.completed(250)])
    let s3 = TestScheduler(initialClock: 0)
    let zs = s3.createHotObservable([.next(210, 1), .next(230, 2), .completed(250)])
    #expect(
      s3.start { zs.asMaybe().asObservable() }.events == [
        .error(230, RxError.moreThanOneElement)
      ])
    #expect(zs.subscriptions == [Subscription(200, 230)])
  }
}
