/// How many inner sequences a merging operator runs at once.
@usableFromInline
enum MergeLimit: Sendable {
  /// Every inner sequence at once (`flatMap`, `merge()`).
  case unbounded
  /// At most `n`; the others wait in arrival order (`merge(maxConcurrent:)`, `concatMap`,
  /// `concat()`).
  case queue(Int)
  /// One at a time; elements that arrive while one runs are dropped (`flatMapFirst`).
  case dropWhileBusy
}

/// The state of a merging operator: an outer sequence whose elements become inner sequences,
/// all of whose elements go to one observer.
///
/// Every transition runs under the sink's lock and returns what to do next; the sink subscribes,
/// disposes and delivers after releasing the lock.
///
/// Inner subscriptions are started by one thread at a time through a small trampoline
/// (`starting`): when an inner sequence completes synchronously inside its own `subscribe` and a
/// queued one must start, the thread already in the start loop picks it up instead of recursing,
/// so `concat()` over many synchronous sources does not grow the stack.
@usableFromInline
struct MergeStateMachine<Element> {
  /// What a completed inner subscription leaves to do.
  @usableFromInline
  struct InnerCompletion {
    /// The finished inner subscription, to dispose.
    @usableFromInline var dispose: (any Disposable)?
    /// The caller must run the start loop.
    @usableFromInline var startLoop = false
    /// An event the caller must deliver.
    @usableFromInline var deliver: Event<Element>?

    /// Leaves `dispose` to dispose and nothing else to do.
    @inlinable
    init(dispose: (any Disposable)? = nil) {
      self.dispose = dispose
    }
  }

  @usableFromInline var outbox = SerialOutbox<Element>()
  @usableFromInline let limit: MergeLimit
  @usableFromInline var outer = UpstreamDisposable.pending
  @usableFromInline var outerStopped = false
  @usableFromInline var inners: [Int: UpstreamDisposable] = [:]
  @usableFromInline var nextID = 0
  /// Inner sequences subscribed, being subscribed, or reserved (`flatMapFirst`).
  @usableFromInline var active = 0
  /// Inner sequences waiting for a free slot (`MergeLimit.queue`).
  @usableFromInline var waiting = RingQueue<Observable<Element>>()
  /// Inner sequences to subscribe, in order, by the thread that owns the start loop.
  @usableFromInline var starting = RingQueue<(id: Int, source: Observable<Element>)>()
  @usableFromInline var isStarting = false

  @inlinable
  init(limit: MergeLimit) {
    self.limit = limit
  }

  /// Before the selector runs for an outer element: `false` if the element is to be ignored.
  @inlinable
  mutating func admit() -> Bool {
    if outbox.isClosed { return false }
    if case .dropWhileBusy = limit {
      if active > 0 { return false }
      active += 1
    }
    return true
  }

  /// What to do with an inner sequence that emits one element and completes while it is being
  /// subscribed (`just`).
  @usableFromInline
  enum ImmediateArrival {
    /// It was handled like any other inner sequence (queued, scheduled or dropped); the caller
    /// runs the start loop if `startLoop`.
    case scheduled(startLoop: Bool)
    /// Its element was accepted without subscribing: the caller delivers `first` if it is not
    /// `nil`, then calls ``immediateCompleted()``. The caller owns the start loop until then.
    case deliver(first: Event<Element>?)
  }

  /// An inner sequence arrived that emits `element` and completes during `subscribe`.
  ///
  /// When no start loop runs and a slot is free, its element is accepted at once, without an
  /// inner subscription: that is what subscribing to it would do, since nothing else could start
  /// before it. Otherwise it is scheduled as ``innerArrived(_:)`` does.
  @inlinable
  mutating func immediateArrived(_ source: Observable<Element>, element: Element)
    -> ImmediateArrival
  {
    if outbox.isClosed || isStarting { return .scheduled(startLoop: innerArrived(source)) }
    switch limit {
    case .unbounded:
      active += 1
    case .dropWhileBusy:
      break  // reserved by `admit()`
    case .queue(let maxConcurrent):
      if active >= maxConcurrent { return .scheduled(startLoop: innerArrived(source)) }
      active += 1
    }
    isStarting = true
    return .deliver(first: outbox.send(.next(element)))
  }

