import Foundation
import Streams
import StreamsTest
import Testing

/// A clock whose unit is a struct of its own (not `Comparable`): ordering comes from the
/// converter alone. One virtual minute per unit.
private struct Minute: Sendable, Equatable, CustomStringConvertible {
  let value: Int
  var description: String { "\(value)m" }
}

private struct MinuteConverter: VirtualTimeConverterType {
  typealias VirtualTimeUnit = Minute
  typealias VirtualTimeIntervalUnit = Int

  func convertFromVirtualTime(_ virtualTime: Minute) -> RxTime {
    Date(timeIntervalSince1970: Double(virtualTime.value) * 60)
  }
  func convertToVirtualTime(_ time: RxTime) -> Minute {
    Minute(value: Int(time.timeIntervalSince1970 / 60))
  }
  func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> Double {
    Double(virtualTimeInterval * 60)
  }
  func convertToVirtualTimeInterval(_ timeInterval: Double) -> Int { Int(timeInterval / 60) }
  func offsetVirtualTime(_ time: Minute, offset: Int) -> Minute {
    Minute(value: time.value + offset)
  }
  func compareVirtualTime(_ lhs: Minute, _ rhs: Minute) -> VirtualTimeComparison {
    lhs.value < rhs.value ? .lessThan : lhs.value == rhs.value ? .equal : .greaterThan
  }
}

// `@unchecked Sendable`: restated, as Swift asks of every subclass of an `@unchecked Sendable`
// class; it adds no state.
private final class MinuteScheduler: VirtualTimeScheduler<MinuteConverter>, @unchecked Sendable {
  init(initialClock: Minute = Minute(value: 0)) {
    super.init(initialClock: initialClock, converter: MinuteConverter())
  }
}

/// A scheduler over a converter of its own: the converter decides the units, the due times and
/// the order.
@Suite("VirtualTimeScheduler<Converter>")
struct VirtualTimeSchedulerConverterTests {
  @Test("the clock and now come from the converter")
  func clockAndNow() {
    let scheduler = MinuteScheduler(initialClock: Minute(value: 3))
    #expect(scheduler.clock == Minute(value: 3))
    #expect(scheduler.now == Date(timeIntervalSince1970: 180))
    #expect(scheduler.isEnabled == false)
  }

  @Test("relative work is due at convertToVirtualTime(now + dueTime); same-time work runs in order")
  func relativeOrdering() {
    let scheduler = MinuteScheduler()
    let log = Locked<[String]>([])
    for (name, seconds) in [("c", 150), ("a", 60), ("b", 119), ("d", 120), ("e", 30)] {
      _ = scheduler.scheduleRelative(name, dueTime: .seconds(seconds)) { name in
        log.withLock { $0.append("\(name)@\(scheduler.clock)") }
        return Disposables.create()
      }
    }
    scheduler.start()
    // 30 s truncates to minute 0 (now: no processing delay on the base class).
    #expect(log.withLock { $0 } == ["e@0m", "a@1m", "b@1m", "c@2m", "d@2m"])
    #expect(scheduler.clock == Minute(value: 2))
  }

  @Test("absolute and relative virtual scheduling are not adjusted; a past time runs now")
  func virtualScheduling() {
    let scheduler = MinuteScheduler(initialClock: Minute(value: 10))
    let log = Locked<[String]>([])
    _ = scheduler.scheduleAbsoluteVirtual("abs", time: Minute(value: 15)) { name in
      log.withLock { $0.append("\(name)@\(scheduler.clock)") }
      return Disposables.create()
    }
    _ = scheduler.scheduleRelativeVirtual("rel", dueTime: 2) { name in
      log.withLock { $0.append("\(name)@\(scheduler.clock)") }
      return Disposables.create()
    }
    _ = scheduler.scheduleAbsoluteVirtual("past", time: Minute(value: 4)) { name in
      log.withLock { $0.append("\(name)@\(scheduler.clock)") }
      return Disposables.create()
    }
    scheduler.start()
    #expect(log.withLock { $0 } == ["past@10m", "rel@12m", "abs@15m"])
  }

