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
/// **Delivery is serialized by a claim.** The thread holding the delivery claim is the only one
/// that calls observers, and the only one that reads or changes the observer table
/// (``table``). While one thread delivers, an `on(_:)` from another thread, or from an observer
/// re-entering the subject, is queued (``State/pending``) and delivered by the claiming thread once
/// the current work is done. Observers therefore never see two events at once, every observer
/// sees the events in the order the subject accepted them, and no lock is held while an observer
/// runs.
///
/// **Subscribing and disposing are O(1).** A new subscriber is added to the table, and a disposed
/// one removed from it, by whoever holds the claim: the subscribing or disposing thread itself when
/// nobody delivers (it takes the claim, for a moment or, with a replay, for the replay), otherwise
/// the delivering thread, to which the change is queued as work in the same first-in first-out
/// order as the events. The table keeps the subscription order; a removal leaves a hole that
/// later subscriptions do not reuse, and the table is compacted once holes outnumber observers
/// and number more than 8 (amortized O(1)). Nothing is copied per change and nothing is
/// allocated per event.
///
/// **Who delivers is kept in the atomic word** beside the lock: ``deliveringBit``, ``pendingBit``,
/// ``removalsPendingBit``, ``closedBit``. The common `onNext` on a PublishSubject takes no lock:
/// one compare-and-swap from idle (word 0) to delivering, the calls, one compare-and-swap back.
/// Any other word takes the lock.
///
/// **A disposal takes effect at once**, also when it is queued: the subscription is marked
/// disposed under the lock after ``removalsPendingBit`` is set, and while that bit is set the
/// delivering thread checks each observer's subscription before calling it. So nothing reaches an
/// observer once `dispose()` has returned (a call already running on another thread may finish),
/// and the queued and the lock-free deliveries stop at the same element.
///
/// **A subscriber with replay** (BehaviorSubject, ReplaySubject) gets its replay inside
/// `subscribe`, on its own thread, as in RxSwift. When nobody delivers, it takes the claim,
/// delivers the replay and adds its entry, and then also delivers what other threads sent
/// meanwhile. When someone delivers (another thread, or this one from inside an observer), its
/// entry is queued and it delivers the replay through a ``ReplayGate``, which holds back the events
/// that reach the entry until the replay is done. A subscriber without replay, and a disposer, only
/// ever hold the claim within the lock and never deliver other threads' events. Either way the
/// replay, and the events held back behind it, stop once the subscription or the subject is
/// disposed (``reaches(_:)``). While other threads send without pause, a subscriber with replay
/// does not return: it delivers their events (the idle case) or the ones its gate holds back.
///
/// **Liveness.** A thread that delivers also delivers the events other threads send meanwhile
/// (that is what serializes them), so it returns once senders pause, as a serial queue would.
/// Other threads' subscriptions and disposals never keep it: it applies all of those queued
/// before the next event in one critical section, with no user code (``nextEvent()``), and
/// delivers no other thread's replay.
///
/// **Nothing is released under the lock**: an element replaced or evicted from the buffer, a
/// removed observer, queued work dropped by `dispose()`, leave the critical section first, because
/// their `deinit` is user code that may re-enter the subject.
///
/// `@unchecked Sendable`: all mutable state is in `state`, guarded by its lock, or in its atomic
/// word, except ``table``, which only the thread holding the delivery claim touches (the claim
/// passes between threads through the atomic word or the lock).
@usableFromInline
final class SubjectCore<Element>: @unchecked Sendable {
  /// Queued for the thread holding the claim, in the order the subject accepted it.
  @usableFromInline
  enum Work {
    /// An event for the observers in the table at the time it is delivered.
    case deliver(Event<Element>)
    /// A new subscriber's entry joins the table (unless it was disposed meanwhile). Its replay,
    /// if any, is not queued: the subscribing thread delivers it (see ``ReplayGate``).
    case add(AnyObserver<Element>, SubjectSubscription)
    /// A disposed subscriber's entry leaves the table.
    case remove(SubjectSubscription)
  }

