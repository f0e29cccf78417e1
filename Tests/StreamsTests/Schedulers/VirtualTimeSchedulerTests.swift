import Foundation
import Streams
import StreamsTest
import Testing

/// The virtual-time behaviour the time-based operators rely on.
@Suite("VirtualTimeScheduler")
struct VirtualTimeSchedulerTests {
  @Test("actions run in time order, and in scheduling order within one tick")
  func ordering() {
    let scheduler = VirtualTimeScheduler()
    let log = Locked<[String]>([])
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
    let log = Locked<[Int]>([])
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

  @Test("what an action disposed while it ran returns is disposed at the action's time")
  func disposedWhileRunning() {
    let scheduler = VirtualTimeScheduler()
    let log = Locked<[String]>([])
    let token = SingleAssignmentDisposable()
    token.setDisposable(
      scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in
        token.dispose()
        return Disposables.create {
          log.withLock { $0.append("returned disposed@\(scheduler.clock)") }
        }
      })
    _ = scheduler.scheduleRelative((), dueTime: .seconds(9)) { _ in
      log.withLock { $0.append("next@\(scheduler.clock)") }
      return Disposables.create()
    }
    scheduler.start()
    #expect(log.withLock { $0 } == ["returned disposed@5", "next@9"])
  }

  @Test("work due .never never runs and does not move the clock to the end of time")
  func neverDue() {
    let scheduler = VirtualTimeScheduler()
    let log = Locked<[String]>([])
    _ = scheduler.scheduleRelative((), dueTime: .never) { _ in
      log.withLock { $0.append("never") }
      return Disposables.create()
    }
    _ = scheduler.schedulePeriodic((), startAfter: .never, period: .seconds(1)) { _ in
      log.withLock { $0.append("periodic") }
    }
    _ = scheduler.scheduleRelative((), dueTime: .seconds(3)) { _ in
      log.withLock { $0.append("three@\(scheduler.clock)") }
      return Disposables.create()
    }
    scheduler.start()
    #expect(log.withLock { $0 } == ["three@3"])
    #expect(scheduler.clock == 3)
  }

  @Test("now follows the clock at the resolution; intervals convert to rounded ticks")
  func nowAndTicks() {
    let scheduler = VirtualTimeScheduler(initialClock: 0, resolution: 0.001)
    #expect(scheduler.ticks(.milliseconds(250)) == 250)
    #expect(scheduler.ticks(.seconds(2)) == 2000)
    _ = scheduler.scheduleRelative((), dueTime: .milliseconds(40)) { _ in Disposables.create() }
    scheduler.start()
    #expect(scheduler.clock == 40)
    #expect(scheduler.now == Date(timeIntervalSince1970: 0.04))
  }

  @Test("periodic work built on relative scheduling fires at exact multiples of the period")
  func periodic() {
    let scheduler = TestScheduler(initialClock: 0)
    let log = Locked<[String]>([])
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
    let log = Locked<[Int]>([])
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
    let log = Locked<[Int]>([])
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

  @Test("disposing a finished action's disposable later does not cancel an action scheduled since")
  func staleDisposableAfterReuse() {
    let scheduler = VirtualTimeScheduler()
    let log = Locked<[Int]>([])
    let first = scheduler.scheduleRelative(1, dueTime: .seconds(1)) { value in
      log.withLock { $0.append(value) }
      return Disposables.create()
    }
    scheduler.advanceTo(1)
    // The finished action's queue item is spare now, but `first` still holds it: it must not be
    // reused for this action.
    _ = scheduler.scheduleRelative(2, dueTime: .seconds(1)) { value in
      log.withLock { $0.append(value) }
      return Disposables.create()
    }
    first.dispose()
    first.dispose()
    scheduler.start()
    #expect(log.withLock { $0 } == [1, 2])
  }

  @Test("disposing a cancelled action's disposable again does not cancel its reuse")
  func staleDisposableAfterCancel() {
    let scheduler = VirtualTimeScheduler()
    let log = Locked<[Int]>([])
    let first = scheduler.scheduleRelative(1, dueTime: .seconds(5)) { value in
      log.withLock { $0.append(value) }
      return Disposables.create()
    }
    first.dispose()
    _ = scheduler.scheduleRelative(2, dueTime: .seconds(5)) { value in
      log.withLock { $0.append(value) }
      return Disposables.create()
    }
    first.dispose()
    scheduler.start()
    #expect(log.withLock { $0 } == [2])
  }

  @Test("what an action returns is disposed with its disposable, or at once if disposed meanwhile")
  func resultDisposal() {
    let scheduler = VirtualTimeScheduler()
    let log = Locked<[String]>([])
    let later = scheduler.scheduleRelative("later", dueTime: .seconds(1)) { name in
      Disposables.create { log.withLock { $0.append(name) } }
    }
    let during = SingleAssignmentDisposable()
    during.setDisposable(
      scheduler.scheduleRelative("during", dueTime: .seconds(2)) { name in
        during.dispose()
        log.withLock { $0.append("returning") }
        return Disposables.create { log.withLock { $0.append(name) } }
      })
    scheduler.start()
    #expect(log.withLock { $0 } == ["returning", "during"])
    later.dispose()
    later.dispose()
    #expect(log.withLock { $0 } == ["returning", "during", "later"])
  }

  @Test(
    "the state of a run or cancelled action is released at once, a pending one with the scheduler")
  func stateRelease() {
    final class Token: Sendable {}
    weak var ran: Token?
    weak var cancelled: Token?
    weak var pending: Token?
    var scheduler: VirtualTimeScheduler? = VirtualTimeScheduler()
    var disposables: [any Disposable] = []
    do {
      let tokens = (Token(), Token(), Token())
      (ran, cancelled, pending) = tokens
      for (token, time) in [(tokens.0, 1), (tokens.1, 2), (tokens.2, 30)] {
        disposables.append(
          scheduler!.scheduleRelative(token, dueTime: .seconds(time)) { _ in
            Disposables.create()
          })
      }
    }
    disposables[1].dispose()
    scheduler?.advanceTo(10)
    #expect(ran == nil)
    #expect(cancelled == nil)
    #expect(pending != nil)
    // A pending action is released when both the scheduler and its disposable are gone (the
    // queue does not keep itself alive).
    scheduler = nil
    disposables = []
    #expect(pending == nil)
  }
}
