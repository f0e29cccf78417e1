extension ObservableConvertibleType where Element: Sendable {
  /// The sequence's elements as an `AsyncSequence`, for `for try await` loops: lossless and
  /// unbounded, as in RxSwift.
  ///
  /// ```swift
  /// let numbers = Observable.of(1, 2, 3)
  /// for try await number in numbers.values {
  ///   print(number)
  /// }
  /// // Prints "1", "2", "3"
  /// ```
  ///
  /// Same as `values(bufferingPolicy: .unbounded)`; see
  /// ``values(bufferingPolicy:onDrop:)`` for every guarantee. Reading the property does not
  /// subscribe: each iterator (each `for await` loop) subscribes on its first `next()`, so two
  /// loops over one `values` get two subscriptions. The loop ends when the observable completes,
  /// throws the observable's error once, and disposes the subscription when the consuming task is
  /// cancelled or the loop is left early.
  public var values: ObservableValues<Element, any Error> {
    ObservableValues(source: asObservable(), policy: .unbounded, onDrop: nil)
  }

  /// The sequence's elements as an `AsyncSequence` whose buffer follows `bufferingPolicy`.
  ///
  /// ```swift
  /// let subject = ReplaySubject<Int>.createUnbounded()
  /// subject.onNext(1); subject.onNext(2); subject.onNext(3); subject.onCompleted()
  /// let latest = subject.values(bufferingPolicy: .bufferingNewest(1))
  /// for try await value in latest { print(value) }
  /// print(latest.droppedCount)
  /// // Prints "1", "3", "1"
  /// ```
  ///
  /// Guarantees, per iterator:
  /// - **Subscription**: made lazily, on the iterator's first `next()`, in the caller's isolation.
  ///   Each iterator has its own subscription. A source that sends synchronously on subscription
  ///   (a replaying subject) hands its first element to that `next()`, as to a waiting consumer;
  ///   the elements after it meet the policy (the replay above keeps `1`, then `3` replaces `2`).
  /// - **Order**: elements come out in the order the observable sent them (FIFO).
  /// - **Loss**: none with `.unbounded`. With `.bufferingNewest(n)` / `.bufferingOldest(n)`, an
  ///   element is dropped only when `n` elements are already waiting for the consumer: the oldest
  ///   waiting one, or the new one, respectively. A suspended consumer receives the element
  ///   directly, so nothing is dropped while the loop waits. Every drop is counted
  ///   (``ObservableValues/Iterator/droppedCount``, and ``ObservableValues/droppedCount`` summed
  ///   over the sequence's iterators) and passed to `onDrop`.
  /// - **Errors**: `.error(e)` is thrown once by `next()`, after the elements buffered before it;
  ///   later calls return `nil`. `.completed` makes `next()` return `nil` after the buffer.
  /// - **Cancellation**: cancelling the consuming task, or dropping the iterator (leaving the loop
  ///   with `break`, `return` or a throw), disposes the subscription. After a cancellation,
  ///   `next()` discards what was buffered and throws `CancellationError` once (then returns
  ///   `nil`), as RxSwift's `values` does; the subscription has been disposed before it throws.
  ///   The sequences that cannot fail (relays, `Infallible`, `Driver`, `Signal`) return `nil`
  ///   instead, as an `AsyncStream` loop does. A task cancelled before its first `next()` never
  ///   subscribes: the first `next()` throws at once, with nothing delivered. (RxSwift's `values`
  ///   subscribes first and delivers what the source sent synchronously; Streams starts no work
  ///   for a task that is already cancelled.)
  /// - **Continuations**: the consumer's continuation is resumed exactly once, never while a lock
  ///   is held, and never leaked: completion, error, cancellation and the iterator's end all
  ///   resume it.
  /// - **Threads**: the observable sends on whatever thread it sends on; that thread only takes a
  ///   lock, buffers or hands over the element, and resumes the waiting consumer after unlocking.
  ///   It never waits for the consumer (there is no back-pressure). `onDrop` runs on that thread,
  ///   synchronously, outside the lock. The loop body runs in the loop's own isolation: the
  ///   iterator implements `next(isolation:)`, so a loop on the main actor is resumed on the main
  ///   actor without a hop per element.
  ///
  /// - Parameters:
  ///   - bufferingPolicy: How many elements may wait for the consumer and which to drop beyond.
  ///   - onDrop: Called with each dropped element, on the sending thread, outside any lock.
  /// - Returns: A sequence whose iterators each subscribe to this observable.
  public func values(
    bufferingPolicy: AsyncBufferingPolicy,
    onDrop: (@Sendable (Element) -> Void)? = nil
  ) -> ObservableValues<Element, any Error> {
    ObservableValues(source: asObservable(), policy: bufferingPolicy, onDrop: onDrop)
  }
}

/// How many elements an ``ObservableValues`` iterator keeps for a consumer that is busy, and
/// which it drops beyond that.
///
/// ```swift
/// let latest = subject.values(bufferingPolicy: .bufferingNewest(1))  // UI state: keep the newest
/// ```
public struct AsyncBufferingPolicy: Sendable, Hashable {
  @usableFromInline
  enum Kind: Sendable, Hashable {
    case unbounded
    case newest(Int)
    case oldest(Int)
  }

