import Streams
import StreamsTest
import Testing

/// The operators whose state machine queues events in an outbox while someone is delivering.
enum QueuingOperator: String, CaseIterable, Sendable {
  case merge, concat, amb, switchLatest, flatMap, flatMapLatest, concatMap, combineLatest
  case withLatestFrom, zip

  /// The operator applied to `source` (and to sources that never get in the way), emitting
  /// `source`'s elements.
  func apply(_ source: Observable<Reentrant>) -> Observable<Reentrant> {
    switch self {
    case .merge: return Observable.merge(source, .never())
    case .concat: return Observable.concat([source])
    case .amb: return Observable.amb([source, .never()])
    case .switchLatest: return Observable.just(source).switchLatest()
    case .flatMap: return Observable.just(0).flatMap { _ in source }
    case .flatMapLatest: return Observable.just(0).flatMapLatest { _ in source }
    case .concatMap: return Observable.just(0).concatMap { _ in source }
    case .combineLatest: return Observable.combineLatest(source, Observable.just(0)) { a, _ in a }
    case .withLatestFrom: return source.withLatestFrom(Observable.just(0)) { a, _ in a }
    case .zip: return Observable.zip(source, Observable.from(Array(0..<10))) { a, _ in a }
    }
  }
}

/// A user `deinit` is user code: an element, an error or a sequence that an operator lets go of
/// may re-enter the operator from its `deinit`. Operators release what they hold only after
/// unlocking (the lock is not recursive: a re-entry under it hangs the thread). Each test runs on
/// a thread of its own under a watchdog, so that a hang fails the test.
@Suite("Deadlock regressions: a deinit re-enters the operator that released it")
struct DeinitReentrancyTests {
  @Test(
    "an outbox's queued events are released outside the lock on disposal",
    arguments: QueuingOperator.allCases)
  func queuedEventsReleasedOnDisposal(_ operator: QueuingOperator) {
    let ids = withWatchdog { () -> [Int] in
      let source = DirectSource<Reentrant>()
      let subscription = DisposableHolder()
      var ids: [Int] = []
      subscription.disposable = `operator`.apply(source.observable).subscribe(onNext: {
        ids.append($0.id)
        guard $0.id == 1 else { return }
        // Queued in the outbox behind element 1, which is being delivered; disposal drops it and
        // its deinit emits into the operator again.
        source.onNext(Reentrant(2) { source.onNext(Reentrant(3)) })
        subscription.dispose()
      })
      source.onNext(Reentrant(1))
      return ids
    }
    #expect(ids != nil, "\(`operator`) released its queued events under its lock")
    #expect(ids == [1])
  }

  @Test("sample releases an overwritten element outside the lock")
  func sampleOverwrite() {
    let ids = withWatchdog { () -> [Int] in
      let source = DirectSource<Reentrant>()
      let ticks = PublishSubject<Int>()
      var ids: [Int] = []
      let subscription = source.observable.sample(ticks).subscribe(onNext: { ids.append($0.id) })
      source.onNext(Reentrant(1) { ticks.onNext(0) })
      source.onNext(Reentrant(2))  // replaces 1, whose deinit samples 2
      subscription.dispose()
      return ids
    }
    #expect(ids != nil, "sample released its overwritten element under its lock")
    #expect(ids == [2])
  }

  @Test("debounce releases an overwritten element outside the lock")
  func debounceOverwrite() {
    let ids = withWatchdog { () -> [Int] in
      let scheduler = TestScheduler(initialClock: 0)
      let source = DirectSource<Reentrant>()
      var ids: [Int] = []
      let subscription = source.observable.debounce(.seconds(10), scheduler: scheduler)
        .subscribe(onNext: { ids.append($0.id) })
      source.onNext(Reentrant(1) { source.onNext(Reentrant(3)) })
      source.onNext(Reentrant(2))  // replaces 1, whose deinit sends 3
      scheduler.start()
      subscription.dispose()
      return ids
    }
    #expect(ids != nil, "debounce released its overwritten element under its lock")
    #expect(ids == [3])
  }

  @Test("throttle releases an overwritten element outside the lock")
  func throttleOverwrite() {
    let ids = withWatchdog { () -> [Int] in
      let scheduler = TestScheduler(initialClock: 0)
      let source = DirectSource<Reentrant>()
      var ids: [Int] = []
      let subscription = source.observable.throttle(.seconds(10), scheduler: scheduler)
        .subscribe(onNext: { ids.append($0.id) })
      source.onNext(Reentrant(1))  // emitted at once
      source.onNext(Reentrant(2) { source.onNext(Reentrant(4)) })  // kept for the window's end
      source.onNext(Reentrant(3))  // replaces 2, whose deinit sends 4
      scheduler.start()
      subscription.dispose()
      return ids
    }
    #expect(ids != nil, "throttle released its overwritten element under its lock")
    #expect(ids == [1, 4])
  }

  @Test("buffer releases its elements outside the lock when the source fails")
  func bufferFailure() {
    let finished = finishesInTime {
      let scheduler = TestScheduler(initialClock: 0)
      let source = DirectSource<Reentrant>()
      let subscription = DisposableHolder()
      subscription.disposable = source.observable
        .buffer(timeSpan: .seconds(10), count: 10, scheduler: scheduler)
        .subscribe(onNext: { _ in }, onError: { _ in })
      source.onNext(Reentrant(1) { subscription.dispose() })
      source.onError(RxError.unknown)
    }
    #expect(finished, "buffer released its elements under its lock")
  }

  @Test("delay releases its waiting events outside the lock when the source fails")
  func delayFailure() {
    let finished = finishesInTime {
      let scheduler = TestScheduler(initialClock: 0)
      let source = DirectSource<Reentrant>()
      let subscription = source.observable.delay(.seconds(10), scheduler: scheduler)
        .subscribe(onNext: { _ in }, onError: { _ in })
      // Its deinit runs the scheduler, which fires delay's timer.
      source.onNext(Reentrant(1) { scheduler.start() })
      source.onError(RxError.unknown)
      subscription.dispose()
    }
    #expect(finished, "delay released its waiting events under its lock")
  }

  @Test("observe(on:) releases delivered events outside the lock")
  func observeOnDelivered() {
    let ids = withWatchdog { () -> [Int] in
      let scheduler = TestScheduler(initialClock: 0)
      let source = DirectSource<Reentrant>()
      var ids: [Int] = []
      let subscription = source.observable.observe(on: scheduler)
        .subscribe(onNext: {
          ids.append($0.id)
          // Queued behind element 1, which is being delivered.
          if $0.id == 1 { source.onNext(Reentrant(2)) }
        })
      // Once delivered, nothing but observe(on:) may hold element 1; its deinit sends 3.
      source.onNext(Reentrant(1) { source.onNext(Reentrant(3)) })
      scheduler.start()
      subscription.dispose()
      return ids
    }
    #expect(ids != nil, "observe(on:) released a delivered event under its lock")
    #expect(ids == [1, 2, 3])
  }

  @Test("catch(sequence:) releases the previous error outside the lock")
  func catchSequenceLastError() {
    let finished = finishesInTime {
      let first = DirectSource<Int>()
      let second = DirectSource<Int>()
      let subscription = DisposableHolder()
      subscription.disposable = Observable.catch(
        sequence: [first.observable, second.observable, .never()]
      ).subscribe(onNext: { _ in })
      first.onError(ReentrantError { subscription.dispose() })
      second.onError(RxError.unknown)  // replaces the first error, whose deinit disposes
    }
    #expect(finished, "catch(sequence:) released the previous error under its lock")
  }
}