  @Test("advanceTo runs what is due by then and sets the clock; sleep moves it without running")
  func advanceAndSleep() {
    let scheduler = MinuteScheduler()
    let log = Locked<[String]>([])
    _ = scheduler.scheduleRelative((), dueTime: .seconds(60)) { _ in
      log.withLock { $0.append("1@\(scheduler.clock)") }
      scheduler.sleep(10)
      _ = scheduler.scheduleRelative((), dueTime: .seconds(120)) { _ in
        log.withLock { $0.append("2@\(scheduler.clock)") }
        return Disposables.create()
      }
      return Disposables.create()
    }
    scheduler.advanceTo(Minute(value: 5))
    #expect(log.withLock { $0 } == ["1@1m"])
    #expect(scheduler.clock == Minute(value: 11))
    scheduler.sleep(0)
    scheduler.advanceTo(Minute(value: 13))
    #expect(log.withLock { $0 } == ["1@1m", "2@13m"])
    #expect(scheduler.clock == Minute(value: 13))
  }

  @Test("stop ends the run after the running action; disposed work does not run")
  func stopAndDispose() {
    let scheduler = MinuteScheduler()
    let log = Locked<[String]>([])
    _ = scheduler.scheduleRelative((), dueTime: .seconds(60)) { _ in
      log.withLock { $0.append("first@\(scheduler.clock)") }
      let cancelled = scheduler.schedule(()) { _ in
        log.withLock { $0.append("cancelled") }
        return Disposables.create()
      }
      _ = scheduler.scheduleRelative((), dueTime: .seconds(60)) { _ in
        log.withLock { $0.append("later@\(scheduler.clock)") }
        return Disposables.create()
      }
      cancelled.dispose()
      scheduler.stop()
      return Disposables.create()
    }
    scheduler.start()
    #expect(log.withLock { $0 } == ["first@1m"])
    #expect(scheduler.isEnabled == false)
    scheduler.start()
    #expect(log.withLock { $0 } == ["first@1m", "later@2m"])
  }

  @Test("periodic work fires every period until disposed")
  func periodic() {
    let scheduler = MinuteScheduler()
    let log = Locked<[String]>([])
    let periodic = scheduler.schedulePeriodic(0, startAfter: .seconds(60), period: .seconds(120)) {
      count in
      log.withLock { $0.append("\(count)@\(scheduler.clock)") }
      return count + 1
    }
    _ = scheduler.scheduleAbsoluteVirtual((), time: Minute(value: 6)) { _ in
      periodic.dispose()
      return Disposables.create()
    }
    scheduler.start()
    #expect(log.withLock { $0 } == ["0@1m", "1@3m", "2@5m"])
  }

  @Test("operators run on it: interval, debounce")
  func operators() {
    let scheduler = MinuteScheduler()
    let log = Locked<[String]>([])
    let subject = PublishSubject<String>()
    let ticks = Observable<Int>.interval(.seconds(60), scheduler: scheduler).take(3)
      .subscribe(onNext: { value in log.withLock { $0.append("tick \(value)@\(scheduler.clock)") } }
      )
    let debounced = subject.debounce(.seconds(120), scheduler: scheduler)
      .subscribe(onNext: { value in log.withLock { $0.append("\(value)@\(scheduler.clock)") } })
    for (value, minute) in [("a", 1), ("b", 2), ("c", 10)] {
      _ = scheduler.scheduleAbsoluteVirtual(value, time: Minute(value: minute)) { value in
        subject.onNext(value)
        return Disposables.create()
      }
    }
    scheduler.start()
    #expect(
      log.withLock { $0 } == [
        "tick 0@1m", "tick 1@2m", "tick 2@3m", "b@4m", "c@12m",
      ])
    ticks.dispose()
    debounced.dispose()
  }

  @Test("a scheduler with pending work is released with its last reference, and the work's state")
  func release() {
    final class Token: Sendable {}
    weak var weakScheduler: MinuteScheduler?
    weak var pending: Token?
    do {
      let scheduler = MinuteScheduler()
      let token = Token()
      weakScheduler = scheduler
      pending = token
      _ = scheduler.scheduleRelative(token, dueTime: .seconds(600)) { _ in Disposables.create() }
      scheduler.advanceTo(Minute(value: 1))
    }
    #expect(weakScheduler == nil)
    #expect(pending == nil)
  }

  @Test("advanceTo a past time and sleeping backwards stop with a message")
  func misuse() async {
    await #expect(processExitsWith: .failure) {
      let scheduler = MinuteScheduler(initialClock: Minute(value: 5))
      scheduler.advanceTo(Minute(value: 4))
    }
    await #expect(processExitsWith: .failure) {
      let scheduler = MinuteScheduler(initialClock: Minute(value: 5))
      scheduler.sleep(-1)
    }
  }
}
