/// The state of `switchLatest` / `flatMapLatest`: an outer sequence of inner sequences, of which
/// only the latest is subscribed.
///
/// Inner sequences are numbered; events of an inner sequence that is no longer the latest are
/// dropped, which covers one that emits on another thread while it is being replaced.
@usableFromInline
struct SwitchStateMachine<Element> {
  @usableFromInline var outbox = SerialOutbox<Element>()
  @usableFromInline var outer = UpstreamDisposable.pending
  @usableFromInline var outerStopped = false
  @usableFromInline var latest = 0
  @usableFromInline var hasLatest = false
  @usableFromInline var inner = UpstreamDisposable.released

  /// No inner sequence yet, the outer subscription pending.
  @inlinable
  init() {}

  /// A new inner sequence replaces the latest one: returns its number and the subscription to
  /// dispose before subscribing to it, or `nil` if the sequence already ended.
  @inlinable
  mutating func innerArrived() -> (id: Int, replaced: (any Disposable)?)? {
    if outbox.isClosed { return nil }
    latest &+= 1
    hasLatest = true
    let replaced = inner.release()
    inner = .pending
    return (latest, replaced)
  }

  /// What to do with a sequence that emits one element and completes during `subscribe`
  /// (`just`).
  @usableFromInline
  enum ImmediateArrival {
    /// The switch already ended: nothing to do.
    case ended
    /// A subscription must be disposed first: nothing changed, the caller takes the path of any
    /// other inner sequence (``innerArrived()``).
    case subscribe
    /// It is the latest sequence, numbered `id`: the caller delivers `first` if it is not `nil`,
    /// then calls ``immediateCompleted(_:)``.
    case deliver(id: Int, first: Event<Element>?)
  }

  /// A sequence that emits `element` and completes during `subscribe` (`just`) replaces the
  /// latest one, unless a subscription must be disposed first.
  ///
  /// It has no subscription, so `inner` is left as it is: `.released` (the previous sequence
  /// ended) or `.pending` (a sequence still being subscribed, which ``innerSubscribed(_:_:)``
  /// will find outdated), which every other transition treats alike. No existential is copied:
  /// that costs a value-witness call per copy.
  @inlinable
  mutating func immediateArrived(_ element: Element) -> ImmediateArrival {
    if outbox.isClosed { return .ended }
    if inner.isSet { return .subscribe }
    latest &+= 1
    hasLatest = true
    return .deliver(id: latest, first: outbox.send(.next(element)))
  }

  /// The sequence accepted by ``immediateArrived(_:)`` as `id` completed: returns an event to
  /// deliver.
  @inlinable
  mutating func immediateCompleted(_ id: Int) -> Event<Element>? {
    guard id == latest, hasLatest else { return nil }
    hasLatest = false
    return outerStopped ? outbox.send(.completed) : nil
  }

  /// The deliverer of the element of sequence `id` (accepted by ``immediateArrived(_:)``) asks
  /// for more: the next queued event (``SerialOutbox/next()``), or, when there is none, the
  /// delivery claim is released and the sequence completes (``immediateCompleted(_:)``), in one
  /// critical section instead of two.
  @inlinable
  mutating func nextOrImmediateCompleted(_ id: Int) -> (next: Event<Element>?, done: Bool) {
    if let event = outbox.next() { return (event, false) }
    return (immediateCompleted(id), true)
  }

  /// The outer subscription returned; returns it back if it must be disposed at once.
  @inlinable
  mutating func outerSubscribed(_ disposable: any Disposable) -> (any Disposable)? {
    outer.store(disposable)
  }

  /// Inner subscription `id` returned; returns it back if it must be disposed at once.
  @inlinable
  mutating func innerSubscribed(_ id: Int, _ disposable: any Disposable) -> (any Disposable)? {
    if id != latest || outbox.isClosed { return disposable }
    return inner.store(disposable)
  }

  /// An element or error of inner sequence `id`.
  @inlinable
  mutating func innerEvent(_ id: Int, _ event: Event<Element>) -> Event<Element>? {
    guard id == latest else { return nil }
    return outbox.send(event)
  }

  /// Inner sequence `id` completed: returns its subscription to dispose and an event to deliver.
  @inlinable
  mutating func innerCompleted(_ id: Int) -> (dispose: (any Disposable)?, deliver: Event<Element>?)
  {
    guard id == latest, hasLatest else { return (nil, nil) }
    hasLatest = false
    let disposable = inner.release()
    return (disposable, outerStopped ? outbox.send(.completed) : nil)
  }

  /// The outer sequence completed: returns its subscription to dispose and an event to deliver.
  @inlinable
  mutating func outerCompleted() -> (dispose: (any Disposable)?, deliver: Event<Element>?) {
    outerStopped = true
    let disposable = outer.release()
    return (disposable, hasLatest ? nil : outbox.send(.completed))
  }

  /// The subscription ends: returns the subscriptions to dispose and the queued events, which
  /// the caller releases after unlocking.
  @inlinable
  mutating func dispose() -> (subscriptions: [any Disposable], released: RingQueue<Event<Element>>)
  {
    let pending = outbox.dispose()
    return ([outer.release(), inner.release()].compactMap { $0 }, pending)
  }
}

