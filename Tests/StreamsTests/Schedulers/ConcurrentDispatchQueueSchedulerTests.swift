import Dispatch
import Streams
import Testing

/// Waits at most five seconds for `semaphore`; `true` when it was signalled. Only arrival is
/// asserted, never how long it took.
private func waitForSignal(_ semaphore: DispatchSemaphore) -> Bool {
  semaphore.wait(timeout: .now() + .seconds(5)) == .success
}

@Suite("ConcurrentDispatchQueueScheduler")
struct ConcurrentDispatchQueueSchedulerTests {
  @Test("work runs on the given queue")
  func onQueue() {
    let key = DispatchSpecificKey<Int>()
    let queue = DispatchQueue(label: "concurrent-target", attributes: .concurrent)
    queue.setSpecific(key: key, value: 4)
    let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
    let group = DispatchGroup()
    let offQueue = Locked(0)
    for value in 0..<50 {
      group.enter()
      _ = scheduler.schedule(value) { _ in
        if DispatchQueue.getSpecific(key: key) != 4 { offQueue.withLock { $0 += 1 } }
        group.leave()
        return Disposables.create()
      }
    }
    #expect(group.wait(timeout: .now() + .seconds(5)) == .success)
    #expect(offQueue.withLock { $0 } == 0)
  }

  @Test("disposing before the work runs cancels it")
  func cancellation() {
    let queue = DispatchQueue(label: "concurrent-cancel", attributes: .concurrent)
    let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
    let log = Locked<[Int]>([])
    queue.suspend()
    let first = scheduler.schedule(1) { value in
      log.withLock { $0.append(value) }
      return Disposables.create()
    }
    _ = scheduler.schedule(2) { value in
      log.withLock { $0.append(value) }
      return Disposables.create()
    }
    first.dispose()
    queue.resume()
    queue.sync(flags: .barrier) {}
    #expect(log.withLock { $0 } == [2])
  }

  @Test("relative and periodic work run and stop when disposed")
  func timers() {
    let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
    let fired = DispatchSemaphore(value: 0)
    _ = scheduler.scheduleRelative((), dueTime: .milliseconds(1)) { _ in
      fired.signal()
      return Disposables.create()
    }
    #expect(waitForSignal(fired))

    let ticks = Locked<[Int]>([])
    let reached = DispatchSemaphore(value: 0)
    let periodic = scheduler.schedulePeriodic(
      0, startAfter: .nanoseconds(0), period: .milliseconds(1)
    ) {
      state in
      if ticks.withLock({ s -> Int in
        s.append(state)
        return s.count
      }) == 2 {
        reached.signal()
      }
      return state + 1
    }
    #expect(waitForSignal(reached))
    periodic.dispose()
    #expect(Array(ticks.withLock { $0 }.prefix(2)) == [0, 1])
  }

  @Test("observe(on:) on a concurrent scheduler still delivers in order")
  func observeOnOrder() {
    let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
    let received = Locked<[Int]>([])
    let done = DispatchSemaphore(value: 0)
    let subject = PublishSubject<Int>()
    let subscription = subject.observe(on: scheduler).subscribe(
      onNext: { value in received.withLock { $0.append(value) } },
      onCompleted: { done.signal() })
    for value in 0..<500 { subject.onNext(value) }
    subject.onCompleted()
    #expect(waitForSignal(done))
    #expect(received.withLock { $0 } == Array(0..<500))
    subscription.dispose()
  }
}
