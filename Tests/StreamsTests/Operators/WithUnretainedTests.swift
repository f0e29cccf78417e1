import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {}

private final class Owner: Sendable {
  let name: String
  init(name: String) { self.name = name }
}

/// Holds the owner strongly until a scheduled action lets it go.
private final class OwnerSlot: @unchecked Sendable {
  // `@unchecked Sendable`: only the test's scheduler thread touches `owner`.
  var owner: Owner?
  init(_ owner: Owner) { self.owner = owner }
}

@Suite("withUnretained")
struct WithUnretainedTests {
  @Test("pairs each element with the object")
  func values() {
    let scheduler = TestScheduler(initialClock: 0)
    let owner = Owner(name: "o")
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
    let res = scheduler.start { xs.withUnretained(owner).map { "\($0.0.name)\($0.1)" } }
    #expect(res.events == [.next(210, "o1"), .next(220, "o2"), .completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("resultSelector combines the object and the element")
  func resultSelector() {
    let scheduler = TestScheduler(initialClock: 0)
    let owner = Owner(name: "o")
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
    let res = scheduler.start {
      xs.withUnretained(owner) { object, value in "\(object.name)-\(value)" }
    }
    #expect(res.events == [.next(210, "o-1"), .completed(250)])
  }

  @Test("completes at the first element after the object is gone, and disposes the source")
  func completesWhenObjectIsGone() {
    let scheduler = TestScheduler(initialClock: 0)
    let slot = OwnerSlot(Owner(name: "o"))
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(230, 2), .next(240, 3), .completed(300),
    ])
    let observable = Unchecked(xs.withUnretained(slot.owner!).map { $0.1 })
    let observer = scheduler.createObserver(Int.self)
    scheduler.scheduleAt(200) { _ = observable.value.subscribe(observer) }
    scheduler.scheduleAt(220) { slot.owner = nil }
    scheduler.start()
    #expect(observer.events == [.next(210, 1), .completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("does not retain the object")
  func doesNotRetain() {
    weak var weakOwner: Owner?
    let subject = PublishSubject<Int>()
    var received: [Int] = []
    var completed = false
    let subscription: any Disposable
    do {
      let owner = Owner(name: "o")
      weakOwner = owner
      subscription = subject.withUnretained(owner).subscribe(
        onNext: { received.append($0.1) }, onCompleted: { completed = true })
      subject.onNext(1)
    }
    #expect(weakOwner == nil)
    subject.onNext(2)
    #expect(received == [1])
    #expect(completed)
    subscription.dispose()
  }

  @Test("passes the source's error on")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let owner = Owner(name: "o")
    let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
    let res = scheduler.start { xs.withUnretained(owner).map { $0.1 } }
    #expect(res.events == [.next(210, 1), .error(220, TestError())])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("disposal mid-stream disposes the source")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let owner = Owner(name: "o")
    let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(250)])
    let res = scheduler.start(disposed: 220) { xs.withUnretained(owner).map { $0.1 } }
    #expect(res.events == [.next(210, 1)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }
}
