import StreamsShims

/// What a subject replays to a new subscriber.
@usableFromInline
enum ReplayPolicy {
  /// Nothing (PublishSubject).
  case none
  /// The latest element, always present (BehaviorSubject).
  case latest
  /// Up to `n` latest elements; `Int.max` for unbounded (ReplaySubject).
  case buffer(Int)
  /// The last element, delivered only with completion (AsyncSubject).
  case last
}

/// The one state machine behind every subject and relay.
///
/// Delivery is serialized: while one thread delivers an event, an `on(_:)` from another thread,
/// or from an observer re-entering the subject, is queued with the observers subscribed at that
/// moment and delivered by the delivering thread once the current event has reached every
/// observer. Observers therefore never see two events at once, and every observer sees the
/// events in the order the subject accepted them. No lock is held while an observer runs.
///
/// Who delivers is kept in the atomic word beside the lock (``deliveringBit``, ``pendingBit``), so
/// that a delivery with nothing queued meanwhile ends with one compare-and-swap instead of a second
/// lock round trip.
///
/// The thread holding the delivery claim also owns ``deliveryObservers``, a copy of the observer
/// list that is current unless ``observersChangedBit`` is set. That makes the common `onNext` on a
/// PublishSubject lock-free: one compare-and-swap from idle (word 0: nobody delivering, nothing
/// queued, the copy current, the subject open) to delivering, the calls, and one compare-and-swap
/// back. Any other word takes the lock. ``observersChangedBit`` and ``closedBit`` are set under the
/// lock; the claim is taken by that compare-and-swap or under the lock, and released by the
/// delivering thread alone, keeping the changed and closed bits.
///
/// `@unchecked Sendable`: all mutable state is in `state`, guarded by its lock, or in its atomic
/// word, except ``deliveryObservers``, which only the thread holding the delivery claim touches
/// (the claim passes between threads through the atomic word or the lock).
@usableFromInline
final class SubjectCore<Element>: @unchecked Sendable {
  /// The subscribed observers, each with the subscription that a delivery checks first, so that
  /// an observer disposed while an event is on its way (by another observer of the same event, or
  /// before a queued event is drained) does not receive it.
  @usableFromInline typealias Observers = ContiguousArray<
    (key: Int, observer: AnyObserver<Element>, subscription: SubjectSubscription)
  >

  @usableFromInline
  enum Work {
    case deliver(Event<Element>, Observers)
    case replay([Event<Element>], AnyObserver<Element>)
  }

  @usableFromInline
  struct State {
    @usableFromInline var observers: Observers = []
    @usableFromInline var nextKey = 0
    @usableFromInline var buffer: [Element] = []
    /// Bumped on every change of `buffer`, so that ``update(_:)`` can tell whether the element it
    /// transformed is still the latest.
    @usableFromInline var version = 0
    @usableFromInline var terminal: Event<Element>?
    @usableFromInline var isDisposed = false
    @usableFromInline var pending: [Work] = []

    @inlinable
    init() {}
  }

  /// Set while a thread delivers.
  @inlinable static var deliveringBit: Int { 1 }
  /// Set while `pending` holds work (only together with ``deliveringBit``).
  @inlinable static var pendingBit: Int { 2 }
  /// Set when the observer list changed since ``deliveryObservers`` was copied from it.
  @inlinable static var observersChangedBit: Int { 4 }
  /// Set once the subject has terminated or was disposed; never cleared.
  @inlinable static var closedBit: Int { 8 }

  /// The observers a claimed delivery of `.next` goes to: a copy of `state.observers`, current
  /// unless ``observersChangedBit`` is set. Only the thread holding the delivery claim reads or
  /// writes it.
  ///
  /// It is a buffer of its own rather than an array so that a delivery reads it without retaining
  /// and releasing an array: it is allocated when a non-empty list is installed (after the
  /// observers changed, never per event) and freed when replaced or in `deinit`.
  @exclusivity(unchecked) @usableFromInline var deliveryObservers:
    UnsafeMutableBufferPointer<Observers.Element> = .init(start: nil, count: 0)

  @usableFromInline let policy: ReplayPolicy
  @usableFromInline let name: String
  @usableFromInline let state: Locked<State>

  @inlinable
  init(policy: ReplayPolicy, name: String, initial: Element? = nil) {
    self.policy = policy
    self.name = name
    var initialState = State()
    if let initial { initialState.buffer = [initial] }
    state = Locked(initialState)
    Resources.track(self)
  }

  @inlinable
  deinit {
    Self.free(deliveryObservers)
    Resources.untrack(self)
  }

