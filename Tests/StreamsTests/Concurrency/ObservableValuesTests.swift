import Dispatch
import StreamsTest
import Testing

@testable import Streams

@Suite("ObservableValues", .timeLimit(.minutes(1)))
struct ObservableValuesTests {
  // MARK: values, completion, errors

  @Test("values yields every element in order and ends at completion")
  func valuesInOrder() async throws {
    var received: [Int] = []
    for try await value in bridgeSequence([1, 2, 3]).values { received.append(value) }
    #expect(received == [1, 2, 3])
  }

  @Test("an error is thrown once, after the elements before it, then next() returns nil")
  func errorThrownOnce() async throws {
    var iterator = bridgeSequence([1, 2], then: .error(BridgeTestError(id: 7))).values
      .makeAsyncIterator()
    #expect(try await iterator.next() == 1)
    #expect(try await iterator.next() == 2)
    await #expect(throws: BridgeTestError(id: 7)) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
    #expect(try await iterator.next() == nil)
  }

  @Test("an error reaching a suspended consumer is thrown at once")
  func errorWhileSuspended() async throws {
    let subject = PublishSubject<Int>()
    let iterator = subject.values.makeAsyncIterator()
    let storage = iterator.storage
    let consumer = Task { [iterator] in
      var iterator = iterator
      var received: [Int] = []
      do {
        while let value = try await iterator.next() { received.append(value) }
      } catch {
        return (received, error as? BridgeTestError)
      }
      return (received, nil)
    }
    await bridgeWait { storage.hasWaiter }
    subject.onNext(1)
    await bridgeWait { storage.hasWaiter }
    subject.onError(BridgeTestError(id: 1))
    let (received, error) = await consumer.value
    #expect(received == [1])
    #expect(error == BridgeTestError(id: 1))
    #expect(!subject.hasObservers)
  }

