import Dispatch
import Foundation
import Streams
import Testing

/// A source shaped like RxSwift's `ReplaySubject` or `share(replay:)` before their fixes: it
/// emits while holding its own lock (`emit`, through `subject`, which reaches the operator without
/// any intermediate guard) and takes that lock to unsubscribe (`lockedDisposal`).
final class ForeignLockSource: Sendable {
  /// The source's own lock (a foreign lock to the operator under test).
  let lock = NSLock()
  /// Where `emit` sends its elements.
  let subject = PublishSubject<Int>()

  /// A sequence that never emits and whose disposal takes `lock`.
  var lockedDisposal: Observable<Int> {
    Observable.create { [self] _ in
      Disposables.create { [self] in
        lock.lock()
        lock.unlock()
      }
    }
  }

  /// Emits `value` through `subject`; the caller holds `lock`.
  func emit(_ value: Int) {
    subject.onNext(value)
  }
}

/// Races the lock-inversion shape of RxSwift #2653/#2698/#2703/#2711/#2713/#2718: thread A holds
/// the source's lock and emits into the operator, while thread B makes the operator dispose that
/// source (or deliver into an observer that needs the lock). An operator that disposes or delivers
/// while holding its own lock deadlocks here. Returns `false` if either thread is still stuck after
/// 10 seconds (a hang detector, not a timing assertion).
func completesWithoutDeadlock(
  _ source: ForeignLockSource, emitting value: Int = 1, trigger: @escaping @Sendable () -> Void
) -> Bool {
  let finished = DispatchSemaphore(value: 0)
  let holding = DispatchSemaphore(value: 0)
  Thread {
    source.lock.lock()
    holding.signal()
    // Give thread B time to get into the operator before A reaches into it.
    usleep(20_000)
    source.emit(value)
    source.lock.unlock()
    finished.signal()
  }.start()
  Thread {
    holding.wait()
    trigger()
    finished.signal()
  }.start()
  return finished.wait(timeout: .now() + 10) == .success
    && finished.wait(timeout: .now() + 10) == .success
}

@Suite("LockInversion Stress", .serialized)
struct LockInversionStressTests {
  // In each test, thread B makes the operator dispose `lockedDisposal` (which waits for the lock
  // thread A holds) while A, holding that lock, emits into the operator through `subject`. An
  // operator that disposes while holding its own lock deadlocks.

  @Test("#2711: merge disposes its sources outside its lock")
  func merge() {
    let source = ForeignLockSource()
    let other = PublishSubject<Int>()
    let subscription = Observable.merge(
      source.lockedDisposal, source.subject.asObservable(), other.asObservable()
    ).subscribe(onNext: { _ in }, onError: { _ in })
    #expect(completesWithoutDeadlock(source) { other.onError(MultiTestError.second) })
    subscription.dispose()
  }

  @Test("merge: downstream disposal runs outside the operator's lock")
  func mergeDisposal() {
    let source = ForeignLockSource()
    let subscription = Observable.merge(source.lockedDisposal, source.subject.asObservable())
      .subscribe(onNext: { _ in })
    #expect(completesWithoutDeadlock(source) { subscription.dispose() })
  }

  @Test("#2703 and #2653: zip disposes its sources outside its lock")
  func zip() {
    let source = ForeignLockSource()
    let other = PublishSubject<Int>()
    let subscription = Observable.zip([
      source.lockedDisposal, source.subject.asObservable(), other.asObservable(),
    ]).subscribe(onNext: { _ in }, onError: { _ in })
    #expect(completesWithoutDeadlock(source) { other.onError(MultiTestError.second) })
    subscription.dispose()

    let source2 = ForeignLockSource()
    let other2 = PublishSubject<Int>()
    let subscription2 = Observable.zip(source2.lockedDisposal, source2.subject, other2) {
      $0 + $1 + $2
    }.subscribe(onNext: { _ in }, onError: { _ in })
    #expect(completesWithoutDeadlock(source2) { other2.onError(MultiTestError.second) })
    subscription2.dispose()
  }

  @Test("#2713: combineLatest disposes its sources outside its lock")
  func combineLatest() {
    let source = ForeignLockSource()
    let other = PublishSubject<Int>()
    let subscription = Observable.combineLatest(source.lockedDisposal, source.subject, other) {
      $0 + $1 + $2
    }.subscribe(onNext: { _ in }, onError: { _ in })
    #expect(completesWithoutDeadlock(source) { other.onError(MultiTestError.second) })
    subscription.dispose()
  }

  @Test("#2698: flatMapLatest disposes its subscriptions outside its lock")
  func flatMapLatest() {
    let source = ForeignLockSource()
    let outer = PublishSubject<Int>()
    let subscription = Observable.merge(outer.asObservable(), source.lockedDisposal)
      .flatMapLatest { _ in source.subject.asObservable() }
      .subscribe(onNext: { _ in })
    outer.onNext(0)
    #expect(completesWithoutDeadlock(source) { subscription.dispose() })
  }

  @Test("#2718: withLatestFrom disposes its sources outside its lock")
  func withLatestFrom() {
    let source = ForeignLockSource()
    let first = PublishSubject<Int>()
    let subscription = Observable.merge(first.asObservable(), source.lockedDisposal)
      .withLatestFrom(source.subject)
      .subscribe(onNext: { _ in }, onError: { _ in })
    #expect(completesWithoutDeadlock(source) { first.onError(MultiTestError.first) })
    subscription.dispose()
  }

  @Test("amb disposes the losing sources outside its lock")
  func amb() {
    let source = ForeignLockSource()
    let winner = PublishSubject<Int>()
    let subscription = Observable.amb([
      winner.asObservable(), source.lockedDisposal, source.subject.asObservable(),
    ]).subscribe(onNext: { _ in })
    #expect(completesWithoutDeadlock(source) { winner.onNext(7) })
    subscription.dispose()
  }

  @Test("merge and combineLatest never deliver under their lock to an observer that takes a lock")
  func deliveryOutsideLock() {
    // Each case: the operator over (source, other), and the element that B's `other.onNext(2)`
    // produces; only that delivery takes the source's lock, so A never waits for itself.
    let cases: [(String, (Observable<Int>, Observable<Int>) -> Observable<Int>, Int)] = [
      ("merge", { Observable.merge($0, $1) }, 2),
      ("combineLatest", { Observable.combineLatest($0, $1) { $0 * 100 + $1 } }, 102),
    ]
    for (name, makeOperator, blockingElement) in cases {
      let source = ForeignLockSource()
      let other = PublishSubject<Int>()
      let received = Locked<[Int]>([])
      let subscription = makeOperator(source.subject.asObservable(), other.asObservable())
        .subscribe(onNext: { element in
          if element == blockingElement {
            source.lock.lock()
            source.lock.unlock()
          }
          received.withLock { $0.append(element) }
        })
      source.emit(1)
      other.onNext(0)
      // B delivers into the observer, which waits for the lock A holds while A emits 3.
      let finished = completesWithoutDeadlock(source, emitting: 3) { other.onNext(2) }
      #expect(finished, "\(name) deadlocked")
      #expect(received.withLock { $0 }.contains(blockingElement), "\(name)")
      if finished { subscription.dispose() }
    }
  }
}