  @inlinable
  static func free(_ buffer: UnsafeMutableBufferPointer<Observers.Element>) {
    guard let base = buffer.baseAddress else { return }
    base.deinitialize(count: buffer.count)
    base.deallocate()
  }

  // MARK: events

  @inlinable
  func on(_ event: Event<Element>) {
    switch (event, policy) {
    case (.next, .last): break  // an AsyncSubject keeps the element for its completion: below
    case (.next(let element), _):
      onNextFastPath(event, element)
      return
    default: break
    }
    let work = state.withLock { state -> Work? in
      if state.isDisposed || state.terminal != nil { return nil }
      let observers = state.observers
      switch event {
      case .next(let element):
        // Only an AsyncSubject gets here with an element: it keeps it for its completion.
        Self.replaceLatest(with: element, in: &state.buffer)
        return nil
      case .error, .completed:
        state.terminal = event
        state.observers = []
        _ = self.state.fetchOrWord(Self.closedBit)
        if case .last = policy, case .completed = event, let last = state.buffer.last {
          return claim(
            .deliver(.next(last), observers), then: .deliver(event, observers), &state)
        }
        return claim(.deliver(event, observers), &state)
      }
    }
    if let work { drain(work) }
  }

  /// `.next` on every subject but an AsyncSubject: buffers `element` as the policy says, then
  /// delivers without building a `Work` value when nobody else is delivering (the common case).
  /// A subject that buffers nothing (PublishSubject, PublishRelay) does not take the lock when the
  /// word is idle.
  @inlinable
  func onNextFastPath(_ event: Event<Element>, _ element: Element) {
    if case .none = policy, state.compareExchangeWord(expected: 0, desired: Self.deliveringBit) {
      deliverClaimed(event)
      finishDelivery()
      return
    }
    let outcome = state.withLock { state -> (claimed: Bool, fresh: Observers?) in
      if state.isDisposed || state.terminal != nil { return (false, nil) }
      state.version &+= 1
      switch policy {
      case .none, .last: break
      case .latest: Self.replaceLatest(with: element, in: &state.buffer)
      case .buffer(let size):
        state.buffer.append(element)
        if state.buffer.count > size { state.buffer.removeFirst(state.buffer.count - size) }
      }
      switch claimUnderLock(refreshing: true) {
      case .claimed(let changed): return (true, changed ? state.observers : nil)
      case .queued:
        state.pending.append(.deliver(event, state.observers))
        return (false, nil)
      }
    }
    guard outcome.claimed else { return }
    if let fresh = outcome.fresh { installDeliveryObservers(fresh) }
    deliverClaimed(event)
    finishDelivery()
  }

  /// Holding the claim: replaces ``deliveryObservers``, releasing the old copy (and with it,
  /// possibly, the last reference to a removed observer) with no lock held.
  @inlinable
  func installDeliveryObservers(_ fresh: Observers) {
    let old = deliveryObservers
    deliveryObservers = Self.copy(of: fresh)
    Self.free(old)
  }

  @inlinable
  static func copy(of observers: Observers) -> UnsafeMutableBufferPointer<Observers.Element> {
    if observers.isEmpty { return .init(start: nil, count: 0) }
    let copy = UnsafeMutableBufferPointer<Observers.Element>.allocate(capacity: observers.count)
    _ = copy.initialize(from: observers)
    return copy
  }

  /// Under the lock, after the observer list changed: when nobody delivers, makes `fresh` the
  /// delivery copy at once and returns the old copy, for the caller to free once it has
  /// unlocked (freeing it may release an observer, whose deinit may run user code). The claim is
  /// taken and released within the lock, so nothing can have been queued meanwhile and there is
  /// nothing to drain: a thread that disposes never ends up delivering other threads' events.
  /// When someone delivers, marks the copy stale for them (they refresh it before releasing the
  /// claim) and returns `nil`.
  @inlinable
  func replaceIdleDeliveryObserversUnderLock(with fresh: Observers)
    -> UnsafeMutableBufferPointer<Observers.Element>?
  {
    let word = state.loadWord()
    // Compare-and-swap: the idle fast path may take the claim without the lock.
    guard word & Self.deliveringBit == 0,
      state.compareExchangeWord(expected: word, desired: word | Self.deliveringBit)
    else {
      _ = state.fetchOrWord(Self.observersChangedBit)
      return nil
    }
    let old = deliveryObservers
    deliveryObservers = Self.copy(of: fresh)
    // Holding the lock and the claim, nobody else changes the word: release with a store.
    state.storeWord(word & ~(Self.observersChangedBit | Self.deliveringBit))
    return old
  }

