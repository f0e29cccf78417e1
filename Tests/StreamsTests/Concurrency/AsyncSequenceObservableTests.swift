import Testing

@testable import Streams

@Suite("AsyncSequence.asObservable", .timeLimit(.minutes(1)))
struct AsyncSequenceObservableTests {
  @Test("elements become .next and the end becomes .completed")
  func valuesAndCompletion() async {
    let stream = AsyncStream<Int> { continuation in
      for element in 1...3 { continuation.yield(element) }
      continuation.finish()
    }
    let events = await bridgeRecord(stream.asObservable())
    #expect(events == [.next(1), .next(2), .next(3), .completed])
  }

  @Test("an error becomes .error")
  func error() async {
    let stream = AsyncThrowingStream<Int, any Error> { continuation in
      continuation.yield(1)
      continuation.finish(throwing: BridgeTestError(id: 3))
    }
    let events = await bridgeRecord(stream.asObservable())
    #expect(events == [.next(1), .error(BridgeTestError(id: 3))])
  }

  @Test("a CancellationError becomes .completed")
  func cancellationErrorCompletes() async {
    let stream = AsyncThrowingStream<Int, any Error> { continuation in
      continuation.yield(1)
      continuation.finish(throwing: CancellationError())
    }
    let events = await bridgeRecord(stream.asObservable())
    #expect(events == [.next(1), .completed])
  }

  @Test("disposing cancels the task; nothing is delivered after disposal")
  func disposalCancels() async {
    let termination = BridgeBox<String>("running")
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    continuation.onTermination = { reason in
      termination.update { $0 = "\(reason)" }
    }
    let events = BridgeBox<[Event<Int>]>([])
    let subscription = stream.asObservable().subscribe { event in
      events.update { $0.append(event) }
    }
    continuation.yield(1)
    await bridgeWait { events.value.count == 1 }
    subscription.dispose()
    await bridgeWait { termination.value != "running" }
    #expect(termination.value == "cancelled")
    continuation.yield(2)
    #expect(events.value == [.next(1)])
  }

  @Test("each subscription iterates in its own task")
  func subscriptionPerTask() async {
    let counter = AtomicCounter()
    let sequence = CountingSequence(counter: counter)
    let observable = sequence.asObservable()
    let first = await bridgeRecord(observable)
    let second = await bridgeRecord(observable)
    #expect(first == [.next(1), .completed])
    #expect(second == [.next(2), .completed])
  }

  @Test("priority is the iterating task's priority")
  func priority() async {
    let events = await bridgeRecord(PrioritySequence().asObservable(priority: .low))
    #expect(events == [.next(TaskPriority.low.rawValue), .completed])
  }

  @Test("on: .mainActor delivers on the main actor, never synchronously inside subscribe")
  @MainActor
  func mainActorDelivery() async {
    let stream = AsyncStream<Int> { continuation in
      for element in 1...3 { continuation.yield(element) }
      continuation.finish()
    }
    #expect(BridgeMainQueue.isCurrent)
    let onMain = BridgeBox<[Bool]>([])
    let events = BridgeBox<[Event<Int>]>([])
    let done = BridgeBox(false)
    let subscription = stream.asObservable(on: .mainActor).subscribe { event in
      onMain.update { $0.append(BridgeMainQueue.isCurrent) }
      events.update { $0.append(event) }
      if event.isStopEvent { done.update { $0 = true } }
    }
    #expect(events.value == [])
    await bridgeWait { done.value }
    #expect(events.value == [.next(1), .next(2), .next(3), .completed])
    #expect(onMain.value == [true, true, true, true])
    subscription.dispose()
  }

  @Test("the default delivers on the cooperative pool, off the main queue")
  @MainActor
  func poolDelivery() async {
    let stream = AsyncStream<Int> { continuation in
      continuation.yield(1)
      continuation.finish()
    }
    let onMain = BridgeBox<[Bool]>([])
    let done = BridgeBox(false)
    // Received off the main actor on purpose: `isolation: nil` opts out of the check that a
    // closure written on the main actor is called there (it touches only locked boxes).
    _ = stream.asObservable().subscribe(
      { event in
        onMain.update { $0.append(BridgeMainQueue.isCurrent) }
        if event.isStopEvent { done.update { $0 = true } }
      }, isolation: nil)
    await bridgeWait { done.value }
    #expect(onMain.value == [false, false])
  }
}

/// Yields the number of iterations started so far, once per iterator.
struct CountingSequence: AsyncSequence, Sendable {
  let counter: AtomicCounter

  func makeAsyncIterator() -> Iterator { Iterator(counter: counter) }

  struct Iterator: AsyncIteratorProtocol {
    let counter: AtomicCounter
    var done = false

    mutating func next() async -> Int? {
      if done { return nil }
      done = true
      return counter.increment()
    }
  }
}

/// Yields the priority of the task iterating it, once.
struct PrioritySequence: AsyncSequence, Sendable {
  func makeAsyncIterator() -> Iterator { Iterator() }

  struct Iterator: AsyncIteratorProtocol {
    var done = false

    mutating func next() async -> UInt8? {
      if done { return nil }
      done = true
      return Task.currentPriority.rawValue
    }
  }
}
