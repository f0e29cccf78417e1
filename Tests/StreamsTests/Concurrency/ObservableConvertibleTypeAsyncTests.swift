import Testing

@testable import Streams

@Suite("Observable async accessors", .timeLimit(.minutes(1)))
struct ObservableConvertibleTypeAsyncTests {
  @Test("firstValue returns the first element and disposes the subscription")
  func firstValue() async throws {
    let log = BridgeBox<[String]>([])
    let subject = BehaviorSubject(value: 1)
    let source = Observable<Int>.create { observer in
      log.update { $0.append("subscribe") }
      let subscription = subject.subscribe(observer)
      return Disposables.create {
        subscription.dispose()
        log.update { $0.append("dispose") }
      }
    }
    #expect(try await source.firstValue == 1)
    #expect(log.value == ["subscribe", "dispose"])
    #expect(try await bridgeSequence([4, 5, 6]).firstValue == 4)
  }

  @Test("firstValue: nil when empty, the error when failing first, the element before an error")
  func firstValueEnds() async throws {
    #expect(try await bridgeSequence([]).firstValue == nil)
    await #expect(throws: BridgeTestError(id: 1)) {
      try await bridgeSequence([], then: .error(BridgeTestError(id: 1))).firstValue
    }
    #expect(try await bridgeSequence([3], then: .error(BridgeTestError(id: 1))).firstValue == 3)
  }

  @Test("firstValue waits for an element sent later")
  func firstValueWaits() async throws {
    let subject = PublishSubject<Int>()
    let consumer = Task { try await subject.firstValue }
    await bridgeWait { subject.hasObservers }
    subject.onNext(8)
    subject.onNext(9)
    #expect(try await consumer.value == 8)
    await bridgeWait { !subject.hasObservers }
  }

  @Test("cancelling a task waiting in firstValue disposes and throws CancellationError")
  func firstValueCancelled() async throws {
    let log = BridgeBox<[String]>([])
    let subject = PublishSubject<Int>()
    let source = bridgeTrackedSubject(subject, log: log)
    let consumer = Task { [source] in
      do {
        _ = try await source.firstValue
        return "returned"
      } catch is CancellationError {
        return log.value.last == "dispose" ? "cancelled after dispose" : "cancelled early"
      } catch {
        return "\(error)"
      }
    }
    await bridgeWait { subject.hasObservers }
    consumer.cancel()
    #expect(await consumer.value == "cancelled after dispose")
    #expect(!subject.hasObservers)
  }

  @Test("lastValue returns the last element at completion")
  func lastValue() async throws {
    #expect(try await bridgeSequence([1, 2, 3]).lastValue == 3)
    #expect(try await bridgeSequence([]).lastValue == nil)
    await #expect(throws: BridgeTestError(id: 2)) {
      try await bridgeSequence([1, 2], then: .error(BridgeTestError(id: 2))).lastValue
    }
  }

  @Test("lastValue follows a live source to its completion")
  func lastValueLive() async throws {
    let subject = PublishSubject<Int>()
    let consumer = Task { try await subject.lastValue }
    await bridgeWait { subject.hasObservers }
    for element in 1...50 { subject.onNext(element) }
    subject.onCompleted()
    #expect(try await consumer.value == 50)
  }

  @Test("the accessors run in the caller's isolation: usable on a main-actor-held observable")
  @MainActor
  func mainActorCaller() async throws {
    let model = MainActorModel()
    model.subject.onNext(4)
    #expect(try await model.source.firstValue == 4)
    model.subject.onCompleted()
    #expect(try await model.source.lastValue == 4)
  }
}

@MainActor
final class MainActorModel {
  let subject = ReplaySubject<Int>.create(bufferSize: 1)
  var source: Observable<Int> { subject.asObservable() }
}