  /// Holding the claim: delivers `event` to ``deliveryObservers``. An observer is checked for
  /// disposal only once the observer list changed after the copy was made: `unsubscribe` marks the
  /// copy stale (or replaces it) before it clears the subscription's flag, both under the lock, so
  /// whenever the flag is set this check is made, and this path and the queued one
  /// (``deliver(_:to:)``) stop delivering to an observer at the same element.
  @inlinable
  func deliverClaimed(_ event: Event<Element>) {
    let buffer = deliveryObservers
    for index in buffer.indices {
      if state.loadWord() & Self.observersChangedBit != 0, !buffer[index].subscription.isActive {
        continue
      }
      buffer[index].observer.handler(event)
    }
  }

  /// Makes `element` the only buffered one, reusing the buffer's storage (no allocation per
  /// element once the buffer exists and is not shared).
  @inlinable
  static func replaceLatest(with element: Element, in buffer: inout [Element]) {
    if buffer.count == 1 {
      buffer[0] = element
    } else {
      buffer.removeAll(keepingCapacity: true)
      buffer.append(element)
    }
  }

  @inlinable
  static func deliver(_ event: Event<Element>, to observers: Observers) {
    observers.withUnsafeBufferPointer { buffer in
      for index in buffer.indices where buffer[index].subscription.isActive {
        buffer[index].observer.handler(event)
      }
    }
  }

  /// Releases the delivery claim, or runs what was queued meanwhile.
  @inlinable
  func finishDelivery() {
    if let next = nextWork() { drain(next) }
  }

  /// Called by the delivering thread when its work is done: releases the claim and returns `nil`,
  /// or returns the next queued work (the claim stays).
  ///
  /// Before releasing, it brings ``deliveryObservers`` up to date (empty once the subject is
  /// closed), so that a removed observer is not kept alive by the copy until the next event.
  @inlinable
  func nextWork() -> Work? {
    while true {
      // Nothing was queued and nothing changed: release without the lock. A thread that queues
      // work, changes the observers or closes the subject sets a bit first, which makes this fail.
      if state.compareExchangeWord(expected: Self.deliveringBit, desired: 0) { return nil }
      if state.loadWord() & Self.closedBit != 0, !deliveryObservers.isEmpty {
        // A closed subject delivers no more `.next`: let its observers go (no lock held).
        installDeliveryObservers([])
      }
      let step = state.withLock { state -> (work: Work?, fresh: Observers?) in
        // Holding the claim and the lock, nobody else changes the word.
        let word = self.state.loadWord()
        if word & (Self.observersChangedBit | Self.closedBit) == Self.observersChangedBit {
          self.state.storeWord(word & ~Self.observersChangedBit)
          return (nil, state.observers)
        }
        let kept = word & (Self.observersChangedBit | Self.closedBit)
        if state.pending.isEmpty {
          self.state.storeWord(kept)
          return (nil, nil)
        }
        let work = state.pending.removeFirst()
        self.state.storeWord(
          kept
            | (state.pending.isEmpty ? Self.deliveringBit : Self.deliveringBit | Self.pendingBit))
        return (work, nil)
      }
      if let fresh = step.fresh {
        installDeliveryObservers(fresh)
        continue
      }
      return step.work
    }
  }

  /// What ``claimUnderLock(refreshing:)`` did.
  @usableFromInline
  enum ClaimOutcome {
    /// The caller holds the claim. With `refreshing`, `observersChanged` says that the caller must
    /// install `state.observers` as ``deliveryObservers`` (the changed bit is already cleared).
    case claimed(observersChanged: Bool)
    /// Someone else delivers: the caller appends its work to `pending` before unlocking.
    case queued
  }

  /// Under the lock: claims delivery when nobody delivers; otherwise marks work as pending.
  /// With `refreshing`, a claim also clears ``observersChangedBit``, and the caller installs the
  /// current observers as ``deliveryObservers`` before delivering.
  @inlinable
  func claimUnderLock(refreshing: Bool = false) -> ClaimOutcome {
    while true {
      let word = state.loadWord()
      if word & Self.deliveringBit == 0 {
        // Without the lock only the idle fast path changes the word (from 0), so compare-and-swap.
        let changed = word & Self.observersChangedBit != 0
        let desired =
          (refreshing ? word & ~Self.observersChangedBit : word) | Self.deliveringBit
        if state.compareExchangeWord(expected: word, desired: desired) {
          return .claimed(observersChanged: refreshing && changed)
        }
        continue
      }
      if word & Self.pendingBit != 0 { return .queued }
      if state.compareExchangeWord(expected: word, desired: word | Self.pendingBit) {
        return .queued
      }
      // The delivering thread released its claim meanwhile: look again.
    }
  }