  @Test("completion reaching a suspended consumer ends the loop and releases the subscription")
  func completionWhileSuspended() async throws {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300), .next(310, 9),
    ])
    scheduler.advanceTo(200)
    let iterator = xs.values.makeAsyncIterator()
    let storage = iterator.storage
    let consumer = Task { [iterator] in
      var iterator = iterator
      var received: [Int] = []
      while let value = try await iterator.next() { received.append(value) }
      return received
    }
    await bridgeWait { storage.hasWaiter }
    scheduler.advanceTo(400)
    #expect(try await consumer.value == [1, 2, 3])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  // MARK: subscription

  @Test("reading values or making an iterator does not subscribe; the first next() does")
  func lazySubscription() async throws {
    let log = BridgeBox<[String]>([])
    let subject = ReplaySubject<Int>.createUnbounded()
    subject.onNext(1)
    let source = Observable<Int>.create { observer in
      log.update { $0.append("subscribe") }
      return subject.subscribe(observer)
    }
    let values = source.values
    var first = values.makeAsyncIterator()
    var second = values.makeAsyncIterator()
    #expect(log.value == [])
    #expect(try await first.next() == 1)
    #expect(log.value == ["subscribe"])
    #expect(try await second.next() == 1)
    #expect(log.value == ["subscribe", "subscribe"])
  }

  @Test("a task cancelled before its first next() never subscribes: it throws CancellationError")
  func cancelledBeforeFirstNext() async throws {
    let log = BridgeBox<[String]>([])
    let subject = PublishSubject<Int>()
    let iterator = bridgeTrackedSubject(subject, log: log).values.makeAsyncIterator()
    let consumer = Task { [iterator] in
      var iterator = iterator
      withUnsafeCurrentTask { $0?.cancel() }
      var threw = false
      do { _ = try await iterator.next() } catch is CancellationError { threw = true }
      // Once: the next call ends the loop.
      return (threw, try await iterator.next())
    }
    let (threw, after) = try await consumer.value
    #expect(threw)
    #expect(after == nil)
    #expect(log.value == [])
  }

  @Test("a sequence that cannot fail ends with nil when its task is cancelled")
  func cancelledInfallible() async {
    let relay = PublishRelay<Int>()
    let consumer = Task {
      var iterator = relay.values.makeAsyncIterator()
      withUnsafeCurrentTask { $0?.cancel() }
      return await iterator.next()
    }
    #expect(await consumer.value == nil)
  }

  // MARK: cancellation

  @Test("cancelling a suspended consumer disposes the subscription before next() throws")
  func cancelSuspendedConsumer() async throws {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
    scheduler.advanceTo(200)
    let log = BridgeBox<[String]>([])
    let source = Observable<Int>.create { observer in
      let subscription = xs.subscribe(observer)
      return Disposables.create {
        subscription.dispose()
        log.update { $0.append("dispose") }
      }
    }
    let iterator = source.values.makeAsyncIterator()
    let storage = iterator.storage
    let consumer = Task { [iterator] in
      var iterator = iterator
      var received: [Int] = []
      do {
        while let value = try await iterator.next() { received.append(value) }
      } catch is CancellationError {
        log.update { $0.append("next threw CancellationError") }
      }
      return received
    }
    await bridgeWait { storage.hasWaiter }
    scheduler.advanceTo(215)
    await bridgeWait { storage.hasWaiter }
    consumer.cancel()
    #expect(try await consumer.value == [1])
    #expect(log.value == ["dispose", "next threw CancellationError"])
    scheduler.advanceTo(400)
    #expect(xs.subscriptions == [Subscription(200, 215)])
  }

  @Test("cancelling a busy consumer discards the buffer and disposes before next() throws")
  func cancelBusyConsumer() async throws {
    let log = BridgeBox<[String]>([])
    let subject = PublishSubject<Int>()
    let iterator = bridgeTrackedSubject(subject, log: log).values.makeAsyncIterator()
    let storage = iterator.storage
    let consumer = Task { [iterator] in
      var iterator = iterator
      var received: [Int] = []
      do {
        while let value = try await iterator.next() {
          received.append(value)
          // The loop body is busy while the producer sends 2, 3, 4; then the task is cancelled.
          subject.onNext(2)
          subject.onNext(3)
          subject.onNext(4)
          withUnsafeCurrentTask { $0?.cancel() }
        }
      } catch is CancellationError {
        log.update { $0.append("next threw CancellationError") }
      }
      return received
    }
    await bridgeWait { storage.hasWaiter }
    subject.onNext(1)
    #expect(try await consumer.value == [1])
    #expect(log.value == ["subscribe", "dispose", "next threw CancellationError"])
    #expect(!subject.hasObservers)
  }

  @Test("leaving the loop with break disposes the subscription")
  func breakDisposes() async throws {
    let log = BridgeBox<[String]>([])
    let subject = BehaviorSubject(value: 1)
    let source = Observable<Int>.create { observer in
      let subscription = subject.subscribe(observer)
      return Disposables.create {
        subscription.dispose()
        log.update { $0.append("dispose") }
      }
    }
    for try await value in source.values {
      #expect(value == 1)
      break
    }
    #expect(log.value == ["dispose"])
    #expect(!subject.hasObservers)
  }

  @Test("dropping an iterator disposes its subscription only")
  func droppedIteratorDisposes() async throws {
    let subject = BehaviorSubject(value: 1)
    let values = subject.values
    var kept = values.makeAsyncIterator()
    #expect(try await kept.next() == 1)
    do {
      var dropped = values.makeAsyncIterator()
      #expect(try await dropped.next() == 1)
      #expect(subject.core.state.withLock { $0.subscribers } == 2)
    }
    #expect(subject.core.state.withLock { $0.subscribers } == 1)
    subject.onNext(2)
    #expect(try await kept.next() == 2)
  }

  @Test("released elements run their deinit outside the lock (re-entering the bridge is safe)")
  func releaseOutsideLock() async throws {
    final class Reentrant: Sendable {
      let onDeinit: @Sendable () -> Void
      init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
      deinit { onDeinit() }
    }
    let subject = PublishSubject<Reentrant>()
    let iterator = subject.values.makeAsyncIterator()
    let storage = iterator.storage
    let consumer = Task { [iterator] in
      var iterator = iterator
      var count = 0
      do {
        while try await iterator.next() != nil {
          count += 1
          // Buffered while the body runs; their deinit, on cancellation, sends to the same
          // bridge.
          subject.onNext(Reentrant { subject.onNext(Reentrant {}) })
          subject.onNext(Reentrant { subject.onNext(Reentrant {}) })
          withUnsafeCurrentTask { $0?.cancel() }
        }
      } catch is CancellationError {}
      return count
    }
    await bridgeWait { storage.hasWaiter }
    subject.onNext(Reentrant {})
    #expect(try await consumer.value == 1)
  }

  @Test("the iterator's storage is freed after completion, cancellation, break and no use")
  func noLeaks() async throws {
    weak var completed: ValuesStorage<Int>?
    do {
      var iterator = bridgeSequence([1, 2]).values.makeAsyncIterator()
      completed = iterator.storage
      while try await iterator.next() != nil {}
    }
    #expect(completed == nil)

    weak var broken: ValuesStorage<Int>?
    let subject = BehaviorSubject(value: 1)
    do {
      var iterator = subject.values.makeAsyncIterator()
      broken = iterator.storage
      _ = try await iterator.next()
    }
    #expect(broken == nil)
    #expect(!subject.hasObservers)

    weak var unused: ValuesStorage<Int>?
    do {
      let iterator = subject.values.makeAsyncIterator()
      unused = iterator.storage
    }
    #expect(unused == nil)

    let publish = PublishSubject<Int>()
    weak var cancelled: ValuesStorage<Int>?
    let consumer: Task<Void, any Error>
    do {
      let iterator = publish.values.makeAsyncIterator()
      cancelled = iterator.storage
      consumer = Task { [iterator] in
        var iterator = iterator
        while try await iterator.next() != nil {}
      }
    }
    await bridgeWait { cancelled?.hasWaiter == true }
    consumer.cancel()
    await #expect(throws: CancellationError.self) { try await consumer.value }
    #expect(cancelled == nil)
    #expect(!publish.hasObservers)
  }

  // MARK: buffering policies: a fast producer against a slow consumer

  /// Subscribes through a `BehaviorSubject` (whose first element arrives without suspending), then
  /// sends `1...5` while the consumer is busy, then drains what the policy kept.
  private func busyConsumer(
    _ policy: AsyncBufferingPolicy
  ) async throws -> (received: [Int], dropped: [Int], count: Int, total: Int) {
    let subject = BehaviorSubject(value: 0)
    let drops = BridgeBox<[Int]>([])
    let values = subject.values(bufferingPolicy: policy) { element in
      drops.update { $0.append(element) }
    }
    var iterator = values.makeAsyncIterator()
    #expect(try await iterator.next() == 0)
    for element in 1...5 { subject.onNext(element) }
    // onDrop ran synchronously, on the sending thread, before onNext returned.
    let dropped = drops.value
    subject.onCompleted()
    var received: [Int] = []
    while let value = try await iterator.next() { received.append(value) }
    return (received, dropped, iterator.droppedCount, values.droppedCount)
  }

  @Test("unbounded: a busy consumer loses nothing")
  func unboundedKeepsAll() async throws {
    let result = try await busyConsumer(.unbounded)
    #expect(result.received == [1, 2, 3, 4, 5])
    #expect(result.dropped == [])
    #expect(result.count == 0)
    #expect(result.total == 0)
  }

  @Test("bufferingNewest(2): a busy consumer gets the two newest; the rest are counted")
  func bufferingNewestKeepsNewest() async throws {
    let result = try await busyConsumer(.bufferingNewest(2))
    #expect(result.received == [4, 5])
    #expect(result.dropped == [1, 2, 3])
    #expect(result.count == 3)
    #expect(result.total == 3)
  }

  @Test("bufferingOldest(2): a busy consumer gets the two oldest; the rest are counted")
  func bufferingOldestKeepsOldest() async throws {
    let result = try await busyConsumer(.bufferingOldest(2))
    #expect(result.received == [1, 2])
    #expect(result.dropped == [3, 4, 5])
    #expect(result.count == 3)
    #expect(result.total == 3)
  }

  @Test("a limit of 0 keeps nothing for a busy consumer")
  func zeroLimitKeepsNothing() async throws {
    for policy in [AsyncBufferingPolicy.bufferingNewest(0), .bufferingOldest(0)] {
      let result = try await busyConsumer(policy)
      #expect(result.received == [])
      #expect(result.dropped == [1, 2, 3, 4, 5])
      #expect(result.count == 5)
    }
  }

  /// Sends `1...4` while the consumer is suspended: the first goes straight to it, the rest meet
  /// the policy.
  ///
  /// The consumer stays busy (held at `gate`) from the first element until everything is sent, so
  /// `2...4` wait for it. Without the gate the outcome would be a race the contract allows either
  /// way: a consumer that resumes and suspends again before `2` is sent is a suspended consumer,
  /// and receives `2` directly too.
  private func suspendedConsumer(
    _ policy: AsyncBufferingPolicy
  ) async throws -> (received: [Int], dropped: [Int]) {
    let subject = PublishSubject<Int>()
    let drops = BridgeBox<[Int]>([])
    let gate = BridgeBox(false)
    let iterator = subject.values(bufferingPolicy: policy) { element in
      drops.update { $0.append(element) }
    }.makeAsyncIterator()
    let storage = iterator.storage
    let consumer = Task { [iterator] in
      var iterator = iterator
      var received: [Int] = []
      while let value = try await iterator.next() {
        received.append(value)
        await bridgeWait { gate.value }
      }
      return received
    }
    await bridgeWait { storage.hasWaiter }
    for element in 1...4 { subject.onNext(element) }
    subject.onCompleted()
    gate.update { $0 = true }
    return (try await consumer.value, drops.value)
  }

  @Test("a suspended consumer receives the element directly; the policy applies behind it")
  func suspendedConsumerPolicies() async throws {
    let unbounded = try await suspendedConsumer(.unbounded)
    #expect(unbounded.received == [1, 2, 3, 4])
    #expect(unbounded.dropped == [])
    let newest = try await suspendedConsumer(.bufferingNewest(1))
    #expect(newest.received == [1, 4])
    #expect(newest.dropped == [2, 3])
    let oldest = try await suspendedConsumer(.bufferingOldest(1))
    #expect(oldest.received == [1, 2])
    #expect(oldest.dropped == [3, 4])
    let none = try await suspendedConsumer(.bufferingNewest(0))
    #expect(none.received == [1])
    #expect(none.dropped == [2, 3, 4])
  }

  @Test(
    "a synchronous replay hands its first element to the subscribing next(), then meets the policy")
  func replayHandsFirstElement() async throws {
    let subject = ReplaySubject<Int>.createUnbounded()
    subject.onNext(1)
    subject.onNext(2)
    subject.onNext(3)
    subject.onCompleted()
    let newest = subject.values(bufferingPolicy: .bufferingNewest(1))
    var received: [Int] = []
    for try await value in newest { received.append(value) }
    #expect(received == [1, 3])
    #expect(newest.droppedCount == 1)
    let none = subject.values(bufferingPolicy: .bufferingOldest(0))
    received = []
    for try await value in none { received.append(value) }
    #expect(received == [1])
    #expect(none.droppedCount == 2)
  }

  @Test("the sequence's droppedCount sums its iterators")
  func droppedCountSums() async throws {
    let subject = BehaviorSubject(value: 0)
    let values = subject.values(bufferingPolicy: .bufferingOldest(1))
    var first = values.makeAsyncIterator()
    var second = values.makeAsyncIterator()
    #expect(try await first.next() == 0)
    #expect(try await second.next() == 0)
    for element in 1...3 { subject.onNext(element) }
    #expect(first.droppedCount == 2)
    #expect(second.droppedCount == 2)
    #expect(values.droppedCount == 4)
  }

  @Test("unbounded FIFO holds across buffer growth and batched reads")
  func unboundedFIFOLarge() async throws {
    let subject = BehaviorSubject(value: 0)
    var iterator = subject.values.makeAsyncIterator()
    #expect(try await iterator.next() == 0)
    var expected: [Int] = []
    for round in 0..<3 {
      let elements = (1...1000).map { round * 1000 + $0 }
      for element in elements { subject.onNext(element) }
      expected += elements
      // Read part of the backlog, then send more behind it.
    }
    subject.onCompleted()
    var received: [Int] = []
    while let value = try await iterator.next() { received.append(value) }
    #expect(received == expected)
  }

  // MARK: concurrent consumers

  @Test("two concurrent loops each get their own subscription and every element")
  func twoConcurrentConsumers() async throws {
    let subject = PublishSubject<Int>()
    let registry = BridgeBox<[ValuesStorage<Int>]>([])
    let consumers = (0..<2).map { _ in bridgeConsumer(registry: registry) { subject.values } }
    await bridgeWait { registry.value.count == 2 && registry.value.allSatisfy(\.hasWaiter) }
    #expect(subject.core.state.withLock { $0.subscribers } == 2)
    for element in 1...100 { subject.onNext(element) }
    subject.onCompleted()
    for consumer in consumers {
      #expect(try await consumer.value == Array(1...100))
    }
  }

  @Test("many concurrent loops over a ReplaySubject each receive the replay, then live elements")
  func replaySubjectManyConsumers() async throws {
    let subject = ReplaySubject<Int>.create(bufferSize: 2)
    subject.onNext(1)
    subject.onNext(2)
    subject.onNext(3)
    let registry = BridgeBox<[ValuesStorage<Int>]>([])
    let consumers = (0..<8).map { _ in bridgeConsumer(registry: registry) { subject.values } }
    // Every loop has taken the replay and waits for more.
    await bridgeWait { registry.value.count == 8 && registry.value.allSatisfy(\.hasWaiter) }
    for element in 4...50 { subject.onNext(element) }
    subject.onCompleted()
    for consumer in consumers {
      #expect(try await consumer.value == Array(2...50))
    }
    #expect(!subject.hasObservers)
  }

  @Test("many concurrent loops over a BehaviorSubject each start with the current value")
  func behaviorSubjectManyConsumers() async throws {
    let subject = BehaviorSubject(value: 0)
    let consumers = (0..<6).map { _ in
      Task {
        var received: [Int] = []
        for try await value in subject.values {
          received.append(value)
          if value == 20 { break }
        }
        return received
      }
    }
    await bridgeWait { subject.core.state.withLock { $0.subscribers } == 6 }
    for element in 1...20 { subject.onNext(element) }
    for consumer in consumers {
      #expect(try await consumer.value == Array(0...20))
    }
    await bridgeWait { !subject.hasObservers }
  }

  // MARK: relays and isolation

  @Test("relays give non-throwing sequences")
  func relaysAreNonThrowing() async {
    let relay = BehaviorRelay(value: 1)
    let values: ObservableValues<Int, Never> = relay.values
    var received: [Int] = []
    for await value in values {
      received.append(value)
      if value == 1 { relay.accept(2) } else { break }
    }
    #expect(received == [1, 2])
    let replay = ReplayRelay<Int>.create(bufferSize: 1)
    replay.accept(5)
    for await value in replay.values(bufferingPolicy: .bufferingNewest(1)) {
      #expect(value == 5)
      break
    }
    let publish = PublishRelay<Int>()
    let publishValues: ObservableValues<Int, Never> = publish.values
    _ = publishValues
  }

  @Test("a loop on an actor does not hop off the actor per element (next(isolation:))")
  func noHopPerElement() async throws {
    let subject = ReplaySubject<Int>.createUnbounded()
    for element in 1...200 { subject.onNext(element) }
    subject.onCompleted()
    let consumer = CountingConsumer()
    let isolated = try await consumer.drainIsolated(subject)
    let nonisolated = try await consumer.drainNonisolated(subject)
    #expect(isolated.received == Array(1...200))
    #expect(nonisolated.received == Array(1...200))
    // Resuming into the actor enqueues a job on its executor: next(isolation:) never leaves the
    // actor while elements are buffered; the nonisolated next() leaves and returns every time.
    #expect(isolated.enqueued == 0)
    #expect(nonisolated.enqueued >= 200)
  }
}