  @usableFromInline
  struct State {
    /// What is replayed (see ``ReplayPolicy``): at most one element but for a ReplaySubject.
    @usableFromInline var buffer = RingQueue<Element>()
    /// Bumped on every change of `buffer`, so that ``update(_:)`` can tell whether the element it
    /// transformed is still the latest.
    @usableFromInline var version = 0
    @usableFromInline var terminal: Event<Element>?
    @usableFromInline var isDisposed = false
    @usableFromInline var pending = RingQueue<Work>()
    /// Subscriptions not yet disposed (for `hasObservers`), whether or not their entry is in the
    /// table yet.
    @usableFromInline var subscribers = 0
    /// `.remove` work items in `pending`; ``removalsPendingBit`` is set while it is not zero.
    @usableFromInline var pendingRemovals = 0

    @inlinable
    init() {}
  }

  /// Set while a thread delivers (holds the claim).
  @inlinable static var deliveringBit: Int { 1 }
  /// Set while `pending` holds work (only together with ``deliveringBit``).
  @inlinable static var pendingBit: Int { 2 }
  /// Set while a disposed subscription may still have an entry in the table: deliveries then
  /// check each subscription before calling its observer.
  @inlinable static var removalsPendingBit: Int { 4 }
  /// Set once the subject has terminated or was disposed; never cleared.
  @inlinable static var closedBit: Int { 8 }
  /// Set once the subject was disposed; never cleared. A delivery under way stops at once.
  @inlinable static var disposedBit: Int { 16 }

  /// The observers, in subscription order. Only the thread holding the delivery claim reads or
  /// writes it.
  @exclusivity(unchecked) @usableFromInline var table = ObserverTable<Element>()

  @usableFromInline let policy: ReplayPolicy
  @usableFromInline let name: String
  @usableFromInline let state: Locked<State>

  @inlinable
  init(policy: ReplayPolicy, name: String, initial: Element? = nil) {
    self.policy = policy
    self.name = name
    var initialState = State()
    if let initial { initialState.buffer.append(initial) }
    state = Locked(initialState)
    Resources.track(self)
  }

  @inlinable
  deinit {
    table.deallocate()
    Resources.untrack(self)
  }

  // MARK: events

  @inlinable
  func on(_ event: Event<Element>) {
    switch (event, policy) {
    case (.next, .last): break  // an AsyncSubject keeps the element for its completion: below
    case (.next(let element), _):
      onNext(event, element)
      return
    default: break
    }
    var released: Element?
    let first = state.withLock { state -> Event<Element>? in
      if state.isDisposed || state.terminal != nil { return nil }
      switch event {
      case .next(let element):
        // Only an AsyncSubject gets here with an element: it keeps it for its completion.
        released = Self.replaceLatest(with: element, in: &state.buffer)
        return nil
      case .error, .completed:
        state.terminal = event
        state.subscribers = 0
        _ = self.state.fetchOrWord(Self.closedBit)
        if case .last = policy, case .completed = event, let last = state.buffer.last {
          return claim(.next(last), then: event, &state)
        }
        return claim(event, &state)
      }
    }
    withExtendedLifetime(released) {}
    if let first { drain(first) }
  }

  /// `.next` on every subject but an AsyncSubject: buffers `element` as the policy says, then
  /// delivers it at once when nobody else is delivering (the common case).
  /// A subject that buffers nothing (PublishSubject, PublishRelay) does not take the lock when the
  /// word is idle.
  @inlinable
  func onNext(_ event: Event<Element>, _ element: Element) {
    if case .none = policy, state.compareExchangeWord(expected: 0, desired: Self.deliveringBit) {
      deliverToTable(event)
      finishDelivery()
      return
    }
    var released: Element?
    let claimed = state.withLock { state -> Bool in
      if state.isDisposed || state.terminal != nil { return false }
      state.version &+= 1
      switch policy {
      case .none, .last: break
      case .latest: released = Self.replaceLatest(with: element, in: &state.buffer)
      case .buffer(let size):
        state.buffer.append(element)
        if state.buffer.count > size { released = state.buffer.popFirst() }
      }
      if claimUnderLock() { return true }
      state.pending.append(.deliver(event))
      return false
    }
    // The replaced or evicted element goes with no lock held: its deinit may re-enter.
    withExtendedLifetime(released) {}
    guard claimed else { return }
    deliverToTable(event)
    finishDelivery()
  }

