@_spi(StreamsInternal) import Streams
import StreamsTest
import Testing

/// The virtual-time behaviour the time-based operators rely on.
@Suite("VirtualTimeScheduler")
struct VirtualTimeSchedulerTests {
  @Test("actions run in time order, and in scheduling order within one tick")
  func ordering() {
    let scheduler = VirtualTimeScheduler()
    let log = Protected<[String]>([])
    for (name, delay) in [("c", 20), ("a", 10), ("b", 10), ("d", 20)] {
      _ = scheduler.scheduleRelative(name, dueTime: .seconds(delay)) { name in
        log.withLock { $0.append("\(name)@\(scheduler.clock)") }
        return Disposables.create()
      }
    }
    scheduler.start()
    #expect(log.withLock { $0 } == ["a@10", "b@10", "c@20", "d@20"])
  }

  @Test("a disposed action does not run")
  func disposal() {
    let scheduler = VirtualTimeScheduler()
    let log = Protected<[Int]>([])
    let first = scheduler.scheduleRelative(1, dueTime: .seconds(5)) { value in
      log.withLock { $0.append(value) }
      return Disposables.create()
    }
    _ = scheduler.scheduleRelative(2, dueTime: .seconds(6)) { value in
      log.withLock { $0.append(value) }
      return Disposables.create()
    }
    first.dispose()
    scheduler.start()
    #expect(log.withLock { $0 } == [2])
  }

  @Test("now follows the clock at the resolution; intervals convert to rounded ticks")
  func nowAndTicks() {
    let scheduler = VirtualTimeScheduler(initialClock: 0, resolution: 0.001)
    #expect(scheduler.ticks(.milliseconds(250)) == 250)
    #expect(scheduler.ticks(.seconds(2)) == 2000)
    _ = scheduler.scheduleRelative((), dueTime: .milliseconds(40)) { _ in Disposables.create() }
    scheduler.start()
    #expect(scheduler.clock == 40)
    #expect(scheduler.now == RxTime(nanoseconds: 40_000_000))
  }

  @Test("periodic work built on relative scheduling fires at exact multiples of the period")
  func periodic() {
    let scheduler = TestScheduler(initialClock: 0)
    let log = Protected<[String]>([])
    let periodic = scheduler.schedulePeriodic(0, startAfter: .seconds(5), period: .seconds(10)) {
      count in
      log.withLock { $0.append("\(count)@\(scheduler.clock)") }
      return count + 1
    }
    scheduler.scheduleAt(40) { periodic.dispose() }
    scheduler.start()
    #expect(log.withLock { $0 } == ["0@5", "1@15", "2@25", "3@35"])
  }

  @Test("TestScheduler moves work due now or earlier to the next tick")
  func processingDelay() {
    let scheduler = TestScheduler(initialClock: 0)
    let log = Protected<[Int]>([])
    scheduler.scheduleAt(100) {
      _ = scheduler.schedule(()) { _ in
        log.withLock { $0.append(scheduler.clock) }
        return Disposables.create()
      }
      _ = scheduler.scheduleRelative((), dueTime: .seconds(-5)) { _ in
        log.withLock { $0.append(scheduler.clock) }
        return Disposables.create()
      }
    }
    scheduler.start()
    #expect(log.withLock { $0 } == [101, 101])
  }

  @Test("advanceTo runs what is due up to that tick and stops there")
  func advance() {
    let scheduler = VirtualTimeScheduler()
    let log = Protected<[Int]>([])
    for time in [10, 20, 30] {
      _ = scheduler.scheduleRelative(time, dueTime: .seconds(time)) { time in
        log.withLock { $0.append(time) }
        return Disposables.create()
      }
    }
    scheduler.advanceTo(20)
    #expect(log.withLock { $0 } == [10, 20])
    #expect(scheduler.clock == 20)
    scheduler.start()
    #expect(log.withLock { $0 } == [10, 20, 30])
  }
}