  /// The sequence accepted by ``immediateArrived(_:element:)`` completed: frees its slot (or
  /// schedules a waiting sequence into it). Returns `true` in `startLoop` when the caller must go
  /// on with the start loop (otherwise it was released), and an event to deliver.
  @inlinable
  mutating func immediateCompleted() -> (startLoop: Bool, deliver: Event<Element>?) {
    if outbox.isClosed {
      // What is left in `starting` is released by ``dispose()``, which always follows.
      isStarting = false
      return (false, nil)
    }
    if let next = waiting.popFirst() {
      _ = schedule(next)
    } else {
      active -= 1
    }
    let deliver = completeIfDone()
    if starting.isEmpty {
      isStarting = false
      return (false, deliver)
    }
    return (true, deliver)
  }

  /// The deliverer of the element accepted by ``immediateArrived(_:element:)`` asks for more: the
  /// next queued event (``SerialOutbox/next()``), or, when there is none, the delivery claim is
  /// released and the sequence completes (``immediateCompleted()``), in one critical section
  /// instead of two.
  @inlinable
  mutating func nextOrImmediateCompleted() -> (
    next: Event<Element>?, completion: (startLoop: Bool, deliver: Event<Element>?)?
  ) {
    if let event = outbox.next() { return (event, nil) }
    return (nil, immediateCompleted())
  }

  /// An inner sequence is ready; returns `true` when the caller must run the start loop.
  @inlinable
  mutating func innerArrived(_ source: Observable<Element>) -> Bool {
    if outbox.isClosed { return false }
    switch limit {
    case .unbounded:
      active += 1
    case .dropWhileBusy:
      break  // reserved by `admit()`
    case .queue(let maxConcurrent):
      if active >= maxConcurrent {
        waiting.append(source)
        return false
      }
      active += 1
    }
    return schedule(source)
  }

  @inlinable
  mutating func schedule(_ source: Observable<Element>) -> Bool {
    let id = nextID
    nextID += 1
    inners[id] = .pending
    starting.append((id, source))
    if isStarting { return false }
    isStarting = true
    return true
  }

  /// The next inner sequence the start loop subscribes, or `nil` after releasing the loop.
  ///
  /// Once the outbox is closed, what is left in `starting` stays there for ``dispose()`` (which
  /// follows every closing) to hand out of the lock. An empty queue keeps its storage: freeing
  /// it cost one allocation per inner sequence.
  @inlinable
  mutating func nextToStart() -> (id: Int, source: Observable<Element>)? {
    if !outbox.isClosed, let next = starting.popFirst() { return next }
    isStarting = false
    return nil
  }

  /// The outer subscription returned; returns it back if it must be disposed at once.
  @inlinable
  mutating func outerSubscribed(_ disposable: any Disposable) -> (any Disposable)? {
    outer.store(disposable)
  }

  /// An inner subscription returned; returns it back if it must be disposed at once.
  @inlinable
  mutating func innerSubscribed(_ id: Int, _ disposable: any Disposable) -> (any Disposable)? {
    guard var slot = inners[id] else { return disposable }
    let disposeNow = slot.store(disposable)
    inners[id] = slot
    return disposeNow
  }

  /// An inner sequence completed.
  @inlinable
  mutating func innerCompleted(_ id: Int) -> InnerCompletion {
    guard var slot = inners.removeValue(forKey: id) else { return InnerCompletion() }
    var result = InnerCompletion(dispose: slot.release())
    if outbox.isClosed { return result }
    if let next = waiting.popFirst() {
      result.startLoop = schedule(next)
    } else {
      active -= 1
    }
    result.deliver = completeIfDone()
    return result
  }