  @usableFromInline let kind: Kind

  @inlinable
  init(kind: Kind) {
    self.kind = kind
  }

  /// Keeps every element: nothing is lost, memory grows while the consumer is behind.
  public static var unbounded: AsyncBufferingPolicy { AsyncBufferingPolicy(kind: .unbounded) }

  /// Keeps at most `limit` waiting elements, dropping the oldest waiting one to make room for a
  /// new one. `0` keeps nothing: only a consumer already waiting receives an element. A negative
  /// limit is a programming error.
  public static func bufferingNewest(_ limit: Int) -> AsyncBufferingPolicy {
    if limit < 0 {
      streamsStop("AsyncBufferingPolicy.bufferingNewest needs a limit >= 0, got \(limit)")
    }
    return AsyncBufferingPolicy(kind: .newest(limit))
  }

  /// Keeps at most `limit` waiting elements, dropping new ones while it is full. `0` keeps
  /// nothing: only a consumer already waiting receives an element. A negative limit is a
  /// programming error.
  public static func bufferingOldest(_ limit: Int) -> AsyncBufferingPolicy {
    if limit < 0 {
      streamsStop("AsyncBufferingPolicy.bufferingOldest needs a limit >= 0, got \(limit)")
    }
    return AsyncBufferingPolicy(kind: .oldest(limit))
  }
}

/// An observable's elements as an `AsyncSequence`: what ``ObservableConvertibleType/values``
/// returns.
///
/// ```swift
/// for try await name in viewModel.name.values {
///   label.text = name
/// }
/// ```
///
/// `Failure` is `any Error` for an `Observable` (and `Single`, `Maybe`, `Completable`) and `Never`
/// for sources that cannot fail (relays, `Infallible`, `Driver`, `Signal`), whose loops need no
/// `try`. Each iterator subscribes on its first `next()`; see
/// ``ObservableConvertibleType/values(bufferingPolicy:onDrop:)`` for the guarantees (order, loss,
/// errors, cancellation, threads).
///
/// The sequence is not `Sendable` (an `Observable` is not): make it where it is iterated. Its
/// iterator is not `Sendable` either: one task iterates it.
public struct ObservableValues<Element: Sendable, Failure: Error>: AsyncSequence {
  @usableFromInline let source: Observable<Element>
  @usableFromInline let policy: AsyncBufferingPolicy
  @usableFromInline let onDrop: (@Sendable (Element) -> Void)?
  @usableFromInline let drops: AtomicCounter

  @inlinable
  init(
    source: Observable<Element>, policy: AsyncBufferingPolicy,
    onDrop: (@Sendable (Element) -> Void)?
  ) {
    self.source = source
    self.policy = policy
    self.onDrop = onDrop
    self.drops = AtomicCounter()
  }

  /// Elements dropped by the buffering policy, summed over every iterator of this sequence.
  /// Always `0` with `.unbounded`.
  public var droppedCount: Int { drops.value }

  /// An iterator with its own (not yet made) subscription.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(
      source: source,
      storage: ValuesStorage(policy: policy, onDrop: onDrop, drops: drops))
  }

  /// Iterates one subscription. Not `Sendable`: one task calls `next()`.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var source: Observable<Element>?
    @usableFromInline let lifetime: ValuesIteratorLifetime<Element>
    /// Elements taken from the storage in one lock (unbounded policy only), consumed in order
    /// before the storage is asked again.
    @usableFromInline var batch = RingQueue<Element>()
    /// `next()` has thrown `CancellationError` for this iterator's cancelled task.
    @usableFromInline var threwCancellation = false

    @inlinable
    init(source: Observable<Element>, storage: ValuesStorage<Element>) {
      self.source = source
      self.lifetime = ValuesIteratorLifetime(storage)
    }

    /// Elements this iterator's buffering policy dropped so far.
    public var droppedCount: Int { lifetime.storage.droppedCount }

    /// `true` when the iteration ended (or will end) because the consuming task was cancelled.
    @usableFromInline
    var wasCancelled: Bool { lifetime.storage.wasCancelled }

    /// The next element, resuming on the caller's actor; `nil` once the observable completed,
    /// the task was cancelled or a previous call threw.
    ///
    /// Subscribes on the first call. Throws the observable's error once. In a cancelled task, a
    /// sequence that can fail throws `CancellationError` once (as RxSwift's `values` does), after
    /// disposing the subscription; one that cannot fail returns `nil`.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure)
      -> Element?
    {
      let storage = lifetime.storage
      if Task.isCancelled {
        batch = RingQueue()
        storage.cancel()
      } else if let element = batch.popFirst() {
        return element
      }
      while true {
        switch storage.step(batch: &batch) {
        case .element(let element):
          return element
        case .batched:
          return batch.popFirst()
        case .subscribe:
          subscribe(storage)
        case .end(let error):
          guard let error else { return try end() }
          throw Self.typed(error)
        case .suspend:
          switch await storage.suspend(isolation: actor) {
          case .success(let element?): return element
          case .success(nil): return try end()
          case .failure(let error): throw Self.typed(error)
          }
        }
      }
    }

    /// The sequence ended: `CancellationError` the first time when the task was cancelled and
    /// the sequence can fail (`Failure` is `any Error`), `nil` otherwise.
    @inlinable
    mutating func end() throws(Failure) -> Element? {
      if !threwCancellation, wasCancelled, let cancellation = CancellationError() as? Failure {
        threwCancellation = true
        throw cancellation
      }
      return nil
    }

    /// The next element; see ``next(isolation:)``. Runs on the generic executor, as a
    /// nonisolated async function does.
    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    @inlinable
    mutating func subscribe(_ storage: ValuesStorage<Element>) {
      guard let source else {
        streamsStop("ObservableValues internal error: subscribed twice")
      }
      self.source = nil
      storage.subscribed(
        source.subscribeTerminal(
          .observer(AnyObserver(eventHandler: storage.on)), kind: "values"))
    }

    @inlinable
    static func typed(_ error: any Error) -> Failure {
      guard let typed = error as? Failure else {
        streamsStop(
          "ObservableValues: a sequence that cannot fail (\(Failure.self)) received error \(error)")
      }
      return typed
    }
  }
}