  /// Makes `element` the only buffered one and returns the one it replaces, for the caller to
  /// release once it has unlocked.
  @inlinable
  static func replaceLatest(with element: Element, in buffer: inout RingQueue<Element>)
    -> Element?
  {
    let old = buffer.popFirst()
    buffer.append(element)
    return old
  }

  /// Holding the claim: delivers `event` to the observers in the table. While a removal is
  /// pending (``removalsPendingBit``, loaded per observer because an observer may dispose another
  /// one), each subscription is checked before its observer is called; once the subject is
  /// disposed (``disposedBit``) the delivery stops.
  @inlinable
  func deliverToTable(_ event: Event<Element>) {
    guard let base = table.base else { return }
    for index in 0..<table.count {
      let word = state.loadWord()
      if word & (Self.removalsPendingBit | Self.disposedBit) != 0 {
        if word & Self.disposedBit != 0 { return }
        if base[index]?.subscription.isActive != true { continue }
      }
      base[index]?.observer.handler(event)
    }
  }

  /// Releases the delivery claim, or delivers what was queued meanwhile.
  @inlinable
  func finishDelivery() {
    if state.compareExchangeWord(expected: Self.deliveringBit, desired: 0) { return }
    if let next = nextEvent() { drain(next) }
  }

  /// Called by the delivering thread when its work is done: applies the queued table changes,
  /// then returns the next queued event (the claim stays) or releases the claim and returns `nil`.
  /// A disposed subject drops what is queued and the observer table instead.
  ///
  /// The table changes up to the next event are applied here, all of them within one critical
  /// section (they run no user code: adding appends an entry, removing hands the entry back to be
  /// released below), and when no event follows, the claim is released in the same section. So
  /// a delivering thread returns once the events queued by senders are delivered, however fast
  /// other threads subscribe and dispose meanwhile: each such change costs it one table operation
  /// under a lock it takes once per event. (Applying them one per lock round, as it once did, four
  /// threads churning subscriptions outpaced it and its `onNext` never returned.) Removed entries
  /// and dropped work are released with no lock held.
  @inlinable
  func nextEvent() -> Event<Element>? {
    // Nothing was queued and nothing changed: release without the lock. A thread that queues
    // work or closes the subject sets a bit first, which makes this fail.
    if state.compareExchangeWord(expected: Self.deliveringBit, desired: 0) { return nil }
    var dropped: (RingQueue<Work>, ObserverTable<Element>.Entries)?
    var removed = ObserverTable<Element>.Entries()
    let event = state.withLock { state -> Event<Element>? in
      // Holding the claim and the lock, nobody else changes the word but to set the closed bit
      // (under the lock too).
      if state.isDisposed {
        // Disposed while this thread delivered: the queued work is not done and the observers
        // go, released below with no lock held.
        dropped = (state.pending, table.removeAll())
        state.pending = RingQueue()
        state.pendingRemovals = 0
        self.state.storeWord(Self.closedBit | Self.disposedBit)
        return nil
      }
      var next: Event<Element>?
      while next == nil, let work = state.pending.popFirst() {
        switch work {
        case .deliver(let event): next = event
        case .add(let observer, let subscription):
          // Checked under the lock, where `unsubscribe` marks it: exact. A subscription disposed
          // before it joined hands its observer (often the only reference to the caller's
          // closures) to be released with the removed ones, after unlocking.
          if subscription.isActive {
            table.append(observer, subscription)
          } else {
            removed.append((observer, subscription))
          }
        case .remove(let subscription):
          state.pendingRemovals -= 1
          if let entry = table.remove(subscription) { removed.append(entry) }
        }
      }
      var word = self.state.loadWord() & ~Self.pendingBit
      if state.pendingRemovals == 0 { word &= ~Self.removalsPendingBit }
      if next == nil {
        word &= ~Self.deliveringBit
      } else if !state.pending.isEmpty {
        word |= Self.pendingBit
      }
      self.state.storeWord(word)
      return next
    }
    withExtendedLifetime(dropped) {}
    withExtendedLifetime(removed) {}
    return event
  }

