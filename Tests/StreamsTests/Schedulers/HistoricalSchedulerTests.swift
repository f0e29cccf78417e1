import Foundation
import Streams
import StreamsTest
import Testing

/// `HistoricalScheduler`: virtual time over `Date`, intervals in seconds.
@Suite("HistoricalScheduler")
struct HistoricalSchedulerTests {
  /// 2023-11-14 22:13:20 UTC.
  static let start = Date(timeIntervalSince1970: 1_700_000_000)

  /// Seconds since `start` of the scheduler's clock.
  static func elapsed(_ scheduler: HistoricalScheduler) -> Int64 {
    Int64(scheduler.clock.timeIntervalSince(start))
  }

  @Test("the clock starts at 1970 by default, and now is the clock")
  func initialClock() {
    let scheduler = HistoricalScheduler()
    #expect(scheduler.clock == Date(timeIntervalSince1970: 0))
    #expect(scheduler.now == Date(timeIntervalSince1970: 0))
    let later = HistoricalScheduler(initialClock: Self.start)
    #expect(later.now == Self.start)
  }

  @Test("relative work runs in time order at its exact time; work for now runs now")
  func relative() {
    let scheduler = HistoricalScheduler(initialClock: Self.start)
    let log = Locked<[String]>([])
    for (name, delay) in [
      ("b", RxTimeInterval.seconds(2)), ("a", .milliseconds(1500)),
      ("now", .seconds(0)), ("c", .seconds(2)),
    ] {
      _ = scheduler.scheduleRelative(name, dueTime: delay) { name in
        let milliseconds = Int((scheduler.clock.timeIntervalSince(Self.start) * 1000).rounded())
        log.withLock { $0.append("\(name)@\(milliseconds)ms") }
        return Disposables.create()
      }
    }
    scheduler.start()
    #expect(log.withLock { $0 } == ["now@0ms", "a@1500ms", "b@2000ms", "c@2000ms"])
  }

  @Test("absolute and relative virtual scheduling take a Date and seconds")
  func virtualScheduling() {
    let scheduler = HistoricalScheduler(initialClock: Self.start)
    let log = Locked<[String]>([])
    _ = scheduler.scheduleAbsoluteVirtual("abs", time: Self.start.addingTimeInterval(30)) { name in
      log.withLock { $0.append("\(name)@\(Self.elapsed(scheduler))") }
      return Disposables.create()
    }
    _ = scheduler.scheduleRelativeVirtual("rel", dueTime: 10.0) { name in
      log.withLock { $0.append("\(name)@\(Self.elapsed(scheduler))") }
      return Disposables.create()
    }
    scheduler.start()
    #expect(log.withLock { $0 } == ["rel@10", "abs@30"])
  }

  @Test("advanceTo, sleep and stop")
  func advanceSleepStop() {
    let scheduler = HistoricalScheduler(initialClock: Self.start)
    let log = Locked<[Int64]>([])
    for seconds in [10, 20, 30, 40] {
      _ = scheduler.scheduleRelative(seconds, dueTime: .seconds(seconds)) { seconds in
        log.withLock { $0.append(Int64(seconds)) }
        if seconds == 30 { scheduler.stop() }
        return Disposables.create()
      }
    }
    scheduler.advanceTo(Self.start.addingTimeInterval(25))
    #expect(log.withLock { $0 } == [10, 20])
    #expect(Self.elapsed(scheduler) == 25)
    scheduler.sleep(2.5)
    #expect(scheduler.now == Self.start.addingTimeInterval(27.5))
    scheduler.start()
    #expect(log.withLock { $0 } == [10, 20, 30])
    #expect(Self.elapsed(scheduler) == 30)
    scheduler.start()
    #expect(log.withLock { $0 } == [10, 20, 30, 40])
  }

  @Test("disposing scheduled work takes it out; disposing after it ran disposes its result")
  func disposal() {
    let scheduler = HistoricalScheduler(initialClock: Self.start)
    let log = Locked<[String]>([])
    let cancelled = scheduler.scheduleRelative("cancelled", dueTime: .seconds(1)) { name in
      log.withLock { $0.append(name) }
      return Disposables.create()
    }
    let ran = scheduler.scheduleRelative("ran", dueTime: .seconds(2)) { name in
      log.withLock { $0.append(name) }
      return Disposables.create { log.withLock { $0.append("\(name) disposed") } }
    }
    cancelled.dispose()
    scheduler.start()
    #expect(log.withLock { $0 } == ["ran"])
    ran.dispose()
    #expect(log.withLock { $0 } == ["ran", "ran disposed"])
  }

