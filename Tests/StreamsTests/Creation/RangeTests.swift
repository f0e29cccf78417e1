import Streams
import StreamsTest
import Testing

@Suite("range")
struct RangeTests {
  @Test("emits count consecutive integers")
  func values() {
    let events = Locked<[Event<Int>]>([])
    _ = Observable.range(start: 3, count: 3).subscribe { event in
      events.withLock { $0.append(event) }
    }
    #expect(events.withLock { $0 } == [.next(3), .next(4), .next(5), .completed])
  }

  @Test("count 0 completes at once")
  func zero() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start { Observable.range(start: 5, count: 0, scheduler: scheduler) }
    #expect(res.events == [.completed(201)])
  }

  @Test("on a scheduler: one action per element")
  func scheduled() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start {
      Observable.range(start: Int8(126), count: 2, scheduler: scheduler).map(Int.init)
    }
    #expect(res.events == [.next(201, 126), .next(202, 127), .completed(203)])
  }

  @Test("disposal stops the emission")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start(disposed: 203) {
      Observable.range(start: 0, count: 100, scheduler: scheduler)
    }
    #expect(res.events == [.next(201, 0), .next(202, 1)])
  }

  @Test("an observer that disposes mid-range stops it at once")
  func disposedByObserver() {
    let log = ScenarioLog()
    let slot = SubscriptionSlot()
    // Subscribed inside a trampoline action, the range starts once `subscribe` returned.
    _ = CurrentThreadScheduler.instance.schedule(()) { _ in
      slot.disposable = Observable.range(start: 0, count: 10).subscribe(
        onNext: { value in
          log.add("next \(value)")
          if value == 2 { slot.disposable?.dispose() }
        },
        onCompleted: { log.add("completed") })
      return Disposables.create()
    }
    #expect(log.lines == ["next 0", "next 1", "next 2"])
  }

  @Test("work queued on the trampoline during an element runs before the next element")
  func trampolineWorkBetweenElements() {
    let log = ScenarioLog()
    _ = Observable.range(start: 0, count: 3).subscribe(
      onNext: { value in
        log.add("next \(value)")
        if value == 1 { log.schedule("work") }
      },
      onCompleted: { log.add("completed") })
    #expect(log.lines == ["next 0", "next 1", "work", "next 2", "completed"])
  }

  @Test("two ranges started in one trampoline action take turns, element by element")
  func interleaved() {
    let log = ScenarioLog()
    _ = CurrentThreadScheduler.instance.schedule(()) { _ in
      _ = Observable.range(start: 0, count: 2).subscribe(
        onNext: { log.add("a\($0)") }, onCompleted: { log.add("a done") })
      _ = Observable.range(start: 0, count: 3).subscribe(
        onNext: { log.add("b\($0)") }, onCompleted: { log.add("b done") })
      return Disposables.create()
    }
    #expect(log.lines == ["a0", "b0", "a1", "b1", "a done", "b2", "b done"])
  }

  @Test("a negative count traps")
  func negativeCount() async {
    await #expect(processExitsWith: .failure) {
      _ = Observable.range(start: 0, count: -1)
    }
  }

  @Test("a range that overflows traps")
  func overflow() async {
    await #expect(processExitsWith: .failure) {
      _ = Observable.range(start: Int8.max, count: 2)
    }
  }
}
