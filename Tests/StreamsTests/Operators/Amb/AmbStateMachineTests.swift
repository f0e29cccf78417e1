import Streams
import StreamsTest
import Testing

/// The transitions of ``AmbStateMachine``: a winner that ends from inside the observer, disposal
/// while events are queued, and what an ended race lets go.
@Suite("AmbStateMachine")
struct AmbStateMachineTests {
  @Test(
    "a winner ending from inside the observer ends the race after what it queued",
    arguments: [false, true])
  func reentrantEnd(fails: Bool) {
    let log = ScenarioLog()
    let left = HandSource(log: log, name: "left")
    let right = HandSource(log: log, name: "right")
    var events: [Event<Int>] = []
    _ = left.observable.amb(right.observable).subscribe { event in
      events.append(event)
      guard event == .next(1) else { return }
      left.send(2)  // queued behind this element
      right.send(9)  // the loser: dropped
      if fails { left.fail(MultiTestError.first) } else { left.complete() }
      left.send(3)  // after the end: dropped
      events.append(.next(-1))
    }
    left.send(1)
    let end: Event<Int> = fails ? .error(MultiTestError.first) : .completed
    #expect(events == [.next(1), .next(-1), .next(2), end])
    #expect(log.lines == ["right disposed", "left disposed"])
  }

  @Test("disposal from inside the observer drops the queued events and releases them")
  func disposalMidFlight() {
    final class Box {}
    let left = PublishSubject<Box>()
    let right = PublishSubject<Box>()
    weak var weakQueued: Box?
    var count = 0
    var subscription: (any Disposable)?
    subscription = left.amb(right).subscribe(onNext: { _ in
      count += 1
      guard count == 1 else { return }
      do {
        let queued = Box()
        weakQueued = queued
        right.onNext(queued)  // the loser: dropped at once
        left.onNext(queued)  // the subject queues it behind this delivery
      }
      subscription?.dispose()
    })
    left.onNext(Box())
    #expect(count == 1)
    #expect(weakQueued == nil)
    #expect(!left.hasObservers && !right.hasObservers)
  }

  @Test("an ended race lets go of its observer without being disposed", arguments: [false, true])
  func releaseAfterEnd(fails: Bool) {
    final class Token {}
    let left = PublishSubject<Int>()
    let right = PublishSubject<Int>()
    weak var weakToken: Token?
    var subscription: (any Disposable)?
    do {
      let token = Token()
      weakToken = token
      subscription = left.amb(right).subscribe(
        onNext: { _ in withExtendedLifetime(token) {} }, onError: { _ in })
    }
    right.onNext(1)
    #expect(!left.hasObservers)
    #expect(weakToken != nil)
    if fails { right.onError(MultiTestError.first) } else { right.onCompleted() }
    #expect(weakToken == nil)
    #expect(!right.hasObservers)
    withExtendedLifetime(subscription) {}
  }
}