  /// Queues `work` (and `then`) if someone is delivering; otherwise claims delivery, queues `then`
  /// and returns `work` for the caller to run outside the lock.
  @inlinable
  func claim(_ work: Work, then: Work? = nil, _ state: inout State) -> Work? {
    if case .claimed = claimUnderLock() {
      if let then {
        state.pending.append(then)
        _ = self.state.fetchOrWord(Self.pendingBit)
      }
      return work
    }
    state.pending.append(work)
    if let then { state.pending.append(then) }
    return nil
  }

  /// Runs `work`, then everything queued meanwhile, then releases the delivery claim.
  @inlinable
  func drain(_ first: Work) {
    var work = first
    while true {
      switch work {
      case .deliver(let event, let observers):
        Self.deliver(event, to: observers)
      case .replay(let events, let observer):
        for event in events { observer.on(event) }
      }
      guard let next = nextWork() else { return }
      work = next
    }
  }

  // MARK: subscriptions

  @inlinable
  func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
    var subscription: SubjectSubscription?
    let work = state.withLock { state -> Work? in
      if state.isDisposed {
        return claim(.replay([.error(RxError.disposed(object: name))], observer), &state)
      }
      var replay: [Event<Element>]
      switch policy {
      case .none: replay = []
      case .latest:
        // After a terminal event a BehaviorSubject sends only that event, as in RxSwift.
        replay = state.terminal == nil ? state.buffer.map { .next($0) } : []
      case .buffer: replay = state.buffer.map { .next($0) }
      case .last:
        replay = []
        if let terminal = state.terminal, case .completed = terminal, let last = state.buffer.last {
          replay = [.next(last)]
        }
      }
      if let terminal = state.terminal {
        replay.append(terminal)
      } else {
        let key = state.nextKey
        state.nextKey += 1
        // The subscription holds the core and is stored with the observer: a cycle that
        // unsubscribing breaks, or the owner's deinit disposing the core.
        let registered = SubjectSubscription(owner: self, key: key) { owner, key in
          unsafeDowncast(owner, to: SubjectCore<Element>.self).unsubscribe(key)
        }
        state.observers.append((key, observer, registered))
        _ = self.state.fetchOrWord(Self.observersChangedBit)
        subscription = registered
      }
      if replay.isEmpty { return nil }
      return claim(.replay(replay, observer), &state)
    }
    if let work { drain(work) }
    return subscription ?? Disposables.create()
  }

  /// Removes the observer registered under `key`. When nobody delivers, it also takes the claim
  /// for a moment to drop the observer from ``deliveryObservers``; otherwise the delivering thread
  /// does that before it releases the claim.
  @inlinable
  func unsubscribe(_ key: Int) {
    let removed = state.withLock {
      state -> (
        observer: AnyObserver<Element>?, old: UnsafeMutableBufferPointer<Observers.Element>?
      )
      in
      guard let index = state.observers.firstIndex(where: { $0.key == key }) else {
        return (nil, nil)
      }
      let entry = state.observers.remove(at: index)
      let old = replaceIdleDeliveryObserversUnderLock(with: state.observers)
      // Last, after the delivery copy was replaced or marked stale: from here on both delivery
      // paths skip the observer (queued deliveries check the flag; a claimed delivery checks it
      // while the copy is stale, and a fresh copy no longer holds the observer). Setting it before
      // taking the lock let a queued element skip the observer while a later one, delivered
      // from a copy not yet marked stale, reached it: a gap.
      entry.subscription.markDisposed()
      return (entry.observer, old)
    }
    // Release the observer outside the lock: its deinit may run user code.
    if let old = removed.old { Self.free(old) }
    withExtendedLifetime(removed.observer) {}
  }

  @inlinable
  var hasObservers: Bool { state.withLock { !$0.observers.isEmpty } }

  @inlinable
  var isDisposed: Bool { state.withLock { $0.isDisposed } }

  @inlinable
  func dispose() {
    let released = state.withLock {
      state -> (Observers, [Element], old: UnsafeMutableBufferPointer<Observers.Element>?) in
      state.isDisposed = true
      state.version &+= 1
      _ = self.state.fetchOrWord(Self.closedBit)
      // Let the delivery copy go too (now, or by the delivering thread when it is done).
      let old = replaceIdleDeliveryObserversUnderLock(with: [])
      defer {
        state.observers = []
        state.buffer = []
      }
      return (state.observers, state.buffer, old)
    }
    if let old = released.old { Self.free(old) }
    withExtendedLifetime(released) {}
  }

  /// The current latest element; throws the terminal error, or `RxError.disposed`.
  @inlinable
  func latest() throws -> Element {
    try state.withLock { state -> Element in
      if state.isDisposed { throw RxError.disposed(object: name) }
      if case .error(let error) = state.terminal { throw error }
      guard let value = state.buffer.last else {
        preconditionFailure("\(name) has no value: a BehaviorSubject always holds one")
      }
      return value
    }
  }

  /// Atomically replaces the latest element with `transform(latest)` and emits it.
  ///
  /// `transform` runs with no lock held (it is user code, and may read the subject). It works on
  /// a copy of the latest element; the result is stored only if no other element was stored
  /// meanwhile, otherwise `transform` runs again on the newer element. So no update is lost, and
  /// `transform` may run more than once when updates race. If it throws, nothing changes and the
  /// error is thrown. (Typed throws rather than `rethrows`: with Swift 6.3 the `rethrows` form of
  /// this method, a throw inside the `withLock` closure, was miscompiled into a crash.)
  @inlinable
  func update<Failure: Error>(_ transform: (inout Element) throws(Failure) -> Void) throws(Failure)
    -> Element
  {
    while true {
      let (latest, version) = state.withLock { state -> (Element, Int) in
        guard let value = state.buffer.last else {
          preconditionFailure("\(name) has no value to update")
        }
        return (value, state.version)
      }
      var value = latest
      try transform(&value)
      let outcome = state.withLock { state -> (committed: Bool, work: Work?) in
        if state.version != version { return (false, nil) }
        if state.isDisposed || state.terminal != nil { return (true, nil) }
        Self.replaceLatest(with: value, in: &state.buffer)
        state.version &+= 1
        let observers = state.observers
        return (true, claim(.deliver(.next(value), observers), &state))
      }
      guard outcome.committed else { continue }
      if let work = outcome.work { drain(work) }
      return value
    }
  }
}