  /// Under the lock: claims delivery when nobody delivers (`true`); otherwise marks work as
  /// pending (`false`), and the caller appends its work to `pending` before unlocking.
  @inlinable
  func claimUnderLock() -> Bool {
    while true {
      let word = state.loadWord()
      if word & Self.deliveringBit == 0 {
        // Without the lock only the idle fast path changes the word (from 0), so compare-and-swap.
        if state.compareExchangeWord(expected: word, desired: word | Self.deliveringBit) {
          return true
        }
        continue
      }
      if word & Self.pendingBit != 0 { return false }
      if state.compareExchangeWord(expected: word, desired: word | Self.pendingBit) {
        return false
      }
      // The delivering thread released its claim meanwhile: look again.
    }
  }

  /// Queues `event` (and `then`) if someone is delivering; otherwise claims delivery, queues
  /// `then` and returns `event` for the caller to deliver outside the lock.
  @inlinable
  func claim(_ event: Event<Element>, then: Event<Element>? = nil, _ state: inout State)
    -> Event<Element>?
  {
    if claimUnderLock() {
      if let then {
        state.pending.append(.deliver(then))
        _ = self.state.fetchOrWord(Self.pendingBit)
      }
      return event
    }
    state.pending.append(.deliver(event))
    if let then { state.pending.append(.deliver(then)) }
    return nil
  }

  /// Holding the claim: delivers `first`, then everything queued meanwhile, then releases the
  /// claim.
  @inlinable
  func drain(_ first: Event<Element>) {
    var event = first
    while true {
      deliverToTable(event)
      if event.isStopEvent {
        // The subject terminated: every observer has its terminal event; let them go.
        let entries = table.removeAll()
        withExtendedLifetime(entries) {}
      }
      guard let next = nextEvent() else { return }
      event = next
    }
  }

  // MARK: subscriptions

