/// Runs one subscription of `amb`: performs what ``AmbStateMachine`` decides, after unlocking.
///
/// `@unchecked Sendable`: `flags` is only accessed atomically after `init`; all other mutable
/// state is the state machine behind `state`'s lock;
/// `downstream` is only called by the holder of the outbox's delivery claim.
final class AmbSink<Element>: MultiSourceSink, @unchecked Sendable {
  typealias Payload = Element

  /// The lifecycle word: the first stored property (``MultiSourceSink``).
  var flags: Int

  private let downstream: AnyObserver<Element>
  let state: Locked<AmbStateMachine<Element>>

  private init(downstream: AnyObserver<Element>, count: Int) {
    self.flags = 0
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
      switch sink.state.withLock({ $0.subscribed(index, subscription) }) {
      case .keep: break
      case .dispose(let subscription): subscription.dispose()
      }
    }
    return sink
  }

  private func on(_ index: Int, _ event: Event<Element>) {
    switch state.withLock({ $0.received(event, from: index) }) {
    case .drop:
      return
    case .deliver(let event, let losers):
      for loser in losers { loser.dispose() }
      drain(event)
    }
  }

  func deliver(_ event: Event<Element>) -> Bool {
    downstream.on(event)
    return event.isStopEvent
  }

  func tearDown() {
    switch state.withLock({ $0.dispose() }) {
    case .dispose(let subscriptions, let queued):
      for subscription in subscriptions { subscription.dispose() }
      withExtendedLifetime(queued) {}
    }
  }
}
