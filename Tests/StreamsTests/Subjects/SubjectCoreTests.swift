import Dispatch
import Foundation
import Testing

@testable import Streams

/// What one observer receives, behind an `NSLock` (which ThreadSanitizer understands).
private final class Log: @unchecked Sendable {
  private let lock = NSLock()
  private var elements: [Int] = []
  func append(_ element: Int) { lock.withLock { elements.append(element) } }
  var values: [Int] { lock.withLock { elements } }
}

/// Runs `body` on a new thread; the returned semaphore is signalled when it has returned.
private func spawn(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
  let done = DispatchSemaphore(value: 0)
  Thread {
    body()
    done.signal()
  }.start()
  return done
}

@Suite("SubjectCore")
struct SubjectCoreTests {
  /// The interleaving that made `replayRace` lose elements: a disposal on another thread that
  /// has begun but not yet taken the subject's lock, while one element is delivered from the queue
  /// and the next one on the lock-free path. Both paths must agree on whether the observer still
  /// receives elements, or it sees a gap. (The disposal used to mark the subscription disposed
  /// before taking the lock: the queued element skipped the observer and the next one reached it.)
  @Test(
    "an observer whose disposal is under way on another thread sees no gap, and nothing once it returned"
  )
  func disposalRacingDeliveries() {
    let subject = PublishSubject<Int>()
    let reached = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    // The first observer holds the deliveries of 1 and 2 open on the emitting thread.
    _ = subject.subscribe(onNext: { element in
      if element == 1 || element == 2 {
        reached.signal()
        proceed.wait()
      }
    })
    let log = Log()
    // The closure form: the subject's own subscription, whose flag the test watches.
    let subscription = subject.subscribe { event in
      if let element = event.element { log.append(element) }
    }
    guard let watched = subscription as? SubjectSubscription else {
      Issue.record("a subject subscription is a SubjectSubscription")
      return
    }
    subject.onNext(0)  // delivers with the lock and refreshes the delivery copy: the word is idle

    // 1 goes out on the lock-free path; 2, sent meanwhile, is queued for both observers.
    let emitted = spawn { subject.onNext(1) }
    reached.wait()
    subject.onNext(2)
    proceed.signal()
    reached.wait()  // the emitting thread now delivers the queued 2: the first observer holds it

    // Hold the subject's lock while another thread disposes: the disposal cannot finish.
    let locked = DispatchSemaphore(value: 0)
    let unlock = DispatchSemaphore(value: 0)
    let lockHolder = spawn {
      subject.core.state.withLock { _ in
        locked.signal()
        unlock.wait()
      }
    }
    locked.wait()
    let disposed = spawn { subscription.dispose() }
    // Give the disposing thread every chance to get as far as it can without the lock (the old
    // code marked the subscription disposed there, which this would observe).
    var spins = 0
    while watched.isActive, spins < 20_000 {
      sched_yield()
      spins += 1
    }
    #expect(watched.isActive, "the subscription was marked disposed before the subject's lock")

    proceed.signal()  // the queued 2 reaches the observer; the emitting thread releases the claim
    emitted.wait()
    // 3 goes out on the lock-free path (the word is idle again) while the disposal waits.
    let third = spawn { subject.onNext(3) }
    let thirdReturned = third.wait(timeout: .now() + .seconds(30)) == .success
    unlock.signal()
    lockHolder.wait()
    disposed.wait()
    if !thirdReturned { third.wait() }
    // The disposal has returned: nothing more reaches the observer.
    subject.onNext(4)

    let elements = log.values
    #expect(elements == Array(0..<elements.count), "a gap: \(elements)")
    #expect(elements == [0, 1, 2, 3])
    #expect(!watched.isActive)
  }
}
