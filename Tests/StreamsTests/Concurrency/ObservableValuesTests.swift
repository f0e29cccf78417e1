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
}
