/// Serial delivery for operators that receive events from several sources.
///
/// Sources may emit on different threads at once, and an observer may re-enter an operator from
/// inside its own `on(_:)`. An operator keeps a `SerialOutbox` inside its lock-guarded state machine:
/// the first event to arrive while nobody is delivering is handed back to the caller, which
/// delivers it *outside the lock* and then drains whatever other threads queued meanwhile
/// (``SerialOutboxOwner/drain(_:)``). Downstream therefore never sees two events at once and never runs
/// under a lock, and the events keep the order in which the state machine accepted them.
///
/// The payload is what the state machine decided, not necessarily the downstream element:
/// `combineLatest` queues snapshots of the latest values and runs its result selector while
/// delivering, so that the selector is never called under the lock and never concurrently.
@usableFromInline
struct SerialOutbox<Payload> {
  @usableFromInline var pending = SmallQueue<Event<Payload>>()
  @usableFromInline var isDelivering = false
  /// A terminal event was accepted: later events are dropped.
  @usableFromInline var isTerminated = false
  /// The subscription was disposed: pending and later events are dropped.
  @usableFromInline var isDisposed = false

  /// An open outbox that nobody is delivering from.
  @inlinable
  init() {}

  /// `true` once nothing more will be delivered.
  @inlinable
  var isClosed: Bool { isTerminated || isDisposed }

  /// Accepts `event`. Returns it when the caller must deliver it now (it then owns delivery until
  /// ``next()`` returns `nil`); returns `nil` when it was queued for the current deliverer or
  /// dropped because the outbox is closed.
  @inlinable
  mutating func send(_ event: Event<Payload>) -> Event<Payload>? {
    if isClosed { return nil }
    if event.isStopEvent { isTerminated = true }
    if isDelivering {
      pending.append(event)
      return nil
    }
    isDelivering = true
    return event
  }

  /// Called by the deliverer after each event: the next queued event, or `nil` after releasing
  /// the delivery claim.
  @inlinable
  mutating func next() -> Event<Payload>? {
    if !isDisposed, let event = pending.popFirst() { return event }
    pending.removeAll()
    isDelivering = false
    return nil
  }

  /// Closes the outbox without delivering anything more: a selector failed while delivering and
  /// the deliverer sends the error itself.
  @inlinable
  mutating func fail() {
    isTerminated = true
    pending.removeAll()
  }

  /// Marks the subscription disposed; queued events are dropped.
  @inlinable
  mutating func dispose() {
    isDisposed = true
    pending.removeAll()
  }
}

/// An operator sink that delivers through an ``SerialOutbox``.
@usableFromInline
protocol SerialOutboxOwner: AnyObject {
  associatedtype Payload

  /// Delivers one accepted event downstream (outside any lock). Returns `true` when the sequence
  /// ended with it, in which case ``drain(_:)`` disposes the sink.
  func deliver(_ event: Event<Payload>) -> Bool

  /// Takes the next queued event under the lock (``SerialOutbox/next()``).
  func nextPending() -> Event<Payload>?

  /// Disposes every upstream subscription.
  func dispose()
}

extension SerialOutboxOwner {
  /// Delivers `first` (the event ``SerialOutbox/send(_:)`` handed back) and everything queued behind it.
  @inlinable
  func drain(_ first: Event<Payload>?) {
    guard var event = first else { return }
    while true {
      if deliver(event) {
        dispose()
        return
      }
      guard let next = nextPending() else { return }
      event = next
    }
  }
}

/// A first-in first-out queue with amortized O(1) `popFirst`.
@usableFromInline
struct SmallQueue<Element> {
  @usableFromInline var storage: [Element] = []
  @usableFromInline var head = 0

  /// An empty queue.
  @inlinable
  init() {}

  /// `true` when empty.
  @inlinable
  var isEmpty: Bool { head == storage.count }

  /// The number of queued elements.
  @inlinable
  var count: Int { storage.count - head }

  /// Adds `element` at the back.
  @inlinable
  mutating func append(_ element: Element) {
    storage.append(element)
  }

  /// The element at the front, if any.
  @inlinable
  var first: Element? { isEmpty ? nil : storage[head] }

  /// Removes and returns the element at the front.
  @inlinable
  mutating func popFirst() -> Element? {
    guard head < storage.count else { return nil }
    let element = storage[head]
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 32 && head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return element
  }

  /// Removes everything.
  @inlinable
  mutating func removeAll() {
    storage.removeAll()
    head = 0
  }
}

/// The disposable of one upstream subscription, which may be needed before `subscribe` returned.
@usableFromInline
enum UpstreamDisposable {
  /// `subscribe` has not returned yet.
  case pending
  /// The subscription's disposable.
  case set(any Disposable)
  /// The subscription ended (or must end): a disposable that arrives later is disposed at once.
  case released

  /// Stores `disposable`; returns it back when it must be disposed at once.
  @inlinable
  mutating func store(_ disposable: any Disposable) -> (any Disposable)? {
    switch self {
    case .pending:
      self = .set(disposable)
      return nil
    case .released:
      return disposable
    case .set:
      preconditionFailure("Streams internal error: upstream disposable stored twice")
    }
  }

  /// `true` while it holds a subscription's disposable.
  @inlinable
  var isSet: Bool {
    switch self {
    case .set: return true
    case .pending, .released: return false
    }
  }

  /// Marks the subscription ended; returns the disposable to dispose, if it is known.
  @inlinable
  mutating func release() -> (any Disposable)? {
    defer { self = .released }
    if case .set(let disposable) = self { return disposable }
    return nil
  }
}
