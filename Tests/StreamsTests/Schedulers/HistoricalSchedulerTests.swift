@_spi(StreamsInternal) import Streams
import StreamsTest
import Testing

/// `HistoricalScheduler`: virtual time over `RxTime`, intervals in seconds.
@Suite("HistoricalScheduler")
struct HistoricalSchedulerTests {
  /// 2023-11-14 22:13:20 UTC.
  static let start = RxTime(nanoseconds: 1_700_000_000_000_000_000)

  /// Seconds since `start` of the scheduler's clock.
  static func elapsed(_ scheduler: HistoricalScheduler) -> Int64 {
    (scheduler.clock.nanoseconds - start.nanoseconds) / 1_000_000_000
  }

  @Test("the clock starts at 1970 by default, and now is the clock")
  func initialClock() {
    let scheduler = HistoricalScheduler()
    #expect(scheduler.clock == RxTime(nanoseconds: 0))
    #expect(scheduler.now == RxTime(nanoseconds: 0))
    let later = HistoricalScheduler(initialClock: Self.start)
    #expect(later.now == Self.start)
  }

  @Test("relative work runs in time order at its exact time; work for now runs now")
  func relative() {
    let scheduler = HistoricalScheduler(initialClock: Self.start)
    let log = Protected<[String]>([])
    for (name, delay) in [
      ("b", RxTimeInterval.seconds(2)), ("a", .milliseconds(1500)),
      ("now", .seconds(0)), ("c", .seconds(2)),
    ] {
      _ = scheduler.scheduleRelative(name, dueTime: delay) { name in
        let nanoseconds = scheduler.clock.nanoseconds - Self.start.nanoseconds
        log.withLock { $0.append("\(name)@\(nanoseconds / 1_000_000)ms") }
        return Disposables.create()
      }
    }
    scheduler.start()
    #expect(log.withLock { $0 } == ["now@0ms", "a@1500ms", "b@2000ms", "c@2000ms"])
  }

  @Test("absolute and relative virtual scheduling take an RxTime and seconds")
  func virtualScheduling() {
    let scheduler = HistoricalScheduler(initialClock: Self.start)
    let log = Protected<[String]>([])
    _ = scheduler.scheduleAbsoluteVirtual("abs", time: Self.start.adding(.seconds(30))) { name in
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
    let log = Protected<[Int64]>([])
    for seconds in [10, 20, 30, 40] {
      _ = scheduler.scheduleRelative(seconds, dueTime: .seconds(seconds)) { seconds in
        log.withLock { $0.append(Int64(seconds)) }
        if seconds == 30 { scheduler.stop() }
        return Disposables.create()
      }
    }
    scheduler.advanceTo(Self.start.adding(.seconds(25)))
    #expect(log.withLock { $0 } == [10, 20])
    #expect(Self.elapsed(scheduler) == 25)
    scheduler.sleep(2.5)
    #expect(scheduler.now == Self.start.adding(.milliseconds(27_500)))
    scheduler.start()
    #expect(log.withLock { $0 } == [10, 20, 30])
    #expect(Self.elapsed(scheduler) == 30)
    scheduler.start()
    #expect(log.withLock { $0 } == [10, 20, 30, 40])
  }

  @Test("disposing scheduled work takes it out; disposing after it ran disposes its result")
  func disposal() {
    let scheduler = HistoricalScheduler(initialClock: Self.start)
    let log = Protected<[String]>([])
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
    let log = Protected<[String]>([])
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
      _ = scheduler.scheduleAbsoluteVirtual(value, time: Self.start.adding(.seconds(seconds))) {
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

  @Test("sleeping backwards stops with a message")
  func sleepBackwards() async {
    await #expect(processExitsWith: .failure) {
      HistoricalScheduler().sleep(-1)
    }
  }
}

@Suite("HistoricalSchedulerTimeConverter")
struct HistoricalSchedulerTimeConverterTests {
  @Test("conversions are the identity; offsets round to the nanosecond and saturate")
  func conversions() {
    let converter = HistoricalSchedulerTimeConverter()
    let time = RxTime(nanoseconds: 42)
    #expect(converter.convertFromVirtualTime(time) == time)
    #expect(converter.convertToVirtualTime(time) == time)
    #expect(converter.convertFromVirtualTimeInterval(1.25) == 1.25)
    #expect(converter.convertToVirtualTimeInterval(1.25) == 1.25)
    #expect(converter.offsetVirtualTime(time, offset: 1e-9) == RxTime(nanoseconds: 43))
    #expect(converter.offsetVirtualTime(time, offset: -1.5) == RxTime(nanoseconds: -1_499_999_958))
    #expect(converter.offsetVirtualTime(time, offset: 1e300) == RxTime(nanoseconds: Int64.max))
    #expect(
      converter.offsetVirtualTime(RxTime(nanoseconds: Int64.max - 1), offset: 1)
        == RxTime(nanoseconds: Int64.max))
    #expect(converter.offsetVirtualTime(time, offset: -1e300) == RxTime(nanoseconds: Int64.min))
    #expect(converter.compareVirtualTime(time, RxTime(nanoseconds: 43)) == .lessThan)
    #expect(converter.compareVirtualTime(time, time) == .equal)
    #expect(converter.compareVirtualTime(RxTime(nanoseconds: 43), time) == .greaterThan)
    #expect(converter.virtualTime(time, advancedBy: .microseconds(1)) == RxTime(nanoseconds: 1042))
  }
}
