import Dispatch
import Foundation
import Streams
import StreamsTest
import Testing

@Suite("TestScheduler")
struct TestSchedulerTests {
  @Test("cold observable events are relative to the subscription")
  func cold() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, "a"), .completed(20)])
    let res = scheduler.start { xs.asObservable() }
    #expect(res.events == [.next(210, "a"), .completed(220)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("actions due at the same tick run in the order they were scheduled")
  func sameTickOrder() {
    let scheduler = TestScheduler(initialClock: 0)
    let log = Log<String>()
    scheduler.scheduleAt(20) { log.append("b@\(scheduler.clock)") }
    scheduler.scheduleAt(10) { log.append("a@\(scheduler.clock)") }
    scheduler.scheduleAt(20) {
      log.append("c@\(scheduler.clock)")
      // Scheduled from inside tick 20 for tick 20: runs after the ones already queued.
      scheduler.scheduleAt(20) { log.append("e@\(scheduler.clock)") }
    }
    scheduler.scheduleAt(20) { log.append("d@\(scheduler.clock)") }
    scheduler.start()
    #expect(log.values == ["a@10", "b@20", "c@20", "d@20", "e@20"])
  }

  @Test("scheduleRelative maps intervals to ticks through the resolution")
  func relativeResolution() {
    let log = Log<Int>()
    let seconds = TestScheduler(initialClock: 0)
    _ = seconds.scheduleRelative((), dueTime: .seconds(10)) { _ in
      log.append(seconds.clock)
      return Disposables.create()
    }
    seconds.start()
    let millis = TestScheduler(initialClock: 0, resolution: 0.001)
    _ = millis.scheduleRelative((), dueTime: .seconds(2)) { _ in
      log.append(millis.clock)
      return Disposables.create()
    }
    _ = millis.scheduleRelative((), dueTime: .milliseconds(15)) { _ in
      log.append(millis.clock)
      return Disposables.create()
    }
    millis.start()
    let tenths = TestScheduler(initialClock: 5, resolution: 0.1)
    _ = tenths.scheduleRelative((), dueTime: .milliseconds(1_500)) { _ in
      log.append(tenths.clock)
      return Disposables.create()
    }
    tenths.start()
    #expect(log.values == [10, 15, 2000, 20])
  }

  @Test("now is the clock times the resolution")
  func now() {
    let scheduler = TestScheduler(initialClock: 10, resolution: 0.5)
    #expect(scheduler.now == Date(timeIntervalSince1970: 5))
    scheduler.advanceTo(30)
    #expect(scheduler.now == Date(timeIntervalSince1970: 15))
  }

  @Test("work requested for now or the past runs one tick later (simulated processing delay)")
  func processingDelay() {
    let scheduler = TestScheduler(initialClock: 100)
    let log = Log<String>()
    _ = scheduler.schedule(()) { _ in
      log.append("immediate@\(scheduler.clock)")
      _ = scheduler.scheduleRelative((), dueTime: .seconds(0)) { _ in
        log.append("zero@\(scheduler.clock)")
        return Disposables.create()
      }
      return Disposables.create()
    }
    scheduler.start()
    #expect(log.values == ["immediate@101", "zero@102"])
    #expect(scheduler.adjustScheduledTime(50) == 103)
    #expect(scheduler.adjustScheduledTime(102) == 103)
    #expect(scheduler.adjustScheduledTime(150) == 150)
  }

  @Test("without the processing delay, work for now runs at the current tick")
  func noProcessingDelay() {
    let scheduler = TestScheduler(initialClock: 100, simulateProcessingDelay: false)
    let log = Log<Int>()
    _ = scheduler.schedule(()) { _ in
      log.append(scheduler.clock)
      return Disposables.create()
    }
    scheduler.start()
    #expect(log.values == [100])
    #expect(scheduler.adjustScheduledTime(50) == 100)
  }

  @Test("absolute and relative virtual scheduling use exact ticks; the past runs at the clock")
  func absoluteScheduling() {
    let scheduler = TestScheduler(initialClock: 0)
    let log = Log<String>()
    scheduler.scheduleAt(0) { log.append("at0@\(scheduler.clock)") }
    _ = scheduler.scheduleAbsoluteVirtual((), time: 100) { _ in
      log.append("abs100@\(scheduler.clock)")
      scheduler.scheduleAt(50) { log.append("past@\(scheduler.clock)") }
      _ = scheduler.scheduleRelativeVirtual((), dueTime: 0) { _ in
        log.append("rel0@\(scheduler.clock)")
        return Disposables.create()
      }
      _ = scheduler.scheduleRelativeVirtual((), dueTime: 5) { _ in
        log.append("rel5@\(scheduler.clock)")
        return Disposables.create()
      }
      return Disposables.create()
    }
    scheduler.start()
    #expect(log.values == ["at0@0", "abs100@100", "past@100", "rel0@100", "rel5@105"])
    #expect(scheduler.clock == 105)
  }

  @Test("disposing a scheduled action before its time cancels it")
  func cancel() {
    let scheduler = TestScheduler(initialClock: 0)
    let log = Log<Int>()
    let first = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
      log.append(10)
      return Disposables.create()
    }
    _ = scheduler.scheduleRelative((), dueTime: .seconds(20)) { _ in
      log.append(20)
      return Disposables.create()
    }
    first.dispose()
    scheduler.start()
    #expect(log.values == [20])
  }

  @Test("periodic scheduling ticks after startAfter and then every period, threading the state")
  func periodic() {
    let scheduler = TestScheduler(initialClock: 0)
    let log = Log<String>()
    let periodic = scheduler.schedulePeriodic(0, startAfter: .seconds(10), period: .seconds(20)) {
      state in
      log.append("\(state)@\(scheduler.clock)")
      return state + 1
    }
    scheduler.advanceTo(70)
    #expect(log.values == ["0@10", "1@30", "2@50", "3@70"])
    periodic.dispose()
    scheduler.advanceTo(200)
    #expect(log.values.count == 4)
  }

  @Test("a periodic timer starting now starts one tick later and keeps that phase, as in RxTest")
  func periodicStartingNow() {
    let scheduler = TestScheduler(initialClock: 200)
    let log = Log<Int>()
    let periodic = scheduler.schedulePeriodic((), startAfter: .seconds(0), period: .seconds(10)) {
      log.append(scheduler.clock)
    }
    scheduler.advanceTo(235)
    periodic.dispose()
    #expect(log.values == [201, 211, 221, 231])
  }

  @Test("a periodic action can dispose its own schedule")
  func periodicSelfDispose() {
    let scheduler = TestScheduler(initialClock: 0)
    let log = Log<Int>()
    let holder = DisposableHolder()
    holder.disposable = scheduler.schedulePeriodic(0, startAfter: .seconds(5), period: .seconds(5))
    {
      count in
      log.append(scheduler.clock)
      if count == 2 { holder.disposable?.dispose() }
      return count + 1
    }
    scheduler.start()
    #expect(log.values == [5, 10, 15])
    #expect(scheduler.clock == 15)
  }

  @Test("stop ends start after the running action; start resumes with what is left")
  func stop() {
    let scheduler = TestScheduler(initialClock: 0)
    let log = Log<Int>()
    scheduler.scheduleAt(10) {
      log.append(10)
      scheduler.stop()
    }
    scheduler.scheduleAt(10) { log.append(11) }
    scheduler.scheduleAt(20) { log.append(20) }
    scheduler.start()
    #expect(log.values == [10])
    #expect(scheduler.clock == 10)
    #expect(!scheduler.isEnabled)
    scheduler.start()
    #expect(log.values == [10, 11, 20])
    #expect(scheduler.clock == 20)
  }

  @Test("advanceTo runs what is due up to and including the target and lands on it")
  func advanceTo() {
    let scheduler = TestScheduler(initialClock: 0)
    let log = Log<Int>()
    for time in [10, 20, 30] { scheduler.scheduleAt(time) { log.append(time) } }
    scheduler.advanceTo(20)
    #expect(log.values == [10, 20])
    #expect(scheduler.clock == 20)
    scheduler.advanceTo(25)
    #expect(log.values == [10, 20])
    #expect(scheduler.clock == 25)
    scheduler.advanceTo(25)
    #expect(scheduler.clock == 25)
    scheduler.advanceTo(100)
    #expect(log.values == [10, 20, 30])
    #expect(scheduler.clock == 100)
  }

  @Test("advanceTo lands on its target even when an action stops the scheduler")
  func advanceToAfterStop() {
    let scheduler = TestScheduler(initialClock: 0)
    let log = Log<Int>()
    scheduler.scheduleAt(10) {
      log.append(10)
      scheduler.stop()
    }
    scheduler.scheduleAt(20) { log.append(20) }
    scheduler.advanceTo(50)
    #expect(log.values == [10])
    #expect(scheduler.clock == 50)
    scheduler.start()
    #expect(log.values == [10, 20])
    #expect(scheduler.clock == 50)
  }

  @Test("start called a second time with past times stops with a message")
  func startTwice() async {
    await #expect(processExitsWith: .failure) {
      let scheduler = TestScheduler(initialClock: 0)
      let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
      _ = scheduler.start { xs }
      _ = scheduler.start { xs }
    }
  }

  @Test("start after a first run works with later times, and with a past creation time")
  func startAgainLater() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
    let first = scheduler.start { xs }
    #expect(first.events == [.next(210, 1), .completed(220)])
    let second = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { xs }
    #expect(second.events == [.next(1210, 1), .completed(1220)])
    #expect(xs.subscriptions == [Subscription(200, 220), Subscription(1200, 1220)])

    let late = TestScheduler(initialClock: 150)
    let ys = late.createColdObservable([.next(10, 2)])
    #expect(late.start { ys }.events == [.next(210, 2)])
  }

  @Test("advancing backwards is a programming error")
  func advanceBackwards() async {
    await #expect(processExitsWith: .failure) {
      let scheduler = TestScheduler(initialClock: 100)
      scheduler.advanceTo(50)
    }
  }

  @Test("sleep moves the clock without running anything")
  func sleep() {
    let scheduler = TestScheduler(initialClock: 0)
    let log = Log<Int>()
    scheduler.scheduleAt(10) { log.append(scheduler.clock) }
    scheduler.sleep(30)
    #expect(scheduler.clock == 30)
    #expect(log.values.isEmpty)
    scheduler.start()
    #expect(log.values == [30])
  }

  @Test("start creates at 100, subscribes at 200 and disposes at 1000, after same-tick events")
  func startDefaults() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(999, 3), .next(1000, 4), .next(1001, 5),
    ])
    let created = Log<Int>()
    let res = scheduler.start { () -> TestableObservable<Int> in
      created.append(scheduler.clock)
      return xs
    }
    #expect(created.values == [100])
    // The event at 1000 was scheduled (with the observable) before start scheduled the disposal.
    #expect(res.events == [.next(210, 2), .next(999, 3), .next(1000, 4)])
    #expect(xs.subscriptions == [Subscription(200, 1000)])
  }

  @Test("start(disposed:) and start(created:subscribed:disposed:) use the given times")
  func startVariants() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .next(310, 3)])
    let res = scheduler.start(disposed: 300) { xs.map { $0 * 10 } }
    #expect(res.events == [.next(210, 10), .next(260, 20)])
    #expect(xs.subscriptions == [Subscription(200, 300)])

    let other = TestScheduler(initialClock: 0)
    let ys = other.createColdObservable([.next(10, "a"), .next(50, "b")])
    let created = Log<Int>()
    let res2 = other.start(created: 5, subscribed: 20, disposed: 65) { () -> Observable<String> in
      created.append(other.clock)
      return ys.asObservable()
    }
    #expect(created.values == [5])
    #expect(res2.events == [.next(30, "a")])
    #expect(ys.subscriptions == [Subscription(20, 65)])
  }

  @Test("start disposes at its time even after a terminal event, and the clock runs out the queue")
  func startAfterCompletion() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(250), .next(1500, 9)])
    let res = scheduler.start { xs.filter { $0 > 0 } }
    #expect(res.events == [.next(210, 1), .completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(scheduler.clock == 1500)
  }

  @Test("start subscribes the TestableObserver, which records at the scheduler's clock")
  func createObserver() {
    let scheduler = TestScheduler(initialClock: 0)
    let observer = scheduler.createObserver(Int.self)
    let subject = PublishSubject<Int>()
    scheduler.scheduleAt(100) { _ = subject.subscribe(observer) }
    scheduler.scheduleAt(110) { subject.onNext(1) }
    scheduler.scheduleAt(120) { subject.onNext(2) }
    scheduler.scheduleAt(130) { subject.onError(TestFailure.boom) }
    scheduler.start()
    #expect(observer.events == [.next(110, 1), .next(120, 2), .error(130, TestFailure.boom)])
  }

  @Test("an operator that schedules on the TestScheduler sees RxTest's times")
  func schedulingOperator() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(260)])
    // A minimal "delay by 5 seconds" built from core pieces.
    let res = scheduler.start {
      Observable<Int>.create { observer in
        xs.subscribe { event in
          _ = scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in
            observer.on(event)
            return Disposables.create()
          }
        }
      }
    }
    #expect(res.events == [.next(215, 1), .next(235, 2), .completed(265)])
  }
}

/// An error for tests.
enum TestFailure: Error, Equatable {
  case boom
  case other
}

/// Records values in order from any thread.
final class Log<Value: Sendable>: @unchecked Sendable {
  // Guarded by `lock`.
  private var storage: [Value] = []
  private let lock = DispatchQueue(label: "streams.testing.log")
  func append(_ value: Value) { lock.sync { storage.append(value) } }
  var values: [Value] { lock.sync { storage } }
}

/// Lets a closure refer to the disposable it is assigned to.
final class DisposableHolder: @unchecked Sendable {
  // Written once on the test thread before the scheduler runs; read on the same thread.
  var disposable: (any Disposable)?
}
