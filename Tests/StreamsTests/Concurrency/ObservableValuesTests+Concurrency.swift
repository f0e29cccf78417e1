import Dispatch
import StreamsTest
import Testing

@testable import Streams

extension ObservableValuesTests {
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