  /// The outer sequence completed: returns the outer subscription to dispose and an event to
  /// deliver.
  @inlinable
  mutating func outerCompleted() -> (dispose: (any Disposable)?, deliver: Event<Element>?) {
    outerStopped = true
    let disposable = outer.release()
    return (disposable, completeIfDone())
  }

  /// A static merge: there is no outer sequence, only the inner ones.
  @inlinable
  mutating func withoutOuter() {
    outerStopped = true
    _ = outer.release()
  }

  /// Completes when the outer sequence and every inner sequence completed.
  @inlinable
  mutating func completeIfDone() -> Event<Element>? {
    guard outerStopped, active == 0, waiting.isEmpty else { return nil }
    return outbox.send(.completed)
  }

  /// What ``dispose()`` takes out of the state: queued events, and inner sequences waiting for a
  /// slot or to be subscribed.
  @usableFromInline
  typealias Released = (
    pending: RingQueue<Event<Element>>, waiting: RingQueue<Observable<Element>>,
    starting: RingQueue<(id: Int, source: Observable<Element>)>
  )

  /// The subscription ends: returns every subscription to dispose, outer first, then the inner
  /// ones in subscription order, and what the state held, which the caller releases after
  /// unlocking.
  @inlinable
  mutating func dispose() -> (subscriptions: [any Disposable], released: Released) {
    let pending = outbox.dispose()
    var all: [any Disposable] = []
    if let disposable = outer.release() { all.append(disposable) }
    for id in inners.keys.sorted() {
      if let disposable = inners[id]?.release() { all.append(disposable) }
    }
    inners = [:]
    return (all, (pending, waiting.removeAll(), starting.removeAll()))
  }
}

/// Runs one subscription of a merging operator (`flatMap`, `flatMapFirst`, `concatMap`,
/// `merge`, `concat()`).
///
/// `@unchecked Sendable`: all mutable state is the state machine behind `state`'s lock;
/// `downstream` and `selector` are immutable and only called by the thread that holds the outbox's
/// delivery claim (downstream) or by the outer sequence's serial `on` (selector).
@usableFromInline
final class MergeSink<Source, Element>: SerialOutboxOwner, Disposable, @unchecked Sendable {
  @usableFromInline typealias Payload = Element

  @usableFromInline let downstream: AnyObserver<Element>
  @usableFromInline let selector: (Source) throws -> Observable<Element>
  @usableFromInline let state: Locked<MergeStateMachine<Element>>
  /// `flatMapFirst`: admitting an element reserves the slot, under the lock.
  @usableFromInline let dropsWhileBusy: Bool

  @inlinable
  init(
    downstream: AnyObserver<Element>, limit: MergeLimit,
    selector: @escaping (Source) throws -> Observable<Element>
  ) {
    self.downstream = downstream
    self.selector = selector
    self.state = Locked(MergeStateMachine(limit: limit))
    if case .dropWhileBusy = limit { dropsWhileBusy = true } else { dropsWhileBusy = false }
    Resources.track(self)
  }

  deinit { Resources.untrack(self) }

  /// Subscribes to `source`, mapping each element to an inner sequence with `selector`.
  @inlinable
  static func subscribe(
    _ source: Observable<Source>, limit: MergeLimit, observer: AnyObserver<Element>,
    selector: @escaping (Source) throws -> Observable<Element>
  ) -> any Disposable {
    let sink = MergeSink(downstream: observer, limit: limit, selector: selector)
    let subscription = source.subscribeNested(AnyObserver { event in sink.outerOn(event) })
    sink.withState { $0.outerSubscribed(subscription) }?.dispose()
    return sink
  }

