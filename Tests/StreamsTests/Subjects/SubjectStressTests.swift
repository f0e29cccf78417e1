import Dispatch
import Foundation
import Streams
import Synchronization
import Testing

/// Records what one observer receives and counts overlapping calls: Streams serializes
/// deliveries, so `depth` must never exceed 1. The log has its own lock because a delivery that
/// started before `dispose()` may still finish after it (as in RxSwift), while the test reads it.
private final class Recorder: @unchecked Sendable {
  private let lock = NSLock()
  private var log: [Event<Int>] = []
  private let depth = Atomic<Int>(0)
  private let overlapCount = Atomic<Int>(0)

  func on(_ event: Event<Int>) {
    if depth.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
      overlapCount.add(1, ordering: .sequentiallyConsistent)
    }
    lock.withLock { log.append(event) }
    depth.subtract(1, ordering: .sequentiallyConsistent)
  }

  var events: [Event<Int>] { lock.withLock { log } }
  var overlaps: Int { overlapCount.load(ordering: .sequentiallyConsistent) }
}

/// A value shared between threads, behind an `NSLock` (which ThreadSanitizer understands).
private final class Shared<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.withLock { body(&value) }
  }
}

/// Runs every body on its own thread, released together. Returns `false` if they have not all
/// finished after `seconds` (a hang, reported by the caller, never a timing assertion). Each body
/// is released on its thread before the thread reports back, so that what it captured is gone by
/// the time this returns.
private func runConcurrently(_ bodies: [@Sendable () -> Void], timeout seconds: Int = 30) -> Bool {
  let start = DispatchSemaphore(value: 0)
  let done = DispatchGroup()
  for body in bodies {
    let job = Job(body)
    done.enter()
    Thread {
      start.wait()
      job.run()
      done.leave()
    }.start()
  }
  for _ in bodies { start.signal() }
  return done.wait(timeout: .now() + .seconds(seconds)) == .success
}

/// One thread's work, dropped as soon as it has run.
///
/// `@unchecked Sendable`: `body` is set before the thread starts and only touched by that thread.
private final class Job: @unchecked Sendable {
  private var body: (@Sendable () -> Void)?
  init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  func run() {
    let body = self.body
    self.body = nil
    body?()
  }
}

/// Producer `producer`'s `index`-th element.
private func tag(_ producer: Int, _ index: Int) -> Int { producer * 1_000_000 + index }

/// Checks `elements` hold each producer's elements once, in the order it sent them.
private func eachProducerInOrder(_ elements: [Int], producers: Int, perProducer: Int) -> Bool {
  var next = Array(repeating: 0, count: producers)
  for element in elements {
    let producer = element / 1_000_000
    guard producer < producers, element % 1_000_000 == next[producer] else { return false }
    next[producer] += 1
  }
  return next.allSatisfy { $0 == perProducer }
}

/// Checks the grammar `next* (error | completed)?`.
private func followsGrammar(_ events: [Event<Int>]) -> Bool {
  guard let index = events.firstIndex(where: \.isStopEvent) else { return true }
  return index == events.count - 1
}

@Suite("Subject Stress")
struct SubjectStressTests {
  static let producers = 4
  static let perProducer = 1_000

