import Streams
import StreamsShims

/// What one thread hands the recorder without taking its lock: a send into a subject, a delivery
/// (timeline mode), or an element a node emitted (its value, described later).
struct QueuedEvent {
  enum Kind: UInt8 {
    /// `from` (a subscriber, 0 for none) sent into the subject `to`.
    case send
    /// The node `from` delivered to `to` (timeline mode only).
    case delivery
    /// The node of `cell` emitted the string or description queued with this event (plain
    /// values are written to the node's values by the delivering thread).
    case value
  }

  /// The event as the ring of deliveries keeps it, so that taking it in is one copy: its id (a
  /// value's stamp among its node's, ``NodeValues``), ends, cause, time, thread, and plain
  /// element (a string or a description is queued beside the event instead).
  var entry: RingEntry
  var kind: Kind
  /// Where a `.value` event's value goes: the emitting node's (or the subject's) values, which
  /// the recorder's state holds until two trims after the node is merged and forgotten.
  var cell: Unmanaged<NodeValues>?

  @inline(__always)
  init(
    kind: Kind, event: TraceGraph.EventKind, hop: TraceGraph.Hop, thread: UInt32,
    delivery: UInt64, from: UInt64, to: UInt64, cause: UInt64, time: UInt64,
    cell: Unmanaged<NodeValues>?
  ) {
    entry = RingEntry(
      id: delivery, from: from, to: to, cause: cause, time: time, thread: thread, event: event,
      hop: hop, valueType: 0, first: 0, second: 0)
    self.kind = kind
    self.cell = cell
  }

  var delivery: UInt64 { entry.id }
  var from: UInt64 { entry.from }
  var to: UInt64 { entry.to }
  /// 0 for none.
  var cause: UInt64 { entry.cause }
  var time: UInt64 { entry.time }

  /// Sets the plain element of `type` whose bytes are `first` and `second` (see
  /// ``TraceValue/plain``).
  @inline(__always)
  mutating func setValue(type: any Any.Type, _ first: UInt64, _ second: UInt64) {
    entry.valueType = unsafeBitCast(type, to: Int.self)
    entry.first = first
    entry.second = second
  }
}

/// An element or error kept for the trace, to be described when the graph is read, on the
/// reading thread (see ``TraceValue``: a plain value's bytes, a string, or a description made
/// on the thread that delivered it).
struct Payload: Sendable {
  let value: TraceValue

  @inline(__always)
  init(_ value: TraceValue) {
    self.value = value
  }
}

/// A bounded single-producer queue of ``QueuedEvent``s: the thread that owns it pushes without a
/// lock; whoever holds the recorder's lock drains it (the owner itself when the queue is full, or
/// a reader taking the graph).
///
/// The producer publishes a slot with a release store of `tail` after initializing it; the
/// consumer reads `tail` with an acquire load, moves the slots out, and releases them back with a
/// release store of `head`, which the producer reads with an acquire load before reusing a slot.
/// Consumers are serialized by the recorder's lock.
///
/// `@unchecked Sendable`: the slots are handed over only through that protocol.
final class EventQueue: @unchecked Sendable {
  private let mask: Int
  private let slots: UnsafeMutablePointer<QueuedEvent>
  /// The values queued with the events, at the same positions; initialized only where one was
  /// queued (`hasValue`).
  private let values: UnsafeMutablePointer<Payload>
  private let hasValue: UnsafeMutablePointer<Bool>
  /// `head` at index 0 and `tail` at index 8, on separate cache lines: the consumer's and the
  /// producer's positions.
  private let indices: UnsafeMutablePointer<Int>
  /// Set when the owning thread has exited or moved to another recorder: once drained, the queue
  /// can be forgotten.
  private let abandonedFlag: UnsafeMutablePointer<Int>

  /// A queue of `capacity` slots (rounded up to a power of two).
  init(capacity: Int) {
    var size = 1
    while size < capacity { size <<= 1 }
    mask = size - 1
    slots = .allocate(capacity: size)
    values = .allocate(capacity: size)
    hasValue = .allocate(capacity: size)
    hasValue.initialize(repeating: false, count: size)
    indices = .allocate(capacity: 16)
    indices.initialize(repeating: 0, count: 16)
    abandonedFlag = .allocate(capacity: 1)
    abandonedFlag.initialize(to: 0)
  }

  deinit {
    let head = indices[0]
    let tail = indices[8]
    for index in head..<tail where hasValue[index & mask] {
      (values + (index & mask)).deinitialize(count: 1)
    }
    slots.deallocate()
    values.deallocate()
    hasValue.deallocate()
    indices.deallocate()
    abandonedFlag.deallocate()
  }

  private var head: UnsafeMutablePointer<Int> { indices }
  private var tail: UnsafeMutablePointer<Int> { indices + 8 }

  /// Producer: appends `event`; `false` when the queue is full.
  @inline(__always)
  func push(_ event: QueuedEvent) -> Bool {
    let tail = streams_atomic_load_relaxed(self.tail)
    if tail - streams_atomic_load_acquire(head) > mask { return false }
    let slot = tail & mask
    slots[slot] = event
    hasValue[slot] = false
    streams_atomic_store_release(self.tail, tail + 1)
    return true
  }

  /// Producer: appends `event` with its value; `false` when the queue is full.
  @inline(__always)
  func push(_ event: QueuedEvent, value: consuming Payload) -> Bool {
    let tail = streams_atomic_load_relaxed(self.tail)
    if tail - streams_atomic_load_acquire(head) > mask { return false }
    let slot = tail & mask
    slots[slot] = event
    (values + slot).initialize(to: value)
    hasValue[slot] = true
    streams_atomic_store_release(self.tail, tail + 1)
    return true
  }

  /// Consumer (under the recorder's lock): hands every queued event to `body`, oldest first.
  /// `body` gets each event and, when one was queued with it, its initialized value, which it
  /// must move out.
  ///
  /// A send from outside any delivery with no value queued beside it (the common event: a root
  /// send, its plain element in the event itself) goes to `rootSend` with its ring entry alone.
  @inline(__always)
  func drain(
    rootSend: (borrowing RingEntry) -> Void,
    _ body: (QueuedEvent, UnsafeMutablePointer<Payload>?) -> Void
  ) {
    let head = streams_atomic_load_relaxed(self.head)
    let tail = streams_atomic_load_acquire(self.tail)
    guard head != tail else { return }
    var index = head
    while index != tail {
      let slot = index & mask
      let event = slots + slot
      if !hasValue[slot], event.pointee.kind == .send, event.pointee.entry.from == 0 {
        rootSend(event.pointee.entry)
      } else {
        body(event.pointee, hasValue[slot] ? values + slot : nil)
      }
      index += 1
    }
    streams_atomic_store_release(self.head, tail)
  }

  /// Whether nothing is queued (for the consumer, under the recorder's lock).
  var isEmpty: Bool {
    streams_atomic_load_relaxed(head) == streams_atomic_load_acquire(tail)
  }

  /// Whether the owning thread no longer pushes to this queue.
  var isAbandoned: Bool { streams_atomic_load_acquire(abandonedFlag) != 0 }

  /// The owning thread no longer pushes to this queue.
  func abandon() { streams_atomic_store_release(abandonedFlag, 1) }
}
