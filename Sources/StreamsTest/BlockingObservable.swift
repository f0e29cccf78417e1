import Dispatch
@_spi(StreamsInternal) public import Streams

extension ObservableConvertibleType {
  /// Converts the sequence into a ``BlockingObservable``, whose operators block the calling
  /// thread until the sequence produces what they wait for (RxBlocking's `toBlocking`).
  ///
  /// ```swift
  /// let values = try Observable.from([1, 2, 3]).toBlocking().toArray()
  /// print(values)
  /// // Prints "[1, 2, 3]"
  /// ```
  ///
  /// - Parameter timeout: Seconds to wait at most; when it passes, the subscription is disposed
  ///   and the operator throws ``BlockingTimeoutError`` (RxBlocking throws `RxError.timeout`, the
  ///   `timeout` operator's error). `nil` waits forever.
  public func toBlocking(timeout: Double? = nil) -> BlockingObservable<Element> {
    BlockingObservable(timeout: timeout, source: asObservable())
  }
}

/// A sequence whose operators block the calling thread: for tests that run real schedulers
/// (RxBlocking's `BlockingObservable`). Prefer ``TestScheduler`` for time-based behaviour.
///
/// ```swift
/// let first = try subject.observe(on: scheduler).toBlocking(timeout: 1).first()
/// ```
///
/// Each operator subscribes once, waits with a semaphore until it has its answer (or the timeout
/// passes), then disposes the subscription. A sequence that delivers synchronously inside
/// `subscribe` does not deadlock: the answer is ready before the wait starts.
///
/// Deviation from RxBlocking: RxBlocking spins the current run loop while it waits, so that work
/// sent to the main queue still runs when the test blocks the main thread; Streams has no
/// Foundation run loop and blocks the thread. Do not block the main thread on a sequence that
/// needs the main queue to make progress (it would wait until the timeout); run such tests off the
/// main thread or on a ``TestScheduler``.
public struct BlockingObservable<Element> {
  /// Seconds each operator waits at most; `nil` waits forever.
  public let timeout: Double?
  let source: Observable<Element>
}

@available(*, unavailable)
extension BlockingObservable: Sendable {}

/// How a blocking sequence ended, with the elements it produced (RxBlocking's type).
///
/// ```swift
/// switch Observable<Int>.error(RxError.unknown).toBlocking().materialize() {
/// case .completed(let elements): print("completed", elements)
/// case .failed(let elements, let error): print("failed", elements, error)
/// }
/// // Prints "failed [] Unknown error occurred."
/// ```
public enum MaterializedSequenceResult<T> {
  /// The sequence completed after `elements`.
  case completed(elements: [T])
  /// The sequence failed with `error` after `elements` (a timeout is ``BlockingTimeoutError``).
  case failed(elements: [T], error: any Error)
}

extension MaterializedSequenceResult: Sendable where T: Sendable {}

/// What a ``BlockingObservable`` operator throws when its `toBlocking(timeout:)` wait passes
/// without an answer: not the `timeout` operator's `RxError.timeout`, so that a failing test says
/// which wait gave up and why.
///
/// ```swift
/// do {
///   _ = try Observable<Int>.never().toBlocking(timeout: 0.1).first()
/// } catch let error as BlockingTimeoutError {
///   print(error)
/// }
/// // Prints "toBlocking(timeout: 0.1): the sequence gave no answer within 0.1 s while ..."
/// ```
///
/// RxBlocking throws `RxError.timeout` here: code that catches `RxError.timeout` around a
/// blocking call catches `BlockingTimeoutError` instead (see Guides/Migrating-from-RxSwift.md).
/// When the blocked thread was running the main queue, the description says that work the
/// sequence sends to the main queue (`MainScheduler`, `DispatchQueue.main`, the main actor) could
/// not run during the wait: RxBlocking spins the run loop while it waits, Streams blocks.
public struct BlockingTimeoutError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The seconds the operator waited.
  public let timeout: Double
  /// Whether the blocked thread was running the main queue.
  public let blockedMainQueue: Bool

  /// The error of a wait of `timeout` seconds; `blockedMainQueue` when it blocked the main queue.
  public init(timeout: Double, blockedMainQueue: Bool) {
    self.timeout = timeout
    self.blockedMainQueue = blockedMainQueue
  }

  /// Names the blocking wait, and the main-queue case when it applies.
  public var description: String {
    var text =
      "toBlocking(timeout: \(timeout)): the sequence gave no answer within \(timeout) s while "
      + "the thread was blocked waiting for it (this is the blocking wait's timeout, not the "
      + "timeout operator's RxError.timeout)."
    if blockedMainQueue {
      text +=
        " The blocked thread was running the main queue: work the sequence sends to the main "
        + "queue (MainScheduler, DispatchQueue.main, the main actor) cannot run until the wait "
        + "ends, and Streams does not spin a run loop as RxBlocking does. Block a background "
        + "thread instead, or run the sequence on a TestScheduler."
    }
    return text
  }
}

extension BlockingObservable {
  /// Blocks until the sequence terminates and returns all its elements.
  ///
  /// ```swift
  /// print(try Observable.of(1, 2).toBlocking().toArray())
  /// // Prints "[1, 2]"
  /// ```
  ///
  /// - Throws: The sequence's error, or ``BlockingTimeoutError``.
  public func toArray() throws -> [Element] {
    try elementsOrThrow(materializeResult())
  }

