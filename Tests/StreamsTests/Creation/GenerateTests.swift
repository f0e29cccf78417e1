import Streams
import StreamsTest
import Testing

private struct Failure: Error, Equatable {}

@Suite("generate")
struct GenerateTests {
  @Test("emits states while the condition holds")
  func values() {
    let events = Locked<[Event<Int>]>([])
    _ = Observable.generate(initialState: 1, condition: { $0 < 20 }, iterate: { $0 * 3 })
      .subscribe { event in events.withLock { $0.append(event) } }
    #expect(events.withLock { $0 } == [.next(1), .next(3), .next(9), .completed])
  }

  @Test("on a scheduler: one action per state")
  func scheduled() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start {
      Observable.generate(
        initialState: 0, condition: { $0 <= 2 }, scheduler: scheduler, iterate: { $0 + 1 })
    }
    #expect(res.events == [.next(201, 0), .next(202, 1), .next(203, 2), .completed(204)])
  }

  @Test("a throwing condition becomes an error")
  func throwingCondition() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start {
      Observable.generate(
        initialState: 0,
        condition: { value in
          if value == 1 { throw Failure() }
          return true
        }, scheduler: scheduler, iterate: { $0 + 1 })
    }
    #expect(res.events == [.next(201, 0), .error(202, Failure())])
  }

  @Test("a throwing iterate becomes an error")
  func throwingIterate() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start {
      Observable.generate(
        initialState: 0, condition: { _ in true }, scheduler: scheduler,
        iterate: { _ in throw Failure() })
    }
    #expect(res.events == [.next(201, 0), .error(202, Failure())])
  }

  @Test("disposal stops the iteration")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start(disposed: 203) {
      Observable.generate(
        initialState: 0, condition: { _ in true }, scheduler: scheduler, iterate: { $0 + 1 })
    }
    #expect(res.events == [.next(201, 0), .next(202, 1)])
  }

  @Test("an infinite generator is stopped by take on the trampoline")
  func infiniteTake() {
    let events = Locked<[Event<Int>]>([])
    _ = Observable.generate(initialState: 0, condition: { _ in true }, iterate: { $0 + 1 })
      .take(2)
      .subscribe { event in events.withLock { $0.append(event) } }
    #expect(events.withLock { $0 } == [.next(0), .next(1), .completed])
  }
}