/// Runs one subscription of `switchLatest` / `flatMapLatest`.
///
/// `@unchecked Sendable`: all mutable state is the state machine behind `state`'s lock;
/// `downstream` is only called by the holder of the outbox's delivery claim and `selector` only
/// from the outer sequence's serial `on`.
@usableFromInline
final class SwitchSink<Source, Element>: SerialOutboxOwner, Disposable, @unchecked Sendable {
  @usableFromInline typealias Payload = Element

  @usableFromInline let downstream: AnyObserver<Element>
  @usableFromInline let selector: (Source) throws -> Observable<Element>
  @usableFromInline let state = Locked(SwitchStateMachine<Element>())

  @inlinable
  init(
    downstream: AnyObserver<Element>, selector: @escaping (Source) throws -> Observable<Element>
  ) {
    self.downstream = downstream
    self.selector = selector
    Resources.track(self)
  }

  deinit { Resources.untrack(self) }

  /// Subscribes to `source`, switching to `selector(element)` for each element.
  @inlinable
  static func subscribe(
    _ source: Observable<Source>, observer: AnyObserver<Element>,
    selector: @escaping (Source) throws -> Observable<Element>
  ) -> any Disposable {
    let sink = SwitchSink(downstream: observer, selector: selector)
    let subscription = source.subscribeNested(AnyObserver { event in sink.outerOn(event) })
    sink.withState { $0.outerSubscribed(subscription) }?.dispose()
    return sink
  }

  /// Runs `body` under the lock. Once the outbox is closed, the lock's side word says so, so that
  /// `outerOn` can drop the elements of an ended sequence without taking the lock: every
  /// transition runs through here, so the word is set in the critical section that closed it.
  @inlinable
  func withState<Result>(_ body: (inout SwitchStateMachine<Element>) -> Result) -> Result {
    state.withLock { machine in
      let result = body(&machine)
      if machine.outbox.isClosed { state.storeWord(1) }
      return result
    }
  }

  /// `true` once the outbox is closed (read without the lock).
  @inlinable
  var isClosed: Bool { state.loadWord() != 0 }

  @inlinable
  func outerOn(_ event: Event<Source>) {
    switch event {
    case .next(let element):
      if isClosed { return }
      let next: Observable<Element>
      do {
        next = try selector(element)
      } catch {
        drain(withState { $0.outbox.send(.error(error)) })
        return
      }
      if let just = next as? JustObservable<Element>, !Tracing.isInstalled,
        justArrived(just.element)
      {
        return
      }
      guard let (id, replaced) = withState({ $0.innerArrived() }) else { return }
      replaced?.dispose()
      let subscription = next.subscribeAny(AnyObserver { [self] event in innerOn(id, event) })
      withState { $0.innerSubscribed(id, subscription) }?.dispose()
    case .error(let error):
      drain(withState { $0.outbox.send(.error(error)) })
    case .completed:
      let (disposable, event) = withState { $0.outerCompleted() }
      disposable?.dispose()
      drain(event)
    }
  }

  /// A `just` arrived: unless the previous inner subscription must be disposed first, delivers
  /// its element and its completion without subscribing to it (no inner observer, no inner
  /// subscription to keep). Returns `false` when the caller must subscribe to it instead.
  ///
  /// The events, their order, and the trampoline they run in are those of a subscription: the
  /// trampoline is entered around the events as `subscribeAny` would. Traced subscriptions do
  /// not come here, so that the tracer sees the inner sequence.
  @inlinable
  func justArrived(_ element: Element) -> Bool {
    let id: Int
    let first: Event<Element>?
    switch withState({ $0.immediateArrived(element) }) {
    case .ended: return true
    case .subscribe: return false
    case .deliver(let latest, let event):
      id = latest
      first = event
    }
    let trampoline = Trampoline.enterIfIdle()
    var event = first
    var completed = false
    // Holding the claim when `first` is set (see `drain`: the rank, or a waiter, otherwise).
    let saved = first == nil ? nil : ClaimRank.enter(ClaimRank.takeClaimed())
    while let current = event {
      if deliver(current) {
        dispose()
        break
      }
      (event, completed) = withState { $0.nextOrImmediateCompleted(id) }
      if completed { break }
    }
    if let saved { ClaimRank.leave(saved) }
    if first == nil { drain(nil) }
    // `event` is now what the completion hands back to deliver, if anything.
    if !completed { event = withState { $0.immediateCompleted(id) } }
    drain(event)
    trampoline?.drainAndStop()
    return true
  }

  @inlinable
  func innerOn(_ id: Int, _ event: Event<Element>) {
    switch event {
    case .next, .error:
      drain(withState { $0.innerEvent(id, event) })
    case .completed:
      let (disposable, event) = withState { $0.innerCompleted(id) }
      disposable?.dispose()
      drain(event)
    }
  }

  @inlinable
  func deliver(_ event: Event<Element>) -> Bool {
    downstream.on(event)
    return event.isStopEvent
  }

  @inlinable
  func nextPending() -> Event<Element>? {
    withState { $0.outbox.next() }
  }

  @inlinable
  var turnRank: Int {
    withState { $0.outbox.turns.rank }
  }

  @inlinable
  func dispose() {
    let (subscriptions, released) = withState { $0.dispose() }
    for subscription in subscriptions { subscription.dispose() }
    withExtendedLifetime(released) {}
  }
}
