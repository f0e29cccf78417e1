import Dispatch
import Testing

@testable import Streams

/// Real threads against the async bridges; run under `swift test --sanitize=thread --filter Stress`.
@Suite("Values Stress", .timeLimit(.minutes(5)))
struct ValuesStressTests {
  static let producers = 4
  static let perProducer = 200

  /// Sends `perProducer` elements from each of `producers` threads at once, then completes.
  /// Element `p * 1_000_000 + i` is producer `p`'s `i`th.
  private func produce(into subject: PublishSubject<Int>) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let group = DispatchGroup()
      for producer in 0..<Self.producers {
        DispatchQueue.global().async(group: group) {
          for index in 0..<Self.perProducer { subject.onNext(producer * 1_000_000 + index) }
        }
      }
      group.notify(queue: .global()) {
        subject.onCompleted()
        continuation.resume()
      }
    }
  }

  /// Each producer's elements arrive in the order it sent them.
  private func isFIFOPerProducer(_ received: [Int]) -> Bool {
    var last = [Int](repeating: -1, count: Self.producers)
    for element in received {
      let producer = element / 1_000_000
      let index = element % 1_000_000
      if index <= last[producer] { return false }
      last[producer] = index
    }
    return true
  }

  @Test("concurrent producers, concurrent consumers: no loss unbounded, exact accounting bounded")
  func producersAndConsumers() async throws {
    let policies: [AsyncBufferingPolicy] = [
      .unbounded, .bufferingNewest(3), .bufferingOldest(3), .bufferingNewest(0),
    ]
    for _ in 0..<40 {
      let subject = PublishSubject<Int>()
      let registry = BridgeBox<[ValuesStorage<Int>]>([])
      let consumers = policies.map { policy in
        Task {
          let values = subject.values(bufferingPolicy: policy)
          var iterator = values.makeAsyncIterator()
          let storage = iterator.storage
          registry.update { $0.append(storage) }
          var received: [Int] = []
          while let value = try await iterator.next() { received.append(value) }
          return (received, iterator.droppedCount, values.droppedCount)
        }
      }
      await bridgeWait {
        registry.value.count == policies.count && registry.value.allSatisfy(\.hasWaiter)
      }
      await produce(into: subject)
      let sent = Self.producers * Self.perProducer
      for (policy, consumer) in zip(policies, consumers) {
        let (received, dropped, total) = try await consumer.value
        #expect(isFIFOPerProducer(received))
        #expect(received.count + dropped == sent)
        #expect(dropped == total)
        if policy == .unbounded {
          #expect(received.count == sent)
        }
      }
      #expect(!subject.hasObservers)
    }
  }

  @Test("cancellation racing with producers: disposal always precedes the loop's end")
  func cancellationRaces() async throws {
    for round in 0..<100 {
      let subject = PublishSubject<Int>()
      let logs = (0..<3).map { _ in BridgeBox<[String]>([]) }
      let consumers = logs.map { log in
        Task {
          var count = 0
          do {
            for try await _ in bridgeTrackedSubject(subject, log: log).values { count += 1 }
          } catch is CancellationError {
            log.update { $0.append("end") }
          }
          return count
        }
      }
      await bridgeWait { logs.allSatisfy { $0.value == ["subscribe"] } }
      let producer = Task.detached {
        for index in 0..<300 { subject.onNext(index) }
      }
      if round % 2 == 0 { await Task.yield() }
      for consumer in consumers { consumer.cancel() }
      await producer.value
      for (log, consumer) in zip(logs, consumers) {
        _ = try await consumer.value
        #expect(log.value == ["subscribe", "dispose", "end"])
      }
      #expect(!subject.hasObservers)
    }
  }

  @Test("leaving loops early while producers send: every subscription is released")
  func breakRaces() async throws {
    for round in 0..<100 {
      let subject = PublishSubject<Int>()
      let registry = BridgeBox<[ValuesStorage<Int>]>([])
      let consumers = (0..<3).map { consumerIndex in
        Task {
          var iterator = subject.values(bufferingPolicy: .bufferingNewest(2)).makeAsyncIterator()
          let storage = iterator.storage
          registry.update { $0.append(storage) }
          var count = 0
          while try await iterator.next() != nil {
            count += 1
            if count == (round + consumerIndex) % 7 + 1 { break }
          }
          return count
        }
      }
      await bridgeWait { registry.value.count == 3 && registry.value.allSatisfy(\.hasWaiter) }
      let producer = Task.detached {
        for index in 0..<400 { subject.onNext(index) }
        subject.onCompleted()
      }
      await producer.value
      for consumer in consumers { _ = try await consumer.value }
      #expect(!subject.hasObservers)
    }
  }

  @Test("asObservable: subscribe and dispose racing with the sequence keep the grammar")
  func asObservableRaces() async {
    for _ in 0..<100 {
      let (stream, continuation) = AsyncStream<Int>.makeStream()
      let events = BridgeBox<[Event<Int>]>([])
      let subscription = stream.asObservable().subscribe { event in
        events.update { $0.append(event) }
      }
      let producer = Task.detached {
        for index in 0..<100 { continuation.yield(index) }
        continuation.finish()
      }
      await Task.yield()
      subscription.dispose()
      await producer.value
      let recorded = events.value
      let terminals = recorded.filter(\.isStopEvent)
      #expect(terminals.count <= 1)
      if let last = terminals.first {
        #expect(recorded.last?.isStopEvent == true && last == .completed)
      }
      let elements = recorded.compactMap(\.element)
      #expect(elements == Array(0..<elements.count))
    }
  }

  @Test("firstValue racing with producers and cancellation never hangs or leaks its waiter")
  func firstValueRaces() async {
    for round in 0..<200 {
      let subject = PublishSubject<Int>()
      let consumer = Task { try await subject.firstValue }
      await bridgeWait { subject.hasObservers }
      let producer = Task.detached {
        for index in 0..<20 { subject.onNext(index) }
      }
      if round % 2 == 0 { consumer.cancel() }
      await producer.value
      consumer.cancel()
      switch await consumer.result {
      case .success(let value): #expect(value == 0)
      case .failure(let error): #expect(error is CancellationError)
      }
      await bridgeWait { !subject.hasObservers }
    }
  }

  @Test("Single.value racing with a success from another thread and cancellation")
  func singleValueRaces() async {
    for round in 0..<200 {
      let subject = PublishSubject<Int>()
      let single = subject.asSingle()
      let consumer = Task { try await single.value }
      await bridgeWait { subject.hasObservers }
      let producer = Task.detached {
        subject.onNext(round)
        subject.onCompleted()
      }
      if round % 2 == 0 { consumer.cancel() }
      await producer.value
      switch await consumer.result {
      case .success(let value): #expect(value == round)
      case .failure(let error): #expect(error is CancellationError)
      }
      await bridgeWait { !subject.hasObservers }
    }
  }
}