  @inlinable
  func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
    var subscription: SubjectSubscription?
    var finished: [Event<Element>] = []
    // The replay this thread delivers (see below), and the gate it delivers it through when
    // another thread holds the claim.
    var replaying: (events: [Event<Element>], gate: ReplayGate<Element>?)?
    state.withLock { state in
      if state.isDisposed {
        finished = [.error(RxError.disposed(object: name))]
        return
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
        // The observer is not added: it gets its events on this thread, with no claim (nobody
        // else delivers to it, and a queued replay could be dropped by a `dispose()`).
        replay.append(terminal)
        finished = replay
        return
      }
      // The subscription holds the core and its entry in the table holds the subscription: a
      // cycle that unsubscribing breaks, or the owner's deinit disposing the core.
      let registered = SubjectSubscription(owner: self) { owner, subscription in
        unsafeDowncast(owner, to: SubjectCore<Element>.self).unsubscribe(subscription)
      }
      state.subscribers += 1
      subscription = registered
      if claimUnderLock() {
        if !replay.isEmpty {
          // Nobody was delivering: this thread delivers the replay holding the claim, then adds
          // the entry (below).
          replaying = (replay, nil)
          return
        }
        // Nobody was delivering, so nothing is queued: add the entry and release the claim within
        // the lock, so that a subscribing thread never ends up delivering other threads' events.
        table.append(observer, registered)
        self.state.storeWord(self.state.loadWord() & ~Self.deliveringBit)
        return
      }
      if replay.isEmpty {
        state.pending.append(.add(observer, registered))
        return
      }
      // Someone delivers (another thread, or this one from inside an observer): the entry is
      // queued behind the events accepted so far, which the replay already holds, and this thread
      // delivers the replay now, through a gate that holds back the events that reach the entry
      // before the replay is done.
      let gate = ReplayGate(observer)
      state.pending.append(.add(gate.observer, registered))
      replaying = (replay, gate)
    }
    for event in finished { observer.on(event) }
    if let replaying, let subscription {
      if let gate = replaying.gate {
        gate.open(after: replaying.events) { reaches(subscription) }
      } else {
        for event in replaying.events where reaches(subscription) { observer.on(event) }
        if subscription.isActive { table.append(observer, subscription) }
        finishDelivery()
      }
    }
    return subscription ?? Disposables.create()
  }

  /// Whether an event may still reach `subscription`'s observer outside the table (a replay, or
  /// what a ``ReplayGate`` held back): neither it nor the subject is disposed. Both flags are set
  /// before the respective `dispose()` returns.
  @inlinable
  func reaches(_ subscription: SubjectSubscription) -> Bool {
    subscription.isActive && state.loadWord() & Self.disposedBit == 0
  }

  /// Removes `subscription`'s observer: at once when nobody delivers (taking the claim for a
  /// moment, within the lock, so that a disposing thread never delivers other threads' events),
  /// otherwise by queueing the removal for the delivering thread. Either way the subscription is
  /// marked disposed under the lock, after the removal is visible to deliveries.
  @inlinable
  func unsubscribe(_ subscription: SubjectSubscription) {
    let removed = state.withLock { state -> ObserverTable<Element>.Entry? in
      guard subscription.isActive else { return nil }  // disposed twice
      defer { subscription.markDisposed() }
      if state.isDisposed { return nil }  // the table went with the disposal
      // After a terminal event the count is already 0, but the entry may still be in the table
      // with the terminal event queued: remove it the same way, so that it gets nothing more.
      if state.terminal == nil { state.subscribers -= 1 }
      if claimUnderLock() {
        // Nobody was delivering, so nothing is queued and, holding the lock and the claim, nobody
        // else changes the word: remove the entry and release the claim with a store.
        let entry = table.remove(subscription)
        self.state.storeWord(self.state.loadWord() & ~Self.deliveringBit)
        return entry
      }
      // Someone delivers (the pending bit is set): queue the removal for them.
      state.pendingRemovals += 1
      _ = self.state.fetchOrWord(Self.removalsPendingBit)
      state.pending.append(.remove(subscription))
      return nil
    }
    // Release the observer outside the lock: its deinit may run user code.
    withExtendedLifetime(removed) {}
  }

  @inlinable
  var hasObservers: Bool { state.withLock { $0.subscribers > 0 } }

  @inlinable
  var isDisposed: Bool { state.withLock { $0.isDisposed } }

  /// Disposes the subject: releases the observers, the buffered elements and the queued work (a
  /// queued event is not delivered once `dispose()` has returned); later subscribers receive
  /// `RxError.disposed`.
  @inlinable
  func dispose() {
    let released = state.withLock {
      state -> (RingQueue<Element>, RingQueue<Work>, ObserverTable<Element>.Entries?) in
      if state.isDisposed { return (RingQueue(), RingQueue(), nil) }
      state.isDisposed = true
      state.version &+= 1
      state.subscribers = 0
      state.pendingRemovals = 0
      let buffer = state.buffer
      let pending = state.pending
      state.buffer = RingQueue()
      state.pending = RingQueue()
      let word =
        self.state.fetchOrWord(Self.closedBit | Self.disposedBit) | Self.closedBit
        | Self.disposedBit
      // When nobody delivers, take the claim for a moment and let the table go; otherwise the
      // delivering thread does that (`nextEvent`) before it releases the claim.
      guard word & Self.deliveringBit == 0,
        self.state.compareExchangeWord(expected: word, desired: word | Self.deliveringBit)
      else {
        return (buffer, pending, nil)
      }
      let entries = table.removeAll()
      self.state.storeWord(Self.closedBit | Self.disposedBit)
      return (buffer, pending, entries)
    }
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
      var released: Element?
      let outcome = state.withLock { state -> (committed: Bool, first: Event<Element>?) in
        if state.version != version { return (false, nil) }
        if state.isDisposed || state.terminal != nil { return (true, nil) }
        released = Self.replaceLatest(with: value, in: &state.buffer)
        state.version &+= 1
        return (true, claim(.next(value), &state))
      }
      withExtendedLifetime(released) {}
      guard outcome.committed else { continue }
      if let first = outcome.first { drain(first) }
      return value
    }
  }
}

