import Dispatch
import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {
  var id = 0
}

@Suite("retry(when:) on threads")
struct RetryWhenThreadTests {
  @Test("a trigger emitting on one thread while another disposes")
  func triggerAndDisposeConcurrently() {
    for _ in 0..<50 {
      let attempts = Locked(0)
      let source = Observable<Int>.create { observer in
        attempts.withLock { $0 += 1 }
        observer.onError(TestError())
        return Disposables.create()
      }
      let trigger = PublishSubject<Int>()
      let subscription = source.retry(when: { (_: Observable<any Error>) in trigger })
        .subscribe(onNext: { _ in Issue.record("no element expected") })
      #expect(attempts.withLock { $0 } == 1)
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          for value in 0..<200 { trigger.onNext(value) }
        } else {
          subscription.dispose()
        }
      }
      #expect(!trigger.hasObservers)
      let count = attempts.withLock { $0 }
      #expect(count >= 1 && count <= 201)
      trigger.onNext(-1)
      #expect(attempts.withLock { $0 } == count)
    }
  }

  @Test("an attempt started while another thread disposes is disposed too")
  func attemptRacingDisposal() {
    for _ in 0..<200 {
      // The first attempt fails; the ones after it stay subscribed until disposed.
      let counts = Locked((attempts: 0, disposals: 0))
      let source = Observable<Int>.create { observer in
        let attempt = counts.withLock { value -> Int in
          value.attempts += 1
          return value.attempts
        }
        if attempt == 1 { observer.onError(TestError()) }
        return Disposables.create { counts.withLock { $0.disposals += 1 } }
      }
      let trigger = PublishSubject<Int>()
      let subscription = source.retry(when: { (_: Observable<any Error>) in trigger })
        .subscribe()
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          trigger.onNext(0)
        } else {
          subscription.dispose()
        }
      }
      let final = counts.withLock { $0 }
      #expect(final.attempts == final.disposals, "an attempt outlived the disposal")
      #expect(!trigger.hasObservers)
    }
  }
}
