import Dispatch
import Foundation
import Streams
import Testing

/// Waits at most five seconds for `semaphore`; `true` when it was signalled. Only arrival is
/// asserted, never how long it took.
private func waitForSignal(_ semaphore: DispatchSemaphore) -> Bool {
  semaphore.wait(timeout: .now() + .seconds(5)) == .success
}

@Suite("SerialDispatchQueueScheduler")
struct SerialDispatchQueueSchedulerTests {
  @Test("work runs in order, one item at a time, on a queue that targets the given one")
  func orderAndQueue() {
    let key = DispatchSpecificKey<Int>()
    let target = DispatchQueue(label: "serial-target", attributes: .concurrent)
    target.setSpecific(key: key, value: 9)
    let scheduler = SerialDispatchQueueScheduler(
      queue: target, internalSerialQueueName: "serial-scheduler")
    let log = Locked((values: [Int](), inside: 0, overlaps: 0, offQueue: 0))
    let done = DispatchSemaphore(value: 0)
    for value in 0..<200 {
      _ = scheduler.schedule(value) { value in
        log.withLock { s in
          s.inside += 1
          if s.inside > 1 { s.overlaps += 1 }
          if DispatchQueue.getSpecific(key: key) != 9 { s.offQueue += 1 }
          s.values.append(value)
        }
        log.withLock { $0.inside -= 1 }
        if value == 199 { done.signal() }
        return Disposables.create()
      }
    }
    #expect(waitForSignal(done))
    let result = log.withLock { $0 }
    #expect(result.values == Array(0..<200))
    #expect(result.overlaps == 0)
    #expect(result.offQueue == 0)
  }

  @Test("schedule is asynchronous and disposing before it runs cancels it")
  func cancellation() {
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "serial-cancel")
    let log = Locked<[Int]>([])
    scheduler.queue.suspend()
    let first = scheduler.schedule(1) { value in
      log.withLock { $0.append(value) }
      return Disposables.create()
    }
    _ = scheduler.schedule(2) { value in
      log.withLock { $0.append(value) }
      return Disposables.create()
    }
    #expect(log.withLock { $0 } == [])
    first.dispose()
    scheduler.queue.resume()
    scheduler.queue.sync {}
    #expect(log.withLock { $0 } == [2])
  }

  @Test("the configuration closure receives the new queue")
  func configuration() {
    let label = Locked<String?>(nil)
    let scheduler = SerialDispatchQueueScheduler(
      internalSerialQueueName: "configured",
      serialQueueConfiguration: { queue in
        label.withLock { $0 = queue.label }
      })
    #expect(label.withLock { $0 } == "configured")
    #expect(scheduler.queue.label == "configured")
  }

  @Test("relative work runs on the queue; disposing it first cancels it")
  func relative() {
    let scheduler = SerialDispatchQueueScheduler(qos: .default)
    let log = Locked<[Int]>([])
    let done = DispatchSemaphore(value: 0)
    // Due far in the future, so that a slow machine cannot run it before it is disposed.
    let cancelled = scheduler.scheduleRelative(1, dueTime: .seconds(3600)) { value in
      log.withLock { $0.append(value) }
      return Disposables.create()
    }
    cancelled.dispose()
    _ = scheduler.scheduleRelative(2, dueTime: .milliseconds(10)) { value in
      log.withLock { $0.append(value) }
      done.signal()
      return Disposables.create()
    }
    #expect(waitForSignal(done))
    scheduler.queue.sync {}
    #expect(log.withLock { $0 } == [2])
  }

  @Test("disposing relative work after it ran disposes what the action returned")
  func relativeInnerDisposable() {
    let scheduler = SerialDispatchQueueScheduler(qos: .default)
    let ran = DispatchSemaphore(value: 0)
    let innerDisposed = DispatchSemaphore(value: 0)
    let work = scheduler.scheduleRelative((), dueTime: .nanoseconds(0)) { _ in
      ran.signal()
      return Disposables.create { innerDisposed.signal() }
    }
    #expect(waitForSignal(ran))
    scheduler.queue.sync {}
    work.dispose()
    #expect(waitForSignal(innerDisposed))
  }

  @Test("periodic work threads its state through the ticks until disposed")
  func periodic() {
    let scheduler = SerialDispatchQueueScheduler(qos: .default)
    let log = Locked<[Int]>([])
    let reached = DispatchSemaphore(value: 0)
    let periodic = scheduler.schedulePeriodic(
      10, startAfter: .milliseconds(1), period: .milliseconds(1)
    ) { state in
      let count = log.withLock { s -> Int in
        s.append(state)
        return s.count
      }
      if count == 3 { reached.signal() }
      return state + 1
    }
    #expect(waitForSignal(reached))
    periodic.dispose()
    scheduler.queue.sync {}
    let values = log.withLock { $0 }
    #expect(Array(values.prefix(3)) == [10, 11, 12])
    #expect(values == Array(10..<(10 + values.count)))
  }

  @Test("now reads the wall clock and does not go backwards")
  func now() {
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "clock")
    let first = scheduler.now
    let second = scheduler.now
    #expect(second >= first)
    // Later than 2020-01-01: the wall clock, as `Date()` reads it, not uptime.
    #expect(first.timeIntervalSince1970 > 1_577_836_800)
    #expect(abs(first.timeIntervalSince(Date())) < 3600)  // the same clock as Date()
  }
}
