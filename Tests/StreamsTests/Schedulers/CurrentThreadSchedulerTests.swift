import Dispatch
import Streams
import StreamsTest
import Testing

@Suite("CurrentThreadScheduler")
struct CurrentThreadSchedulerTests {
  @Test("isScheduleRequired is true outside the trampoline and false inside it")
  func isScheduleRequired() {
    let inside = Locked<Bool?>(nil)
    #expect(CurrentThreadScheduler.isScheduleRequired)
    _ = CurrentThreadScheduler.instance.schedule(()) { _ in
      inside.withLock { $0 = CurrentThreadScheduler.isScheduleRequired }
      return Disposables.create()
    }
    #expect(inside.withLock { $0 } == false)
    #expect(CurrentThreadScheduler.isScheduleRequired)
  }

  @Test("nested schedules run after the running action, in FIFO order")
  func nestedOrdering() {
    let log = Locked<[String]>([])
    let scheduler = CurrentThreadScheduler.instance
    _ = scheduler.schedule(()) { _ in
      log.withLock { $0.append("outer start") }
      _ = scheduler.schedule(()) { _ in
        log.withLock { $0.append("a") }
        _ = scheduler.schedule(()) { _ in
          log.withLock { $0.append("c") }
          return Disposables.create()
        }
        return Disposables.create()
      }
      _ = scheduler.schedule(()) { _ in
        log.withLock { $0.append("b") }
        return Disposables.create()
      }
      log.withLock { $0.append("outer end") }
      return Disposables.create()
    }
    #expect(log.withLock { $0 } == ["outer start", "outer end", "a", "b", "c"])
  }

  @Test("an action runs at once and its disposable is returned when the trampoline is idle")
  func immediateRun() {
    let ran = Locked(false)
    let resource = BooleanDisposable()
    let disposable = CurrentThreadScheduler.instance.schedule(()) { _ in
      ran.withLock { $0 = true }
      return resource
    }
    #expect(ran.withLock { $0 })
    #expect(!resource.isDisposed)
    disposable.dispose()
    #expect(resource.isDisposed)
  }

  @Test("disposing a queued action removes it; disposing after it ran disposes its result")
  func disposeQueued() {
    let log = Locked<[String]>([])
    let scheduler = CurrentThreadScheduler.instance
    let resource = BooleanDisposable()
    let later = Locked<(any Disposable)?>(nil)
    _ = scheduler.schedule(()) { _ in
      let cancelled = scheduler.schedule(()) { _ in
        log.withLock { $0.append("cancelled") }
        return Disposables.create()
      }
      let kept = scheduler.schedule(()) { _ in
        log.withLock { $0.append("kept") }
        return resource
      }
      later.withLock { $0 = kept }
      cancelled.dispose()
      return Disposables.create()
    }
    #expect(log.withLock { $0 } == ["kept"])
    #expect(!resource.isDisposed)
    later.withLock { $0 }?.dispose()
    #expect(resource.isDisposed)
  }

  @Test("each thread has its own trampoline")
  func perThread() {
    let log = Locked<[String]>([])
    let done = DispatchSemaphore(value: 0)
    _ = CurrentThreadScheduler.instance.schedule(()) { _ in
      _ = CurrentThreadScheduler.instance.schedule(()) { _ in
        log.withLock { $0.append("queued on main") }
        return Disposables.create()
      }
      DispatchQueue.global().async {
        let required = CurrentThreadScheduler.isScheduleRequired
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
          log.withLock { $0.append("other thread ran at once: \(required)") }
          return Disposables.create()
        }
        done.signal()
      }
      // A hang detector: if the other thread never runs its work, the log below shows it.
      _ = done.wait(timeout: .now() + .seconds(10))
      log.withLock { $0.append("outer end") }
      return Disposables.create()
    }
    #expect(
      log.withLock { $0 } == [
        "other thread ran at once: true", "outer end", "queued on main",
      ])
  }

  @Test("the queue keeps FIFO order while it grows and wraps around")
  func manyQueued() {
    let order = Locked<[Int]>([])
    let scheduler = CurrentThreadScheduler.instance
    @Sendable func item(_ index: Int) -> any Disposable {
      order.withLock { $0.append(index) }
      if index == 0 {
        for next in 40..<80 {
          _ = scheduler.schedule(next) { item($0) }
        }
      }
      return Disposables.create()
    }
    _ = scheduler.schedule(()) { _ in
      for index in 0..<40 {
        _ = scheduler.schedule(index) { item($0) }
      }
      return Disposables.create()
    }
    #expect(order.withLock { $0 } == Array(0..<80))
  }

  @Test("recursive scheduling loops instead of growing the stack")
  func deepRecursion() {
    let count = Locked(0)
    _ = CurrentThreadScheduler.instance.scheduleRecursive(0) { value, recurse in
      count.withLock { $0 = value }
      if value < 200_000 { recurse(value + 1) }
    }
    #expect(count.withLock { $0 } == 200_000)
  }

  @Test("subscriptions start sources only after the whole chain is subscribed")
  func subscribeRunsInTrampoline() {
    let events = Locked<[Int]>([])
    _ = Observable.repeatElement(7).take(3).subscribe(onNext: { value in
      events.withLock { $0.append(value) }
    })
    #expect(events.withLock { $0 } == [7, 7, 7])
    #expect(CurrentThreadScheduler.isScheduleRequired)
  }
}
