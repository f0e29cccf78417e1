import Dispatch
import Foundation
public import Streams

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
/// Each operator subscribes once, waits until it has its answer (or the timeout passes), then
/// disposes the subscription. A sequence that delivers synchronously inside `subscribe` does not
/// deadlock: the answer is ready before the wait starts.
///
/// On the main thread (an XCTest method on iOS, `try viewModel.title.toBlocking().first()` on a
/// `Driver`), the wait runs the main run loop, as RxBlocking does, so that what the sequence sends
/// to `MainScheduler`, `DispatchQueue.main` or the main actor runs meanwhile. Elsewhere it blocks
/// the thread on a semaphore. One case cannot make progress: blocking inside a block that the main
/// queue is running (`DispatchQueue.main.async { ... toBlocking() ... }`), where the main queue
/// is busy with that very block and its run loop does not run; the wait then blocks until the
/// timeout, and ``BlockingTimeoutError`` says so.
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
  /// Whether the wait blocked the main queue: it ran inside a block the main queue runs, where
  /// the main run loop cannot run.
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
        " The blocked thread was running the main queue, inside a block the main queue runs: "
        + "work the sequence sends to the main queue (MainScheduler, DispatchQueue.main, the main "
        + "actor) cannot run until that block returns, and the main run loop cannot run inside "
        + "it. Block from the test method itself (there the wait runs the main run loop, as "
        + "RxBlocking does), from a background thread, or run the sequence on a TestScheduler."
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
    var finished: Bool?
    if Thread.isMainThread {
      finished = runMainRunLoop(until: collector)
    }
    if finished == nil {
      if let timeout {
        finished = collector.semaphore.wait(timeout: .now() + timeout) == .success
      } else {
        collector.semaphore.wait()
        finished = true
      }
    }
    if finished == false, let timeout {
      // On the main queue, the wait blocked it unless the run loop ran meanwhile.
      collector.timeOut(
        BlockingTimeoutError(
          timeout: timeout, blockedMainQueue: MainQueue.isCurrent && !collector.ranRunLoop))
    }
    subscription.dispose()
    return collector.result()
  }

  /// Runs the main thread's run loop (and with it the main queue and the main actor's jobs) until
  /// the collector has its answer or the timeout passes; `nil` when the run loop cannot run here
  /// (inside a block the main queue is running), for the caller to block instead.
  private func runMainRunLoop(until collector: BlockingCollector<Element>) -> Bool? {
    let deadline = timeout.map { Date(timeIntervalSinceNow: $0) } ?? .distantFuture
    collector.wakeMainQueueWhenDone()
    while !collector.isFinished {
      let now = Date()
      if now >= deadline { return false }
      // Wakes at least every 100 ms: an answer that arrives off the main thread also posts an
      // empty block to the main queue, which wakes it at once.
      guard RunLoop.current.run(mode: .default, before: min(deadline, now + 0.1)) else {
        return collector.isFinished ? true : nil
      }
      collector.ranRunLoop = true
    }
    return true
  }
}

/// Collects the events of one blocking operator and signals the waiting thread once.
///
/// `@unchecked Sendable`: `state` is guarded by its lock; `predicate` is only called by
/// `receive`, which the source calls serially (the observer contract); `semaphore` is thread-safe;
/// `ranRunLoop` is only touched by the waiting thread.
private final class BlockingCollector<Element>: @unchecked Sendable {
  private struct State {
    var elements: [Element] = []
    var error: (any Error)?
    var finished = false
    /// The waiting thread runs the main run loop: the answer also posts to the main queue.
    var wakesMainQueue = false
  }

  /// The waiting thread ran the main run loop at least once.
  var ranRunLoop = false

  let semaphore = DispatchSemaphore(value: 0)
  private let state = Locked(State())
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
    if done {
      semaphore.signal()
      if state.withLock({ $0.wakesMainQueue }) { DispatchQueue.main.async {} }
    }
    return done
  }

  /// Whether the answer (or the timeout) arrived.
  var isFinished: Bool { state.withLock { $0.finished } }

  /// From now on, the answer also posts an empty block to the main queue, to wake its run loop.
  func wakeMainQueueWhenDone() {
    state.withLock { $0.wakesMainQueue = true }
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