/// A new subscriber's replay, delivered by the subscribing thread while another thread holds
/// its subject's delivery claim (see ``SubjectCore/subscribe(_:)``).
///
/// The subscriber's table entry is this gate's ``observer``. Until the subscribing thread has
/// delivered the replay, the events the claim holder delivers to the entry are held back in
/// ``inbox``; the subscribing thread then delivers them too, and opens the gate when none is left,
/// after which events pass straight through (one atomic load more per event, for the life of the
/// subscription). So the subscriber gets the replay, then every later event, once each, in order
/// and one at a time, and the delivering thread never delivers another thread's replay.
///
/// `@unchecked Sendable`: the held-back events are guarded by `inbox`'s lock and the gate's state
/// (0 closed, 1 open) is its atomic word, set under that lock; `target` is immutable.
@usableFromInline
final class ReplayGate<Element>: @unchecked Sendable {
  @usableFromInline let target: AnyObserver<Element>
  /// Events that reached the entry before the replay was done; word 1 once the gate is open.
  @usableFromInline let inbox = Locked(RingQueue<Event<Element>>())

  @inlinable
  init(_ target: AnyObserver<Element>) {
    self.target = target
  }

  /// The table entry's observer.
  @inlinable
  var observer: AnyObserver<Element> { AnyObserver(eventHandler: on) }

  /// Called by the thread holding the claim: holds `event` back while the gate is closed,
  /// otherwise delivers it.
  @inlinable
  func on(_ event: Event<Element>) {
    if inbox.loadWord() == 0 {
      let held = inbox.withLock { queue -> Bool in
        if inbox.loadWord() != 0 { return false }
        queue.append(event)
        return true
      }
      if held { return }
    }
    target.on(event)
  }

  /// Called by the subscribing thread: delivers `replay`, then what was held back meanwhile
  /// (each while `isLive()`: the subscription and the subject are not disposed), and opens the
  /// gate once nothing is held back.
  @inlinable
  func open(after replay: [Event<Element>], while isLive: () -> Bool) {
    for event in replay where isLive() { target.on(event) }
    while true {
      let held = inbox.withLock { queue -> RingQueue<Event<Element>> in
        if queue.isEmpty { inbox.storeWord(1) }
        return queue.removeAll()
      }
      if held.isEmpty { return }
      for event in held where isLive() { target.on(event) }
    }
  }
}

/// A subject's observers in subscription order, with holes where removed ones were: one buffer
/// that the thread holding the delivery claim owns (see ``SubjectCore``).
///
/// Appending is amortized O(1); removing is O(1) through the index the subscription keeps, plus a
/// compaction, O(n), once holes outnumber observers and number more than 8 (amortized O(1)). A removed entry is handed
/// back, never released here, so that the caller can release it outside any lock.
@usableFromInline
struct ObserverTable<Element> {
  @usableFromInline typealias Entry = (
    observer: AnyObserver<Element>, subscription: SubjectSubscription
  )
  @usableFromInline typealias Entries = ContiguousArray<Entry>

  /// `count` initialized slots, `nil` for a hole; `nil` until the first append.
  @usableFromInline var base: UnsafeMutablePointer<Entry?>?
  @usableFromInline var capacity = 0
  /// Slots in use, holes included.
  @usableFromInline var count = 0
  /// Slots holding an observer.
  @usableFromInline var live = 0

  @inlinable
  init() {}

  /// Adds an observer at the end and records its slot in `subscription`.
  @inlinable
  mutating func append(_ observer: AnyObserver<Element>, _ subscription: SubjectSubscription) {
    if count == capacity { grow() }
    subscription.index = count
    (base! + count).initialize(to: (observer, subscription))
    count += 1
    live += 1
  }

  @inlinable
  mutating func grow() {
    let newCapacity = Swift.max(4, capacity * 2)
    let fresh = UnsafeMutablePointer<Entry?>.allocate(capacity: newCapacity)
    if let base {
      fresh.moveInitialize(from: base, count: count)
      base.deallocate()
    }
    base = fresh
    capacity = newCapacity
  }

