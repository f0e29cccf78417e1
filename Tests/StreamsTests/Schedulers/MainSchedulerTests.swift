import Dispatch
import Streams
import StreamsTest
import Testing

/// Waits at most five seconds for `semaphore`; `true` when it was signalled. Only arrival is
/// asserted, never how long it took.
private func waitForSignal(_ semaphore: DispatchSemaphore) -> Bool {
  semaphore.wait(timeout: .now() + .seconds(5)) == .success
}

/// A key the tests set on the main queue to tell where work ran.
private let mainKey: DispatchSpecificKeyBox = {
  let box = DispatchSpecificKeyBox()
  DispatchQueue.main.setSpecific(key: box.key, value: 1)
  return box
}()

/// `@unchecked Sendable`: the key is immutable after creation and only used for lookups.
private final class DispatchSpecificKeyBox: @unchecked Sendable {
  let key = DispatchSpecificKey<Int>()
  var onMain: Bool { DispatchQueue.getSpecific(key: key) == 1 }
}

@Suite("MainScheduler", .serialized, .mainSchedulerExclusive)
struct MainSchedulerTests {
  @Test("on the main thread with nothing queued, instance runs the work at once")
  @MainActor
  func immediateOnMain() {
    let ran = Locked(false)
    _ = MainScheduler.instance.schedule(()) { _ in
      ran.withLock { $0 = true }
      return Disposables.create()
    }
    #expect(ran.withLock { $0 })
    let existential: any ImmediateSchedulerType = MainScheduler.instance
    let ranThroughExistential = Locked(false)
    _ = existential.schedule(()) { _ in
      ranThroughExistential.withLock { $0 = true }
      return Disposables.create()
    }
    #expect(ranThroughExistential.withLock { $0 })
    MainScheduler.ensureExecutingOnScheduler()
  }

  @Test("work scheduled from work running on instance waits for it (no reentrancy)")
  @MainActor
  func nestedIsQueued() async {
    let log = Locked<[String]>([])
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      _ = MainScheduler.instance.schedule(()) { _ in
        log.withLock { $0.append("outer start") }
        _ = MainScheduler.instance.schedule(()) { _ in
          log.withLock { $0.append("inner") }
          continuation.resume()
          return Disposables.create()
        }
        log.withLock { $0.append("outer end") }
        return Disposables.create()
      }
    }
    #expect(log.withLock { $0 } == ["outer start", "outer end", "inner"])
  }

  @Test("asyncInstance enqueues even on the main thread")
  @MainActor
  func asyncInstance() async {
    let ran = Locked(false)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      _ = MainScheduler.asyncInstance.schedule(()) { _ in
        ran.withLock { $0 = true }
        continuation.resume()
        return Disposables.create()
      }
      #expect(!ran.withLock { $0 })
    }
    #expect(ran.withLock { $0 })
  }

  @Test("from another thread, instance runs the work on the main queue")
  func fromBackground() {
    let done = DispatchSemaphore(value: 0)
    let onMain = Locked(false)
    DispatchQueue.global().async {
      _ = MainScheduler.instance.schedule(()) { _ in
        onMain.withLock { $0 = mainKey.onMain }
        done.signal()
        return Disposables.create()
      }
    }
    #expect(waitForSignal(done))
    #expect(onMain.withLock { $0 })
  }

  @Test("disposing enqueued work before it runs cancels it")
  func cancellation() {
    let log = Locked<[Int]>([])
    let done = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      // Hold the main queue so that the work below is still waiting when it is disposed.
      DispatchQueue.main.async { _ = waitForSignal(gate) }
      let first = MainScheduler.instance.schedule(()) { _ in
        log.withLock { $0.append(1) }
        return Disposables.create()
      }
      first.dispose()
      _ = MainScheduler.instance.schedule(()) { _ in
        log.withLock { $0.append(2) }
        done.signal()
        return Disposables.create()
      }
      gate.signal()
    }
    #expect(waitForSignal(done))
    #expect(log.withLock { $0 } == [2])
  }

  @Test("relative work runs on the main queue")
  func relative() {
    let done = DispatchSemaphore(value: 0)
    let onMain = Locked(false)
    _ = MainScheduler.instance.scheduleRelative((), dueTime: .milliseconds(1)) { _ in
      onMain.withLock { $0 = mainKey.onMain }
      done.signal()
      return Disposables.create()
    }
    #expect(waitForSignal(done))
    #expect(onMain.withLock { $0 })
  }

  @Test("ensureExecutingOnScheduler stops the program off the main queue")
  func ensureTraps() async {
    await #expect(processExitsWith: .failure) {
      DispatchQueue(label: "not-main").sync {
        MainScheduler.ensureExecutingOnScheduler()
      }
    }
  }
}

@Suite("ConcurrentMainScheduler", .mainSchedulerExclusive)
struct ConcurrentMainSchedulerTests {
  @Test("on the main thread, work runs at once, nested work included")
  @MainActor
  func immediate() {
    let log = Locked<[String]>([])
    _ = ConcurrentMainScheduler.instance.schedule(()) { _ in
      log.withLock { $0.append("outer start") }
      _ = ConcurrentMainScheduler.instance.schedule(()) { _ in
        log.withLock { $0.append("inner") }
        return Disposables.create()
      }
      log.withLock { $0.append("outer end") }
      return Disposables.create()
    }
    #expect(log.withLock { $0 } == ["outer start", "inner", "outer end"])
  }

  @Test("from another thread, work runs on the main queue")
  func fromBackground() {
    let done = DispatchSemaphore(value: 0)
    let onMain = Locked(false)
    DispatchQueue.global().async {
      _ = ConcurrentMainScheduler.instance.schedule(()) { _ in
        onMain.withLock { $0 = mainKey.onMain }
        done.signal()
        return Disposables.create()
      }
    }
    #expect(waitForSignal(done))
    #expect(onMain.withLock { $0 })
  }
}
