/// The state of `concat` over a sequence of sources: one source at a time, the next one
/// subscribed when the current one completes.
///
/// A source that completes synchronously inside its own `subscribe` does not subscribe the next
/// one from there: it sets `advance` and the loop that is subscribing (``ConcatSink/run()``)
/// continues, so many synchronous sources do not grow the stack.
struct ConcatStateMachine<Element> {
  var outbox = SerialOutbox<Element>()
  private var current = UpstreamDisposable.released
  private var generation = 0
  private var isRunning = false
  private var advance = false

  /// Claims the subscribe loop; `false` if another call owns it (it will advance).
  mutating func claimLoop() -> Bool {
    if outbox.isClosed { return false }
    if isRunning {
      advance = true
      return false
    }
    isRunning = true
    return true
  }

  /// The loop is about to subscribe the next source: returns its generation, or `nil` if the
  /// sequence ended.
  mutating func willSubscribe() -> Int? {
    if outbox.isClosed {
      isRunning = false
      return nil
    }
    generation += 1
    advance = false
    current = .pending
    return generation
  }

  /// The sources are exhausted: completes.
  mutating func exhausted() -> Event<Element>? {
    isRunning = false
    return outbox.send(.completed)
  }

  /// The loop subscribed source `id`: returns the disposable back if it must be disposed at once,
  /// and whether the loop goes on with the next source.
  mutating func subscribed(_ id: Int, _ disposable: any Disposable) -> (
    dispose: (any Disposable)?, advance: Bool
  ) {
    let disposeNow = id == generation ? current.store(disposable) : disposable
    if advance && !outbox.isClosed { return (disposeNow, true) }
    isRunning = false
    return (disposeNow, false)
  }

  /// Source `id` completed: returns its subscription to dispose and whether the caller must run
  /// the loop.
  mutating func completed(_ id: Int) -> (dispose: (any Disposable)?, runLoop: Bool) {
    guard id == generation else { return (nil, false) }
    let disposable = current.release()
    return (disposable, claimLoop())
  }

  /// The subscription ends: returns the current source's subscription to dispose and the queued
  /// events, which the caller releases after unlocking.
  mutating func dispose() -> (subscription: (any Disposable)?, released: RingQueue<Event<Element>>)
  {
    let pending = outbox.dispose()
    return (current.release(), pending)
  }
}

/// Runs one subscription of `concat` over a sequence of sources.
///
/// `@unchecked Sendable`: mutable state is the state machine behind `state`'s lock, except
/// `iterator`, which only the thread that owns the subscribe loop (``ConcatStateMachine``'s
/// `isRunning` claim) touches, so that user iteration code never runs under the lock.
final class ConcatSink<Element>: SerialOutboxOwner, Disposable, @unchecked Sendable {
  typealias Payload = Element

  private let downstream: AnyObserver<Element>
  private var iterator: AnyIterator<Observable<Element>>
  private let state = Locked(ConcatStateMachine<Element>())

  init(downstream: AnyObserver<Element>, sources: AnyIterator<Observable<Element>>) {
    self.downstream = downstream
    self.iterator = sources
    Resources.track(self)
  }

  deinit { Resources.untrack(self) }

  /// Subscribes to the first source.
  func start() -> any Disposable {
    if state.withLock({ $0.claimLoop() }) { run(after: nil) }
    return self
  }

  /// The subscribe loop: subscribes the next source for as long as sources complete
  /// synchronously.
  ///
  /// `completed` is the subscription of the source that just completed: it is disposed before
  /// the next source is subscribed, or, when it was the last, after the completion is delivered
  /// (RxSwift's order).
  private func run(after completed: (any Disposable)?) {
    var completed = completed
    while let id = state.withLock({ $0.willSubscribe() }) {
      guard let source = iterator.next() else {
        drain(state.withLock { $0.exhausted() })
        completed?.dispose()
        return
      }
      completed.take()?.dispose()
      let subscription = source.subscribeAny(AnyObserver { [self] event in on(id, event) })
      let (disposeNow, advance) = state.withLock { $0.subscribed(id, subscription) }
      disposeNow?.dispose()
      if !advance { return }
    }
    completed?.dispose()
  }

  private func on(_ id: Int, _ event: Event<Element>) {
    switch event {
    case .next, .error:
      drain(state.withLock { $0.outbox.send(event) })
    case .completed:
      let (disposable, runLoop) = state.withLock { $0.completed(id) }
      if runLoop { run(after: disposable) } else { disposable?.dispose() }
    }
  }

  func deliver(_ event: Event<Element>) -> Bool {
    downstream.on(event)
    return event.isStopEvent
  }

  func nextPending() -> Event<Element>? {
    state.withLock { $0.outbox.next() }
  }

  var turnRank: Int {
    state.withLock { $0.outbox.turns.rank }
  }

  func dispose() {
    let (subscription, released) = state.withLock { $0.dispose() }
    subscription?.dispose()
    withExtendedLifetime(released) {}
  }
}
