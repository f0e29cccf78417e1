/// The state of one subscription of `amb`: the race between the sources, then the winner.
///
/// The first source to send any event wins, under the lock; the others' subscriptions are handed
/// back to be disposed outside it, and their later events are dropped. Each transition returns
/// what the sink must do after unlocking; the sink never reads the machine's storage.
struct AmbStateMachine<Element>: OutboxState {
  private enum State {
    /// No source has sent anything: each source's subscription, once its `subscribe` returned.
    case racing([UpstreamDisposable])
    /// Source `index` sent first; its subscription (still pending while the winner sends from
    /// inside its own `subscribe` call).
    case won(index: Int, subscription: UpstreamDisposable)
    /// The subscription was disposed.
    case disposed
  }

  /// What to do with a subscription that a source's `subscribe` returned.
  enum SubscribedAction {
    /// Keep it: the machine holds it until it must be disposed.
    case keep
    /// Dispose it now: the race was lost, or the subscription already ended.
    case dispose(any Disposable)
  }

  /// What to do with an event a source sent.
  enum ReceivedAction {
    /// Drop it: another source won, or the sequence already ended.
    case drop
    /// Dispose the losers' subscriptions, then deliver `event` (`nil` when the outbox queued it
    /// for the thread already delivering).
    case deliver(Event<Element>?, disposingLosers: [any Disposable])
  }

  /// What to do when the subscription ends.
  enum DisposeAction {
    /// Dispose `subscriptions` (those still held: every source's while racing, the winner's
    /// once one won), then release `queued`, the events that will not be delivered.
    case dispose(subscriptions: [any Disposable], queued: RingQueue<Event<Element>>)
  }

  private var state: State
  private var outbox = SerialOutbox<Element>()

  init(count: Int) {
    state = .racing(Array(repeating: .pending, count: count))
  }

  /// Source `index`'s `subscribe` returned `disposable`.
  mutating func subscribed(_ index: Int, _ disposable: any Disposable) -> SubscribedAction {
    switch state {
    case .racing(var subscriptions):
      state = .disposed  // moves the array out, so that it is changed in place
      let late = subscriptions[index].store(disposable)
      state = .racing(subscriptions)
      return late.map(SubscribedAction.dispose) ?? .keep
    case .won(let winner, var subscription) where winner == index:
      if outbox.isClosed { return .dispose(disposable) }
      let late = subscription.store(disposable)
      state = .won(index: winner, subscription: subscription)
      return late.map(SubscribedAction.dispose) ?? .keep
    case .won, .disposed:
      return .dispose(disposable)
    }
  }

  /// Source `index` sent `event`.
  mutating func received(_ event: Event<Element>, from index: Int) -> ReceivedAction {
    switch state {
    case .racing(var subscriptions):
      state = .disposed  // moves the array out, so that it is changed in place
      var losers: [any Disposable] = []
      for other in subscriptions.indices where other != index {
        if let loser = subscriptions[other].release() { losers.append(loser) }
      }
      state = .won(index: index, subscription: subscriptions[index])
      return .deliver(outbox.send(event), disposingLosers: losers)
    case .won(let winner, _):
      guard winner == index, !outbox.isClosed else { return .drop }
      return .deliver(outbox.send(event), disposingLosers: [])
    case .disposed:
      return .drop
    }
  }

  /// The next event queued for the delivering thread, if any.
  mutating func nextPending() -> Event<Element>? {
    outbox.next()
  }

  /// The delivery rank of this subscription's outbox (see ``DeliveryTurns``).
  var turnRank: Int { outbox.turns.rank }

  /// The subscription ends: every subscription still held and the queued events are handed
  /// back.
  mutating func dispose() -> DisposeAction {
    let queued = outbox.dispose()
    var subscriptions: [any Disposable] = []
    switch state {
    case .racing(var all):
      for index in all.indices {
        if let subscription = all[index].release() { subscriptions.append(subscription) }
      }
    case .won(_, var subscription):
      if let winner = subscription.release() { subscriptions.append(winner) }
    case .disposed:
      break
    }
    state = .disposed
    return .dispose(subscriptions: subscriptions, queued: queued)
  }
}