  /// Takes `subscription`'s entry out, or returns `nil` when it is not in the table (it was never
  /// added, or was removed already).
  @inlinable
  mutating func remove(_ subscription: SubjectSubscription) -> Entry? {
    let index = subscription.index
    guard let base, index >= 0, index < count, base[index]?.subscription === subscription else {
      return nil
    }
    let entry = base[index].take()
    subscription.index = -1
    live -= 1
    if live == 0 {
      count = 0  // only holes are left: they hold nothing
    } else if count - live > Swift.max(8, live) {
      compact()
    }
    return entry
  }

  /// Closes the holes, keeping the order, and updates the moved subscriptions' slots.
  @inlinable
  mutating func compact() {
    guard let base else { return }
    var write = 0
    for read in 0..<count {
      guard let entry = base[read].take() else { continue }
      entry.subscription.index = write
      base[write] = entry
      write += 1
    }
    count = write
  }

  /// Takes every entry out, in order.
  @inlinable
  mutating func removeAll() -> Entries {
    var entries = Entries()
    guard let base, live > 0 else {
      count = 0
      live = 0
      return entries
    }
    entries.reserveCapacity(live)
    for index in 0..<count {
      if let entry = base[index].take() {
        entry.subscription.index = -1
        entries.append(entry)
      }
    }
    count = 0
    live = 0
    return entries
  }

  /// Frees the buffer, releasing what is left in it (the owner's deinit: no lock is held).
  @inlinable
  mutating func deallocate() {
    guard let base else { return }
    base.deinitialize(count: count)
    base.deallocate()
    self.base = nil
    capacity = 0
    count = 0
    live = 0
  }
}

/// Removes one observer from a subject when disposed.
///
/// It holds the subject's core strongly, and the core's observer table holds it: a cycle until the
/// subscription is disposed, which the core's owner (a subject, a `share` connection) breaks when
/// it is deinitialized by disposing the core (``SubjectCore/dispose()``). A strong reference costs
/// a retain and a release; a weak one cost four atomic operations on the subject's side table per
/// subscription, an eighth of the time of subscribing and disposing a three-operator chain.
///
/// Not generic: the removal closure is created in the subscribing module's specialized code, so a
/// call through `any Disposable` does not land in unspecialized generic code. Deliveries check
/// ``isActive``, which the core clears under its lock as it removes the observer or queues its
/// removal, so that nothing reaches the observer once `dispose()` has returned on any thread, or
/// from an earlier observer of the same event (a delivery already running on another thread may
/// still finish, as in RxSwift). Disposing twice is harmless: the second finds it disposed.
///
/// `@unchecked Sendable`: `flag` is only accessed atomically after `init` (written under the
/// core's lock); `index` is read and written only by the thread holding the core's delivery
/// claim; `owner` and `remove` are immutable.
@usableFromInline
final class SubjectSubscription: Disposable, @unchecked Sendable {
  /// 0 until disposed, then 1. Must stay the first stored property (see ``GuardedSink``).
  @usableFromInline var flag: Int
  /// The slot of its observer in the core's table, or -1 when not in it.
  @exclusivity(unchecked) @usableFromInline var index: Int
  /// The subject's core (see above for the cycle and who breaks it).
  @usableFromInline let owner: AnyObject
  /// A non-capturing function made in specialized code that removes this subscription from
  /// `owner`.
  @usableFromInline let remove: @Sendable (AnyObject, SubjectSubscription) -> Void

  @inlinable
  init(owner: AnyObject, remove: @escaping @Sendable (AnyObject, SubjectSubscription) -> Void) {
    self.flag = 0
    self.index = -1
    self.owner = owner
    self.remove = remove
  }

  @inlinable
  var flagAddress: UnsafeMutablePointer<Int> {
    _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: Int.self)
  }

  /// `true` until disposed.
  @inlinable
  var isActive: Bool { streams_atomic_load(flagAddress) == 0 }

  /// Called by the core under its lock (see `unsubscribe`).
  @inlinable
  func markDisposed() { streams_atomic_store(flagAddress, 1) }

  /// Removes the observer. A second call does nothing.
  @inlinable
  func dispose() { remove(owner, self) }
}
