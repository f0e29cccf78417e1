import Testing

@testable import Streams

/// A task-local value, to tell a task that inherits from one that does not.
enum BridgeTaskLocal {
  @TaskLocal static var name = "none"
}

/// An async function that waits until its task is cancelled, recording that it started and that it
/// saw the cancellation.
@Sendable
func bridgeWaitForCancellation(_ log: BridgeBox<[String]>) async throws {
  log.update { $0.append("started") }
  do {
    try await Task.sleep(nanoseconds: 3_600_000_000_000)
  } catch {
    log.update { $0.append("cancelled") }
    throw error
  }
}

@Suite("Single, Maybe, Completable and async", .timeLimit(.minutes(1)))
struct PrimitiveSequenceTypeAsyncTests {
  // MARK: value

  @Test("Single.value returns the element or throws the error")
  func singleValue() async throws {
    #expect(try await Single.just(5).value == 5)
    await #expect(throws: BridgeTestError(id: 1)) {
      try await Single<Int>.error(BridgeTestError(id: 1)).value
    }
  }

  @Test("Single.value disposes the subscription once the result is in")
  func singleValueDisposes() async throws {
    let log = BridgeBox<[String]>([])
    let single = Single<Int>.create { observer in
      log.update { $0.append("subscribe") }
      observer(.success(3))
      return Disposables.create { log.update { $0.append("dispose") } }
    }
    #expect(try await single.value == 3)
    #expect(log.value == ["subscribe", "dispose"])
  }

  @Test("cancelling a task waiting in Single.value disposes, then throws CancellationError")
  func singleValueCancelled() async throws {
    let log = BridgeBox<[String]>([])
    let single = Single<Int>.create { _ in
      log.update { $0.append("subscribe") }
      return Disposables.create { log.update { $0.append("dispose") } }
    }
    let consumer = Task {
      do {
        return try await single.value
      } catch is CancellationError {
        log.update { $0.append("CancellationError") }
        return -1
      }
    }
    await bridgeWait { log.value == ["subscribe"] }
    consumer.cancel()
    #expect(try await consumer.value == -1)
    #expect(log.value == ["subscribe", "dispose", "CancellationError"])
  }

  @Test("Maybe.value: the element, nil when empty, the error when failing")
  func maybeValue() async throws {
    #expect(try await Maybe.just(3).value == 3)
    #expect(try await Maybe<Int>.empty().value == nil)
    await #expect(throws: BridgeTestError(id: 2)) {
      try await Maybe<Int>.error(BridgeTestError(id: 2)).value
    }
  }

  @Test("cancelling a task waiting in Maybe.value throws CancellationError, not nil")
  func maybeValueCancelled() async throws {
    let consumer = Task { try await Maybe<Int>.never().value }
    consumer.cancel()
    await #expect(throws: CancellationError.self) { try await consumer.value }
  }

  @Test("Completable.value returns on completion and throws the error")
  func completableValue() async throws {
    try await Completable.empty().value
    await #expect(throws: BridgeTestError(id: 3)) {
      try await Completable.error(BridgeTestError(id: 3)).value
    }
    let consumer = Task { try await Completable.never().value }
    consumer.cancel()
    await #expect(throws: CancellationError.self) { try await consumer.value }
  }

  @Test("in a task already cancelled, value returns an answer given on subscription, as in RxSwift")
  func valueInCancelledTask() async throws {
    let answers = Task { () -> [String] in
      withUnsafeCurrentTask { $0?.cancel() }
      var answers: [String] = []
      answers.append("\(try await Single.just(1).value)")
      answers.append("\(try await Maybe.just(2).value ?? -1)")
      answers.append("\(try await Maybe<Int>.empty().value ?? -1)")
      try await Completable.empty().value
      answers.append("completed")
      do {
        _ = try await Single<Int>.error(BridgeTestError(id: 4)).value
      } catch {
        answers.append("\(error)")
      }
      return answers
    }
    #expect(
      try await answers.value == ["1", "2", "-1", "completed", "\(BridgeTestError(id: 4))"])
  }

  @Test("in a task already cancelled, value without an answer on subscription throws at once")
  func valueInCancelledTaskWithoutAnswer() async throws {
    let log = BridgeBox<[String]>([])
    let single = Single<Int>.create { _ in
      log.update { $0.append("subscribe") }
      return Disposables.create { log.update { $0.append("dispose") } }
    }
    let outcome = Task { () -> String in
      withUnsafeCurrentTask { $0?.cancel() }
      do {
        return "\(try await single.value)"
      } catch is CancellationError {
        return "CancellationError"
      }
    }
    #expect(try await outcome.value == "CancellationError")
    #expect(log.value == ["subscribe", "dispose"])
    let maybe = Task { () -> Bool in
      withUnsafeCurrentTask { $0?.cancel() }
      do {
        _ = try await Maybe<Int>.never().value
        return false
      } catch {
        return error is CancellationError
      }
    }
    #expect(await maybe.value)
  }

  @Test("value works for a main-actor-held trait (the getter runs in the caller's isolation)")
  @MainActor
  func mainActorCaller() async throws {
    let holder = MainActorTraits()
    #expect(try await holder.single.value == 1)
    #expect(try await holder.maybe.value == nil)
    try await holder.completable.value
  }

  // MARK: Single.task, Single.create(detached:)

  @Test("Single.task succeeds with the result or fails with the error")
  func singleTask() async {
    #expect(await bridgeRecord(Single.task { 7 }.asObservable()) == [.next(7), .completed])
    let failing = Single<Int>.task { throw BridgeTestError(id: 4) }
    #expect(await bridgeRecord(failing.asObservable()) == [.error(BridgeTestError(id: 4))])
    let cancelled = Single<Int>.task { throw CancellationError() }
    #expect(await bridgeRecord(cancelled.asObservable()) == [.error(CancellationError())])
  }

  @Test("disposing a Single.task subscription cancels the task; nothing is delivered")
  func singleTaskDisposal() async {
    let log = BridgeBox<[String]>([])
    let events = BridgeBox<[Event<Int>]>([])
    let single = Single<Int>.task {
      try await bridgeWaitForCancellation(log)
      return 1
    }
    let subscription = single.asObservable().subscribe { event in
      events.update { $0.append(event) }
    }
    await bridgeWait { log.value == ["started"] }
    subscription.dispose()
    await bridgeWait { log.value == ["started", "cancelled"] }
    #expect(events.value == [])
  }

  @Test("each subscription to Single.task runs the work again")
  func singleTaskPerSubscription() async {
    let counter = AtomicCounter()
    let single = Single.task { counter.increment() }
    #expect(await bridgeRecord(single.asObservable()) == [.next(1), .completed])
    #expect(await bridgeRecord(single.asObservable()) == [.next(2), .completed])
  }

  @Test("Single.create(detached:) runs the work; detached does not inherit task-locals")
  func singleCreateDetached() async {
    let attached = Single<String>.create(detached: false) { BridgeTaskLocal.name }
    let detached = Single<String>.create(detached: true, priority: .low) { BridgeTaskLocal.name }
    let (inherited, fresh) = await BridgeTaskLocal.$name.withValue("outer") {
      (await bridgeRecord(attached.asObservable()), await bridgeRecord(detached.asObservable()))
    }
    #expect(inherited == [.next("outer"), .completed])
    #expect(fresh == [.next("none"), .completed])
    let subscribeForm = Single<Int>.create { observer in
      observer(.success(1))
      return Disposables.create()
    }
    #expect(await bridgeRecord(subscribeForm.asObservable()) == [.next(1), .completed])
  }

  @Test("Single.task(on: .mainActor) delivers on the main actor")
  @MainActor
  func singleTaskMainActor() async {
    let onMain = BridgeBox<[Bool]>([])
    let done = BridgeBox(false)
    _ = Single.task(on: .mainActor) { 1 }.asObservable().subscribe { event in
      onMain.update { $0.append(BridgeMainQueue.isCurrent) }
      if event.isStopEvent { done.update { $0 = true } }
    }
    await bridgeWait { done.value }
    #expect(onMain.value == [true, true])
  }

  // MARK: Maybe.task, Completable.task

  @Test("Maybe.task: a value succeeds, nil and CancellationError complete empty, errors fail")
  func maybeTask() async {
    #expect(await bridgeRecord(Maybe.task { 2 }.asObservable()) == [.next(2), .completed])
    #expect(await bridgeRecord(Maybe<Int>.task { nil }.asObservable()) == [.completed])
    let cancelled = Maybe<Int>.task { throw CancellationError() }
    #expect(await bridgeRecord(cancelled.asObservable()) == [.completed])
    let failing = Maybe<Int>.task { throw BridgeTestError(id: 5) }
    #expect(await bridgeRecord(failing.asObservable()) == [.error(BridgeTestError(id: 5))])
  }

  @Test("Completable.task: returning and CancellationError complete, errors fail")
  func completableTask() async {
    #expect(await bridgeRecord(Completable.task {}.asObservable()) == [.completed])
    let cancelled = Completable.task { throw CancellationError() }
    #expect(await bridgeRecord(cancelled.asObservable()) == [.completed])
    let failing = Completable.task { throw BridgeTestError(id: 6) }
    #expect(await bridgeRecord(failing.asObservable()) == [.error(BridgeTestError(id: 6))])
  }

  @Test("disposing a Completable.task subscription cancels the task")
  func completableTaskDisposal() async {
    let log = BridgeBox<[String]>([])
    let events = BridgeBox<[Event<Never>]>([])
    let subscription = Completable.task { try await bridgeWaitForCancellation(log) }
      .asObservable().subscribe { event in events.update { $0.append(event) } }
    await bridgeWait { log.value == ["started"] }
    subscription.dispose()
    await bridgeWait { log.value == ["started", "cancelled"] }
    #expect(events.value.isEmpty)
  }
}

@MainActor
final class MainActorTraits {
  let single = Single.just(1)
  let maybe = Maybe<Int>.empty()
  let completable = Completable.empty()
}
