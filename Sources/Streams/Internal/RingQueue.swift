/// The first-in first-out queue of Streams: a growable circular buffer.
///
/// Every first-in first-out queue is a `RingQueue`: ``SerialOutbox``'s pending events, `zip`'s
/// buffers, `merge`'s waiting and starting sequences, `delay`, `takeLast`, the
/// `CurrentThreadScheduler` trampoline, the iterator buffer of `values`.
///
/// - ``append(_:)`` and ``popFirst()`` cost amortized O(1) and nothing is ever shifted. Once the
///   capacity has grown to the largest backlog, neither allocates.
/// - ``popFirst()`` moves the element out to the caller and clears its slot, so the queue never
///   keeps a consumed element alive.
/// - ``removeAll()`` hands the removed elements back to the caller instead of releasing them:
///   under a lock, the caller returns them out of the critical section and lets them go after
///   unlocking, because an element's `deinit` is user code that may re-enter the lock's owner.
/// - It is a `RandomAccessCollection` front to back, for reading without removing (`last` is the
///   newest element).
///
/// ```swift
/// var queue = RingQueue<Int>()
/// queue.append(1)
/// queue.append(2)
/// queue.popFirst()            // 1
/// let dropped = lock.withLock { $0.queue.removeAll() }
/// withExtendedLifetime(dropped) {}   // released here, after the lock
/// ```
///
/// A value type with copy-on-write storage, like the standard collections; not thread-safe by
/// itself (it lives inside a ``Locked`` state).
@usableFromInline
struct RingQueue<Element> {
  /// The ring: `count` elements from `head`, wrapping around; every other slot is `nil`.
  @usableFromInline var slots: ContiguousArray<Element?>
  /// The index of the first element, when there is one.
  @usableFromInline var head: Int
  /// The number of queued elements.
  @usableFromInline var count: Int

  /// An empty queue; it allocates nothing until the first ``append(_:)``.
  @inlinable
  init() {
    slots = []
    head = 0
    count = 0
  }

  /// `true` when nothing is queued.
  @inlinable
  var isEmpty: Bool { count == 0 }

  /// The number of elements the queue holds before it must grow.
  @inlinable
  var capacity: Int { slots.count }

  /// The element ``popFirst()`` would return, left in the queue.
  @inlinable
  var first: Element? { count == 0 ? nil : slots[head] }

  /// Adds `element` at the back. Amortized O(1); allocates only when the queue is full.
  @inlinable
  mutating func append(_ element: Element) {
    if count == slots.count { grow() }
    var index = head &+ count
    if index >= slots.count { index &-= slots.count }
    slots[index] = element
    count &+= 1
  }

  /// Removes the element at the front and hands it to the caller; `nil` when empty. O(1); the
  /// queue keeps its capacity.
  @inlinable
  mutating func popFirst() -> Element? {
    guard count > 0 else { return nil }
    let element = slots[head].take()
    head &+= 1
    if head == slots.count { head = 0 }
    count &-= 1
    if count == 0 { head = 0 }
    return element
  }

  /// Empties the queue and returns what it held, in order, with its storage; the queue is left
  /// empty without storage.
  ///
  /// Nothing is released here: the caller owns the returned queue and decides when its elements
  /// go. Called under a lock, return it out of the critical section and release it after
  /// unlocking (`withExtendedLifetime(dropped) {}`). The result must be used; ignoring it inside
  /// a `withLock` closure would release the elements under the lock.
  @inlinable
  mutating func removeAll() -> RingQueue<Element> {
    var removed = RingQueue()
    swap(&removed, &self)
    return removed
  }

  /// Doubles the capacity (at least 8 slots), moving the elements to the front of new storage.
  ///
  /// `@inlinable` so that it is specialized with the rest of the queue: unspecialized, filling
  /// the new slots with `nil` made one allocation per slot.
  @inlinable
  mutating func grow() {
    let capacity = Swift.max(8, slots.count &* 2)
    var grown = ContiguousArray<Element?>()
    grown.reserveCapacity(capacity)
    for offset in 0..<count {
      var index = head &+ offset
      if index >= slots.count { index &-= slots.count }
      grown.append(slots[index].take())
    }
    grown.append(contentsOf: repeatElement(nil, count: capacity &- count))
    slots = grown
    head = 0
  }
}

extension RingQueue: Sendable where Element: Sendable {}

/// Reading without removing (a replay buffer handing its elements to a new subscriber): the
/// queued elements front to back, position 0 being the one ``RingQueue/popFirst()`` returns next.
/// `last` is the most recently appended element.
extension RingQueue: RandomAccessCollection {
  @inlinable
  var startIndex: Int { 0 }

  @inlinable
  var endIndex: Int { count }

  @inlinable
  subscript(position: Int) -> Element {
    precondition(position >= 0 && position < count, "RingQueue: position \(position) out of range")
    var index = head &+ position
    if index >= slots.count { index &-= slots.count }
    return slots[index]!
  }
}