/// Removes one observer from a subject when disposed.
///
/// It holds the subject's core strongly, and the core's observer list holds it: a cycle until the
/// subscription is disposed, which the core's owner (a subject, a `share` connection) breaks when
/// it is deinitialized by disposing the core (``SubjectCore/dispose()``), releasing the observers
/// as a weak reference here would. A strong reference costs a retain and a release; a weak one
/// cost four atomic operations on the subject's side table per subscription, an eighth of the time
/// of subscribing and disposing a three-operator chain.
///
/// Not generic: the removal closure is created in the subscribing module's specialized code, so a
/// call through `any Disposable` does not land in unspecialized generic code. Deliveries check
/// ``isActive``, which the core clears under its lock as it removes the observer, so that nothing
/// reaches the observer once `dispose()` has returned on any thread, or from an earlier observer of
/// the same event (a delivery already running on another thread may still finish, as in RxSwift).
/// Disposing twice is harmless: the second removal finds nothing.
///
/// `@unchecked Sendable`: `flag` is only accessed atomically after `init` (written under the
/// core's lock); `owner`, `key` and `remove` are immutable.
@usableFromInline
final class SubjectSubscription: Disposable, @unchecked Sendable {
  /// 0 until disposed, then 1. Must stay the first stored property (see ``GuardedSink``).
  @usableFromInline var flag: Int
  /// The subject's core (see above for the cycle and who breaks it).
  @usableFromInline let owner: AnyObject
  @usableFromInline let key: Int
  /// A non-capturing function made in specialized code that removes `key` from `owner`.
  @usableFromInline let remove: @Sendable (AnyObject, Int) -> Void

  @inlinable
  init(owner: AnyObject, key: Int, remove: @escaping @Sendable (AnyObject, Int) -> Void) {
    self.flag = 0
    self.owner = owner
    self.key = key
    self.remove = remove
  }

  @inlinable
  var flagAddress: UnsafeMutablePointer<Int> {
    _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: Int.self)
  }

  /// `true` until disposed.
  @inlinable
  var isActive: Bool { streams_atomic_load(flagAddress) == 0 }

  /// Called by the core under its lock, as it removes the observer (see `unsubscribe`).
  @inlinable
  func markDisposed() { streams_atomic_store(flagAddress, 1) }

  /// Removes the observer. A second call finds nothing to remove.
  @inlinable
  func dispose() { remove(owner, key) }
}