  @Test("concurrent onNext: never overlapping deliveries, every event once, per-producer order")
  func concurrentOnNext() {
    for makeSubject in [
      { PublishSubject<Int>().asObserverAndObservable() },
      { ReplaySubject<Int>.create(bufferSize: 4).asObserverAndObservable() },
      { BehaviorSubject(value: -1).asObserverAndObservable() },
    ] {
      let (observer, observable) = makeSubject()
      let recorders = (0..<3).map { _ in Recorder() }
      let subscriptions = recorders.map { recorder in observable.subscribe { recorder.on($0) } }
      let finished = runConcurrently(
        (0..<Self.producers).map { producer in
          {
            for index in 0..<Self.perProducer { observer.onNext(tag(producer, index)) }
          }
        })
      #expect(finished, "emitting threads hung")
      for recorder in recorders {
        let elements = recorder.events.compactMap(\.element).filter { $0 >= 0 }
        #expect(recorder.overlaps == 0)
        #expect(
          eachProducerInOrder(elements, producers: Self.producers, perProducer: Self.perProducer))
      }
      for subscription in subscriptions { subscription.dispose() }
    }
  }

  @Test("lock-free onNext with subscribers churning: steady observers miss nothing, in order")
  func steadyObserversWhileChurning() {
    let subject = PublishSubject<Int>()
    let steady = (0..<3).map { _ in Recorder() }
    let steadySubscriptions = steady.map { recorder in subject.subscribe { recorder.on($0) } }
    let churned = Shared<[Recorder]>([])
    let churner = { @Sendable in
      for _ in 0..<300 {
        let recorder = Recorder()
        let subscription = subject.subscribe { recorder.on($0) }
        subscription.dispose()
        churned.withLock { $0.append(recorder) }
      }
    }
    let emitters = (0..<2).map { producer in
      { @Sendable in
        for index in 0..<Self.perProducer { subject.onNext(tag(producer, index)) }
      }
    }
    #expect(runConcurrently([churner, churner] + emitters), "threads hung")
    for recorder in steady {
      #expect(recorder.overlaps == 0)
      #expect(
        eachProducerInOrder(
          recorder.events.compactMap(\.element), producers: 2, perProducer: Self.perProducer))
    }
    for recorder in churned.withLock({ $0 }) {
      #expect(recorder.overlaps == 0)
      #expect(recorder.events.allSatisfy { $0.element != nil })
    }
    for subscription in steadySubscriptions { subscription.dispose() }
    #expect(!subject.hasObservers)
  }

  @Test("an observer disposed by an earlier observer of the same event gets nothing more")
  func disposedMidDeliveryUnderLoad() {
    let subject = PublishSubject<Int>()
    let victimEvents = Shared<[Int]>([])
    let victim = Shared<(any Disposable)?>(nil)
    let disposedAfter = Shared<Int?>(nil)
    // The first observer disposes the second when it sees element 500 from producer 0; from then
    // on (deliveries are serialized) the second must receive nothing.
    _ = subject.subscribe(onNext: { element in
      if element == tag(0, 500) {
        victim.withLock { $0 }?.dispose()
        disposedAfter.withLock { $0 = element }
      }
    })
    victim.withLock {
      $0 = subject.subscribe(onNext: { element in
        #expect(disposedAfter.withLock { $0 } == nil, "delivered after dispose: \(element)")
        victimEvents.withLock { $0.append(element) }
      })
    }
    let emitters = (0..<2).map { producer in
      { @Sendable in
        for index in 0..<Self.perProducer { subject.onNext(tag(producer, index)) }
      }
    }
    #expect(runConcurrently(emitters), "threads hung")
    #expect(disposedAfter.withLock { $0 } == tag(0, 500))
    #expect(!victimEvents.withLock { $0 }.contains(tag(0, 500)))
  }

  @Test("re-entrant onNext is queued and delivered after the current event reached everyone")
  func reentrantOnNext() {
    let subject = PublishSubject<Int>()
    let log = Recorder()
    let order = Slot<[String]>([])
    _ = subject.subscribe(onNext: { element in
      order.value.append("A\(element)")
      if element == 1 {
        subject.onNext(2)
        order.value.append("A sent 2")
      }
      log.on(.next(element))
    })
    _ = subject.subscribe(onNext: { element in order.value.append("B\(element)") })
    subject.onNext(1)
    #expect(order.value == ["A1", "A sent 2", "B1", "A2", "B2"])
    #expect(log.overlaps == 0)
  }

  @Test("subscribing and disposing while other threads emit keeps every subscription's grammar")
  func subscribeDisposeRace() {
    let subject = PublishSubject<Int>()
    let collected = Shared<[Recorder]>([])
    let churners = (0..<2).map { _ in
      { @Sendable in
        for _ in 0..<300 {
          let recorder = Recorder()
          let subscription = subject.subscribe { recorder.on($0) }
          subscription.dispose()
          collected.withLock { $0.append(recorder) }
        }
      }
    }
    let emitters = (0..<2).map { producer in
      { @Sendable in
        for index in 0..<Self.perProducer { subject.onNext(tag(producer, index)) }
      }
    }
    #expect(runConcurrently(churners + emitters), "threads hung")
    #expect(!subject.hasObservers)
    for recorder in collected.withLock({ $0 }) {
      let events = recorder.events
      #expect(recorder.overlaps == 0)
      #expect(followsGrammar(events))
      // Each short-lived subscription sees, per producer, an increasing run of elements.
      var last = [Int: Int]()
      for element in events.compactMap(\.element) {
        let producer = element / 1_000_000
        #expect(element > last[producer, default: -1])
        last[producer] = element
      }
    }
    subject.onCompleted()
    let late = Slot<[Event<Int>]>([])
    _ = subject.subscribe { late.value.append($0) }
    #expect(late.value == [.completed])
  }

  @Test("a replay subscriber racing with emission sees the elements without gaps or repeats")
  func replayRace() {
    let subject = ReplaySubject<Int>.createUnbounded()
    let runs = Shared<[[Int]]>([])
    let subscriber = { @Sendable in
      for _ in 0..<50 {
        let recorder = Recorder()
        let subscription = subject.subscribe { recorder.on($0) }
        subscription.dispose()
        runs.withLock { $0.append(recorder.events.compactMap(\.element)) }
      }
    }
    let emitter = { @Sendable in
      for index in 0..<(Self.perProducer * 2) { subject.onNext(index) }
    }
    #expect(runConcurrently([subscriber, subscriber, emitter]), "threads hung")
    for run in runs.withLock({ $0 }) {
      // Replay then live: always 0, 1, 2, ... without a gap or a repeat.
      #expect(run == Array(0..<run.count))
    }
  }

  @Test("share: subscribers racing with emission; the source is released when the last leaves")
  func shareRace() {
    for scope in [SubjectLifetimeScope.whileConnected, .forever] {
      let subject = PublishSubject<Int>()
      let shared = UncheckedSendable(subject.share(replay: 1, scope: scope))
      let recorders = Shared<[Recorder]>([])
      let churner = { @Sendable in
        for _ in 0..<200 {
          let recorder = Recorder()
          let subscription = shared.value.subscribe { recorder.on($0) }
          subscription.dispose()
          recorders.withLock { $0.append(recorder) }
        }
      }
      let emitter = { @Sendable in
        for index in 0..<Self.perProducer { subject.onNext(index) }
      }
      #expect(runConcurrently([churner, churner, emitter]), "threads hung")
      #expect(!subject.hasObservers, "the source subscription outlived every subscriber")
      for recorder in recorders.withLock({ $0 }) {
        #expect(followsGrammar(recorder.events))
        #expect(recorder.overlaps == 0)
        let elements = recorder.events.compactMap(\.element)
        #expect(elements == elements.sorted())
      }
    }
  }

  @Test("BehaviorRelay.update from many threads loses no increment")
  func relayUpdateRace() {
    let relay = BehaviorRelay(value: 0)
    let recorder = Recorder()
    _ = relay.subscribe { recorder.on($0) }
    let updater = { @Sendable in
      for _ in 0..<Self.perProducer { relay.update { $0 += 1 } }
    }
    #expect(runConcurrently(Array(repeating: updater, count: Self.producers)), "threads hung")
    #expect(relay.value == Self.producers * Self.perProducer)
    #expect(
      recorder.events.compactMap(\.element) == Array(0...(Self.producers * Self.perProducer)))
    #expect(recorder.overlaps == 0)
  }

  @Test("Resources.total returns to its baseline after concurrent use")
  func resourcesBaseline() async {
    // A child process, so that tests running in parallel do not move the process-wide count.
    await #expect(processExitsWith: .success) {
      let before = Resources.total
      do {
        let subject = PublishSubject<Int>()
        let replay = ReplaySubject<Int>.create(bufferSize: 2)
        let shared = UncheckedSendable(subject.share(replay: 1))
        let published = UncheckedSendable(replay.publish().refCount())
        let worker = { @Sendable in
          for index in 0..<200 {
            let first = shared.value.subscribe(onNext: { _ in })
            let second = published.value.subscribe(onNext: { _ in })
            subject.onNext(index)
            replay.onNext(index)
            first.dispose()
            second.dispose()
          }
        }
        precondition(runConcurrently([worker, worker, worker]), "threads hung")
        subject.onCompleted()
        replay.onCompleted()
      }
      precondition(Resources.total == before, "leaked \(Resources.total - before) objects")
    }
  }
}

/// Test state touched by one thread at a time (or guarded by Streams' serialized delivery).
private final class Slot<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}

/// Moves an `Observable` (not `Sendable`) to other threads; subscribing from any thread is part of
/// the Rx contract.
private struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

extension ObserverType where Self: ObservableType, Element == Int {
  fileprivate func asObserverAndObservable() -> (AnyObserver<Int>, Observable<Int>) {
    (AnyObserver(self), asObservable())
  }
}