  /// Runs `body` under the lock. Once the outbox is closed, the lock's side word says so, so that
  /// `outerOn` can drop the elements of an ended sequence without taking the lock: every
  /// transition runs through here, so the word is set in the critical section that closed it.
  @inlinable
  func withState<Result>(_ body: (inout MergeStateMachine<Element>) -> Result) -> Result {
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
      if dropsWhileBusy {
        guard withState({ $0.admit() }) else { return }
      } else if isClosed {
        return  // what `admit()` decides for the other limits, without the lock
      }
      let inner: Observable<Element>
      do {
        inner = try selector(element)
      } catch {
        drain(withState { $0.outbox.send(.error(error)) })
        return
      }
      if let just = inner as? JustObservable<Element>, !Tracing.isInstalled {
        justArrived(just)
        return
      }
      if withState({ $0.innerArrived(inner) }) { startLoop() }
    case .error(let error):
      drain(withState { $0.outbox.send(.error(error)) })
    case .completed:
      let (disposable, event) = withState { $0.outerCompleted() }
      disposable?.dispose()
      drain(event)
    }
  }

  /// An inner `just` arrived: when nothing else is starting, delivers its element and its
  /// completion without subscribing to it (no inner observer, no inner subscription to keep).
  ///
  /// The events, their order, and the trampoline they run in are those of a subscription: the
  /// trampoline is entered around them as `subscribeAny` would. Traced subscriptions do not come
  /// here, so that the tracer sees the inner sequence.
  @inlinable
  func justArrived(_ just: JustObservable<Element>) {
    switch withState({ $0.immediateArrived(just, element: just.element) }) {
    case .scheduled(let mustStart):
      if mustStart { startLoop() }
    case .deliver(let first):
      let trampoline = Trampoline.enterIfIdle()
      var event = first
      var completion: (startLoop: Bool, deliver: Event<Element>?)?
      // Holding the claim when `first` is set (see `drain`: the rank, or a waiter, otherwise).
      let saved = first == nil ? nil : ClaimRank.enter(ClaimRank.takeClaimed())
      while let current = event {
        if deliver(current) {
          dispose()
          break
        }
        (event, completion) = withState { $0.nextOrImmediateCompleted() }
      }
      if let saved { ClaimRank.leave(saved) }
      if first == nil { drain(nil) }
      let (mustContinue, last) = completion ?? withState { $0.immediateCompleted() }
      drain(last)
      trampoline?.drainAndStop()
      if mustContinue { startLoop() }
    }
  }

  @inlinable
  func startLoop() {
    while let next = withState({ $0.nextToStart() }) {
      let id = next.id
      if let just = next.source as? JustObservable<Element>, !Tracing.isInstalled {
        // What subscribing does, without the inner observer: the inner slot of `id` is removed
        // by the completion, so there is no subscription to store.
        let trampoline = Trampoline.enterIfIdle()
        innerOn(id, .next(just.element))
        innerOn(id, .completed)
        trampoline?.drainAndStop()
        continue
      }
      let subscription = next.source.subscribeAny(
        AnyObserver { [self] event in innerOn(id, event) })
      withState { $0.innerSubscribed(id, subscription) }?.dispose()
    }
  }

  @inlinable
  func innerOn(_ id: Int, _ event: Event<Element>) {
    switch event {
    case .next, .error:
      drain(withState { $0.outbox.send(event) })
    case .completed:
      let completion = withState { $0.innerCompleted(id) }
      completion.dispose?.dispose()
      if completion.startLoop { startLoop() }
      drain(completion.deliver)
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

extension MergeSink where Source == Observable<Element> {
  /// Subscribes to every source at once (static `merge`).
  @inlinable
  static func subscribe(all sources: [Observable<Element>], observer: AnyObserver<Element>)
    -> any Disposable
  {
    let sink = MergeSink(downstream: observer, limit: .unbounded, selector: { $0 })
    let mustStart = sink.withState { state -> Bool in
      state.withoutOuter()
      var mustStart = false
      for source in sources where state.innerArrived(source) { mustStart = true }
      return mustStart
    }
    if mustStart { sink.startLoop() }
    sink.drain(sink.withState { $0.completeIfDone() })
    return sink
  }
}
