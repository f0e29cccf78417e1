import Dispatch

@testable import Streams

/// The error the async-bridge tests send.
struct BridgeTestError: Error, Equatable {
  let id: Int
}

/// A value shared between a test and the tasks or threads it starts.
final class BridgeBox<Value: Sendable>: Sendable {
  private let state: Locked<Value>

  init(_ value: Value) {
    state = Locked(value)
  }

  var value: Value { state.withLock { $0 } }

  func update(_ body: @Sendable (inout Value) -> Void) {
    state.withLock { body(&$0) }
  }
}

/// Yields until `condition` holds: a wait for another task to reach a point, never an assertion.
func bridgeWait(
  isolation: isolated (any Actor)? = #isolation, until condition: () -> Bool
) async {
  while !condition() { await Task.yield() }
}

/// An observable that counts its subscriptions and records, in `log`, when each is disposed.
func bridgeTrackedSubject(
  _ subject: PublishSubject<Int>, log: BridgeBox<[String]>
) -> Observable<Int> {
  Observable.create { observer in
    log.update { $0.append("subscribe") }
    let subscription = subject.subscribe(observer)
    return Disposables.create {
      subscription.dispose()
      log.update { $0.append("dispose") }
    }
  }
}

extension ObservableValues.Iterator {
  /// The storage behind the iterator, for waiting until its consumer is suspended.
  var storage: ValuesStorage<Element> { lifetime.storage }
}

/// A cold observable that sends `elements` and then `terminal` synchronously on subscription.
func bridgeSequence(_ elements: [Int], then terminal: Event<Int> = .completed) -> Observable<Int> {
  Observable.create { observer in
    for element in elements { observer.onNext(element) }
    observer.on(terminal)
    return Disposables.create()
  }
}

/// Starts a task that makes its own `values` sequence, registers the iterator's storage in
/// `registry` (so the test can wait until the loop is suspended) and collects every element.
func bridgeConsumer(
  registry: BridgeBox<[ValuesStorage<Int>]>,
  _ makeValues: @escaping @Sendable () -> ObservableValues<Int, any Error>
) -> Task<[Int], any Error> {
  Task {
    var iterator = makeValues().makeAsyncIterator()
    let storage = iterator.storage
    registry.update { $0.append(storage) }
    var received: [Int] = []
    while let value = try await iterator.next() { received.append(value) }
    return received
  }
}

/// Subscribes to `observable` and returns its events once a terminal event arrives.
func bridgeRecord<Element: Sendable>(_ observable: Observable<Element>) async -> [Event<Element>] {
  let events = BridgeBox<[Event<Element>]>([])
  return await withCheckedContinuation { continuation in
    _ = observable.subscribe { event in
      events.update { $0.append(event) }
      if event.isStopEvent { continuation.resume(returning: events.value) }
    }
  }
}

/// Tells whether the caller runs on the main queue, which runs the main actor's jobs.
enum BridgeMainQueue {
  private static let key: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}
