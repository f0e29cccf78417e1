/// The state of `amb`: which source won, and the subscriptions of those still running.
///
/// The first source to send any event wins under the lock; the others' subscriptions are
/// returned to be disposed outside it, and their later events are dropped.
struct AmbStateMachine<Element> {
  var outbox = SerialOutbox<Element>()
  private var winner: Int?
  private var subscriptions: [UpstreamDisposable]

  init(count: Int) {
    subscriptions = Array(repeating: .pending, count: count)
  }

  /// Source `index`'s subscription returned; returns it back if it must be disposed at once.
  mutating func subscribed(_ index: Int, _ disposable: any Disposable) -> (any Disposable)? {
    if outbox.isClosed { _ = subscriptions[index].release() }
    return subscriptions[index].store(disposable)
  }

  /// Source `index` sent `event`: returns the losers' subscriptions to dispose and the event to
  /// deliver, if `index` is (or becomes) the winner.
  mutating func on(_ index: Int, _ event: Event<Element>) -> (
    losers: [any Disposable], deliver: Event<Element>?
  ) {
    if outbox.isClosed { return ([], nil) }
    var losers: [any Disposable] = []
    switch winner {
    case nil:
      winner = index
      for other in subscriptions.indices where other != index {
        if let disposable = subscriptions[other].release() { losers.append(disposable) }
      }
    case .some(let current) where current != index:
      return ([], nil)
    case .some:
      break
    }
    return (losers, outbox.send(event))
  }

  /// The subscription ends: returns every subscription to dispose and the queued events, which
  /// the caller releases after unlocking.
  mutating func dispose() -> (subscriptions: [any Disposable], released: RingQueue<Event<Element>>)
  {
    let pending = outbox.dispose()
    var all: [any Disposable] = []
    for index in subscriptions.indices {
      if let disposable = subscriptions[index].release() { all.append(disposable) }
    }
    return (all, pending)
  }
}

/// Runs one subscription of `amb`.
///
/// `@unchecked Sendable`: all mutable state is the state machine behind `state`'s lock;
/// `downstream` is only called by the holder of the outbox's delivery claim.
final class AmbSink<Element>: SerialOutboxOwner, Disposable, @unchecked Sendable {
  typealias Payload = Element

  private let downstream: AnyObserver<Element>
  private let state: Locked<AmbStateMachine<Element>>

  private init(downstream: AnyObserver<Element>, count: Int) {
    self.downstream = downstream
    self.state = Locked(AmbStateMachine(count: count))
    Resources.track(self)
  }

  deinit { Resources.untrack(self) }

  /// Subscribes to every source, in order.
  static func subscribe(_ sources: [Observable<Element>], observer: AnyObserver<Element>)
    -> any Disposable
  {
    let sink = AmbSink(downstream: observer, count: sources.count)
    for (index, source) in sources.enumerated() {
      let subscription = source.subscribeAny(AnyObserver { event in sink.on(index, event) })
      sink.state.withLock { $0.subscribed(index, subscription) }?.dispose()
    }
    return sink
  }

  private func on(_ index: Int, _ event: Event<Element>) {
    let (losers, event) = state.withLock { $0.on(index, event) }
    for loser in losers { loser.dispose() }
    drain(event)
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
    let (subscriptions, released) = state.withLock { $0.dispose() }
    for subscription in subscriptions { subscription.dispose() }
    withExtendedLifetime(released) {}
  }
}