  /// Blocks until the sequence produces its first element (then disposes it) or terminates.
  ///
  /// ```swift
  /// print(try Observable.of(1, 2).toBlocking().first() as Any)
  /// // Prints "Optional(1)"
  /// ```
  ///
  /// - Returns: The first element, or `nil` for an empty sequence.
  /// - Throws: The sequence's error if it fails before its first element, or ``BlockingTimeoutError``.
  public func first() throws -> Element? {
    try elementsOrThrow(materializeResult(max: 1)).first
  }

  /// Blocks until the sequence terminates and returns its last element.
  ///
  /// ```swift
  /// print(try Observable.of(1, 2).toBlocking().last() as Any)
  /// // Prints "Optional(2)"
  /// ```
  ///
  /// - Returns: The last element, or `nil` for an empty sequence.
  /// - Throws: The sequence's error, or ``BlockingTimeoutError``.
  public func last() throws -> Element? {
    try elementsOrThrow(materializeResult()).last
  }

  /// Blocks until the sequence terminates and returns its only element.
  ///
  /// ```swift
  /// print(try Observable.of(7).toBlocking().single())
  /// // Prints "7"
  /// ```
  ///
  /// - Throws: `RxError.noElements` for an empty sequence, `RxError.moreThanOneElement` as soon as
  ///   a second element arrives (the subscription is then disposed), the sequence's error, or
  ///   ``BlockingTimeoutError``.
  public func single() throws -> Element {
    try single { _ in true }
  }

  /// Blocks until the sequence terminates and returns its only element that satisfies
  /// `predicate`.
  ///
  /// ```swift
  /// print(try Observable.of(1, 2, 3).toBlocking().single { $0 % 2 == 0 })
  /// // Prints "2"
  /// ```
  ///
  /// - Throws: `RxError.noElements` when no element matches, `RxError.moreThanOneElement` as soon
  ///   as a second one matches, what `predicate` throws, the sequence's error, or
  ///   ``BlockingTimeoutError``.
  public func single(_ predicate: @escaping (Element) throws -> Bool) throws -> Element {
    let elements = try elementsOrThrow(materializeResult(max: 2, predicate: predicate))
    if elements.count > 1 { throw RxError.moreThanOneElement }
    guard let only = elements.first else { throw RxError.noElements }
    return only
  }

  /// Blocks until the sequence terminates and returns how it ended with the elements it produced;
  /// never throws.
  ///
  /// ```swift
  /// if case .completed(let elements) = Observable.of(1).toBlocking().materialize() {
  ///   print(elements)
  /// }
  /// // Prints "[1]"
  /// ```
  public func materialize() -> MaterializedSequenceResult<Element> {
    materializeResult()
  }

  private func elementsOrThrow(_ result: MaterializedSequenceResult<Element>) throws -> [Element] {
    switch result {
    case .completed(let elements): return elements
    case .failed(_, let error): throw error
    }
  }

  private func materializeResult(
    max: Int? = nil, predicate: @escaping (Element) throws -> Bool = { _ in true }
  ) -> MaterializedSequenceResult<Element> {
    let collector = BlockingCollector<Element>(max: max, predicate: predicate)
    let subscription = SingleAssignmentDisposable()
    subscription.setDisposable(
      source.subscribe(
        AnyObserver { event in
          if collector.receive(event) { subscription.dispose() }
        }))
    let finished: Bool
    if let timeout {
      finished = collector.semaphore.wait(timeout: .now() + timeout) == .success
    } else {
      collector.semaphore.wait()
      finished = true
    }
    if !finished, let timeout {
      collector.timeOut(
        BlockingTimeoutError(timeout: timeout, blockedMainQueue: MainQueue.isCurrent))
    }
    subscription.dispose()
    return collector.result()
  }
}

/// Collects the events of one blocking operator and signals the waiting thread once.
///
/// `@unchecked Sendable`: `state` is guarded by its lock; `predicate` is only called by
/// `receive`, which the source calls serially (the observer contract); `semaphore` is thread-safe.
private final class BlockingCollector<Element>: @unchecked Sendable {
  private struct State {
    var elements: [Element] = []
    var error: (any Error)?
    var finished = false
  }

  let semaphore = DispatchSemaphore(value: 0)
  private let state = Protected(State())
  private let max: Int?
  private let predicate: (Element) throws -> Bool

  init(max: Int?, predicate: @escaping (Element) throws -> Bool) {
    self.max = max
    self.predicate = predicate
  }

  /// Records `event`; returns `true` when the operator has its answer and the subscription can
  /// be disposed.
  func receive(_ event: Event<Element>) -> Bool {
    if state.withLock({ $0.finished }) { return false }
    var element: Element?
    var failure: (any Error)?
    switch event {
    case .next(let value):
      do {
        if try predicate(value) { element = value }
      } catch {
        failure = error
      }
    case .error(let error): failure = error
    case .completed: break
    }
    let limit = max
    let done = state.withLock { state -> Bool in
      if state.finished { return false }
      if let element { state.elements.append(element) }
      if let failure { state.error = failure }
      let reachedLimit = limit.map { state.elements.count >= $0 } ?? false
      if event.isStopEvent || failure != nil || reachedLimit {
        state.finished = true
        return true
      }
      return false
    }
    if done { semaphore.signal() }
    return done
  }

  /// Ends the wait with `error` unless the answer arrived in the meantime.
  func timeOut(_ error: BlockingTimeoutError) {
    state.withLock { state in
      if state.finished { return }
      state.finished = true
      state.error = error
    }
  }

  func result() -> MaterializedSequenceResult<Element> {
    state.withLock { state in
      if let error = state.error {
        return .failed(elements: state.elements, error: error)
      }
      return .completed(elements: state.elements)
    }
  }
}