/// An executor that counts the jobs enqueued on it.
final class CountingExecutor: SerialExecutor {
  let count = AtomicCounter()
  private let queue = BridgeSerialQueue()

  func enqueue(_ job: consuming ExecutorJob) {
    count.increment()
    let unowned = UnownedJob(job)
    let executor = asUnownedSerialExecutor()
    queue.run { unowned.runSynchronously(on: executor) }
  }
}

/// A serial queue on a dedicated thread-safe Dispatch queue.
final class BridgeSerialQueue: Sendable {
  private let queue = DispatchQueue(label: "streams.bridge-tests")

  func run(_ body: @escaping @Sendable () -> Void) { queue.async(execute: body) }
}

actor CountingConsumer {
  let executor = CountingExecutor()

  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  func drainIsolated(_ subject: ReplaySubject<Int>) async throws -> (
    received: [Int], enqueued: Int
  ) {
    var iterator = subject.values.makeAsyncIterator()
    var received: [Int] = []
    let before = executor.count.value
    while let value = try await iterator.next(isolation: self) { received.append(value) }
    return (received, executor.count.value - before)
  }

  func drainNonisolated(_ subject: ReplaySubject<Int>) async throws -> (
    received: [Int], enqueued: Int
  ) {
    var iterator = subject.values(bufferingPolicy: .bufferingOldest(1000)).makeAsyncIterator()
    var received: [Int] = []
    let before = executor.count.value
    while let value = try await iterator.next() { received.append(value) }
    return (received, executor.count.value - before)
  }
}