@available(*, unavailable)
extension ObservableValues.Iterator: Sendable {}

extension PublishRelay where Element: Sendable {
  /// The relay's elements as a non-throwing `AsyncSequence`: lossless and unbounded.
  ///
  /// ```swift
  /// let taps = PublishRelay<Int>()
  /// Task { for await tap in taps.values { print(tap) } }
  /// ```
  ///
  /// A relay never fails or completes, so the loop runs until its task is cancelled or it is left
  /// with `break`; either disposes the subscription. See
  /// ``ObservableConvertibleType/values(bufferingPolicy:onDrop:)`` for every guarantee.
  public var values: ObservableValues<Element, Never> {
    ObservableValues(source: asObservable(), policy: .unbounded, onDrop: nil)
  }

  /// The relay's elements as a non-throwing `AsyncSequence` buffered by `bufferingPolicy`; see
  /// ``ObservableConvertibleType/values(bufferingPolicy:onDrop:)``.
  public func values(
    bufferingPolicy: AsyncBufferingPolicy, onDrop: (@Sendable (Element) -> Void)? = nil
  ) -> ObservableValues<Element, Never> {
    ObservableValues(source: asObservable(), policy: bufferingPolicy, onDrop: onDrop)
  }
}

extension BehaviorRelay where Element: Sendable {
  /// The relay's current value and then every later one, as a non-throwing `AsyncSequence`:
  /// lossless and unbounded.
  ///
  /// ```swift
  /// let count = BehaviorRelay(value: 0)
  /// for await value in count.values { print(value) }
  /// // Prints "0", then every accepted value
  /// ```
  ///
  /// The loop runs until its task is cancelled or it is left; either disposes the subscription.
  /// Each loop subscribes separately and starts with the value current at its first `next()`. See
  /// ``ObservableConvertibleType/values(bufferingPolicy:onDrop:)`` for every guarantee.
  public var values: ObservableValues<Element, Never> {
    ObservableValues(source: asObservable(), policy: .unbounded, onDrop: nil)
  }

  /// The relay's values as a non-throwing `AsyncSequence` buffered by `bufferingPolicy`; with
  /// `.bufferingNewest(1)` a slow loop always sees the latest value. See
  /// ``ObservableConvertibleType/values(bufferingPolicy:onDrop:)``.
  public func values(
    bufferingPolicy: AsyncBufferingPolicy, onDrop: (@Sendable (Element) -> Void)? = nil
  ) -> ObservableValues<Element, Never> {
    ObservableValues(source: asObservable(), policy: bufferingPolicy, onDrop: onDrop)
  }
}

extension ReplayRelay where Element: Sendable {
  /// The relay's buffer and then every later element, as a non-throwing `AsyncSequence`:
  /// lossless and unbounded.
  ///
  /// ```swift
  /// let log = ReplayRelay<String>.create(bufferSize: 2)
  /// log.accept("a"); log.accept("b"); log.accept("c")
  /// for await line in log.values { print(line) }
  /// // Prints "b", "c", then every later line
  /// ```
  ///
  /// Each loop subscribes separately and first receives the replayed buffer. See
  /// ``ObservableConvertibleType/values(bufferingPolicy:onDrop:)`` for every guarantee.
  public var values: ObservableValues<Element, Never> {
    ObservableValues(source: asObservable(), policy: .unbounded, onDrop: nil)
  }

  /// The relay's elements as a non-throwing `AsyncSequence` buffered by `bufferingPolicy`; see
  /// ``ObservableConvertibleType/values(bufferingPolicy:onDrop:)``.
  public func values(
    bufferingPolicy: AsyncBufferingPolicy, onDrop: (@Sendable (Element) -> Void)? = nil
  ) -> ObservableValues<Element, Never> {
    ObservableValues(source: asObservable(), policy: bufferingPolicy, onDrop: onDrop)
  }
}
