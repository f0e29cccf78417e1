import Dispatch
import StreamsTest
import Testing

@testable import Streams

extension ObservableValuesTests {
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
}
