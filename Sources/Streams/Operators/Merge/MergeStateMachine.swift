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