  @Test("periodic work and operators: interval, debounce")
  func operators() {
    let scheduler = HistoricalScheduler(initialClock: Self.start)
    let log = Locked<[String]>([])
    let subject = PublishSubject<String>()
    let ticks = Observable<Int>.interval(.seconds(60), scheduler: scheduler).take(2)
      .subscribe(
        onNext: { value in log.withLock { $0.append("tick \(value)@\(Self.elapsed(scheduler))") } },
        onCompleted: { log.withLock { $0.append("ticks done@\(Self.elapsed(scheduler))") } })
    let debounced = subject.debounce(.milliseconds(500), scheduler: scheduler)
      .subscribe(onNext: { value in
        log.withLock { $0.append("\(value)@\(Self.elapsed(scheduler))") }
      })
    for (value, seconds) in [("a", 1), ("b", 90), ("c", 200)] {
      _ = scheduler.scheduleAbsoluteVirtual(
        value, time: Self.start.addingTimeInterval(Double(seconds))
      ) {
        value in
        subject.onNext(value)
        if value == "b" { subject.onNext("b2") }
        return Disposables.create()
      }
    }
    scheduler.start()
    // Debounced elements land half a second after their time: the elapsed seconds truncate.
    #expect(
      log.withLock { $0 } == [
        "a@1", "tick 0@60", "b2@90", "tick 1@120", "ticks done@120", "c@200",
      ])
    ticks.dispose()
    debounced.dispose()
  }

  @Test("work at dates before 1970, between 1970 and 2001 and after runs in date order")
  func ordersDatesAcrossEpochs() {
    // `Date` keeps seconds since 2001 in a `Double`; the queue orders its bit patterns, so
    // negative ones (before 2001), both zeros and fractions must keep the dates' order.
    let scheduler = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: -1e9))
    let dates: [(String, Date)] = [
      ("2001+1", Date(timeIntervalSinceReferenceDate: 1)),
      ("1969", Date(timeIntervalSince1970: -86_400)),
      ("2001", Date(timeIntervalSinceReferenceDate: 0)),
      ("2001-0.5", Date(timeIntervalSinceReferenceDate: -0.5)),
      ("1970", Date(timeIntervalSince1970: 0)),
      ("2023", Self.start),
      ("1938", Date(timeIntervalSince1970: -1e9 + 1)),
      // The same date as "2001", scheduled after it: runs after it, not before.
      ("2001 again", Date(timeIntervalSinceReferenceDate: -0.0)),
    ]
    let log = Locked<[String]>([])
    for (name, date) in dates {
      _ = scheduler.scheduleAbsoluteVirtual(name, time: date) { name in
        log.withLock { $0.append(name) }
        return Disposables.create()
      }
    }
    scheduler.start()
    #expect(
      log.withLock { $0 } == [
        "1938", "1969", "1970", "2001-0.5", "2001", "2001 again", "2001+1", "2023",
      ])
    #expect(scheduler.clock == Self.start)
  }

  @Test("sleeping backwards stops with a message")
  func sleepBackwards() async {
    await #expect(processExitsWith: .failure) {
      HistoricalScheduler().sleep(-1)
    }
  }
}

@Suite("HistoricalSchedulerTimeConverter")
struct HistoricalSchedulerTimeConverterTests {
  @Test("conversions are the identity; offsets and advances are Date arithmetic")
  func conversions() {
    let converter = HistoricalSchedulerTimeConverter()
    let time = Date(timeIntervalSince1970: 42)
    #expect(converter.convertFromVirtualTime(time) == time)
    #expect(converter.convertToVirtualTime(time) == time)
    #expect(converter.convertFromVirtualTimeInterval(1.25) == 1.25)
    #expect(converter.convertToVirtualTimeInterval(1.25) == 1.25)
    #expect(converter.offsetVirtualTime(time, offset: 1.5) == Date(timeIntervalSince1970: 43.5))
    #expect(converter.offsetVirtualTime(time, offset: -42) == Date(timeIntervalSince1970: 0))
    let later = Date(timeIntervalSince1970: 43)
    #expect(converter.compareVirtualTime(time, later) == .lessThan)
    #expect(converter.compareVirtualTime(time, time) == .equal)
    #expect(converter.compareVirtualTime(later, time) == .greaterThan)
    #expect(
      converter.virtualTime(time, advancedBy: .milliseconds(500))
        == Date(timeIntervalSince1970: 42.5))
    #expect(converter.virtualTime(time, advancedBy: .never) == Date.distantFuture)
  }
}
