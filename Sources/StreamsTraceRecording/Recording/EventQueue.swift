import Streams
import StreamsShims

/// What one thread hands the recorder without taking its lock: a send into a subject (see
/// ``Kind/send``), a delivery (timeline mode), or an element a node emitted (its value, described
/// later).
struct QueuedEvent {
  enum Kind: UInt8 {
    /// `from` (a subscriber, 0 for none) sent into the subject `to`: a send made inside a
    /// delivery (a chain edge) or with a string or a description beside it; other root sends go
    /// to the thread's ``SeqlockRing``.
    case send
    /// The node `from` delivered to `to` (timeline mode only).
    case delivery
    /// The node of `cell` emitted the string or description queued with this event, whose `time`
    /// holds the value's order key (see ``NodeValues``; plain values are written into rings by
    /// the delivering thread).
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
    kind: Kind, event: TraceGraph.EventKind, hop: ThreadContext.Via, thread: UInt32,
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
  /// The owning thread's root sends, which do not go through the queue.
  let sends: SeqlockRing

  /// A queue of `capacity` slots (rounded up to a power of two), with a ring of `sendCapacity`
  /// root sends.
  init(capacity: Int, sendCapacity: Int) {
    sends = .sends(capacity: sendCapacity)
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
  func drain(_ body: (QueuedEvent, UnsafeMutablePointer<Payload>?) -> Void) {
    let head = streams_atomic_load_relaxed(self.head)
    let tail = streams_atomic_load_acquire(self.tail)
    guard head != tail else { return }
    var index = head
    while index != tail {
      let slot = index & mask
      body(slots[slot], hasValue[slot] ? values + slot : nil)
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

/// Fixed-size slots of words written by one thread at a time (the owner) and read by others
/// under the recorder's lock, keeping the last `capacity` written: a thread's root sends
/// (``push(_:)``, ``readEach(_:)``), and the recent plain values of a node written by the
/// subscription that claimed it or by the first thread to send into a subject (``NodeValues``).
///
/// Each slot is guarded by a sequence word (a sequence lock whose every access is atomic, so
/// ThreadSanitizer sees no race): for its `n`th write the owner stores the odd `n << 1 | 1`, the
/// slot's words with release stores, the even `(n + 1) << 1`, then the count with a release store.
/// No read-modify-write: one owner needs none. The reader keeps a slot only when its sequence
/// word reads `(n + 1) << 1` before and after the words (an acquire fence between): a slot being
/// rewritten for a newer write is skipped, as the newer write is the one to keep. The slots are
/// allocated at the first write (a thread that never sends into a subject holds none).
///
/// "One owner at a time": a thread's sends are its own, and so is a subject's sender's ring; a
/// subscription's deliveries are serial (the Rx grammar), and each comes after the one before
/// it. A subscription's ring relies on that: code that breaks the grammar (calling one `create`
/// observer from two threads at once, which the core documents as a misuse) can leave a kept
/// value mixing the words of two values, or lose one; it never makes the reader touch memory
/// outside the slots.
///
/// `@unchecked Sendable`: the slots and the words are only touched through atomic operations.
final class SeqlockRing: @unchecked Sendable {
  /// How many writes the ring keeps: the capacity asked for, rounded up to a power of two.
  let capacity: Int
  private let mask: Int
  /// Words per slot: the sequence word and the `width` words written.
  private let slotWords: Int
  /// The number of writes (index 0) and the slots' address (index 1; 0 until the first).
  private let words: UnsafeMutablePointer<Int>

  /// A ring keeping the last `capacity` (rounded up to a power of two) writes of `width` words
  /// each; none for 0.
  init(capacity: Int, width: Int) {
    var size = capacity > 0 ? 1 : 0
    while size < capacity { size <<= 1 }
    self.capacity = size
    mask = size &- 1
    slotWords = width + 1
    words = .allocate(capacity: 2)
    words.initialize(repeating: 0, count: 2)
  }

  deinit {
    if let slots = UnsafeMutablePointer<Int>(bitPattern: words[1]) {
      slots.deallocate()
    }
    words.deallocate()
  }

  /// Owner: writes one slot in place of the oldest once full; `body` stores the slot's words
  /// (each with `streams_atomic_store_release`) at the address it is given.
  @inline(__always)
  func write(_ body: (UnsafeMutablePointer<Int>) -> Void) {
    var address = streams_atomic_load_relaxed(words + 1)
    if _slowPath(address == 0) { address = allocate() }
    let slots = UnsafeMutablePointer<Int>(bitPattern: address).unsafelyUnwrapped
    let written = streams_atomic_load_relaxed(words)
    let slot = slots + (written & mask) &* slotWords
    streams_atomic_store_relaxed(slot, written << 1 | 1)
    body(slot + 1)
    streams_atomic_store_release(slot, (written &+ 1) << 1)
    streams_atomic_store_release(words, written &+ 1)
  }

  /// Owner: the slots, made at the first write (published with a compare-and-swap, so that two
  /// writers breaking the one-owner rule at the first write do not leak a set).
  @inline(never)
  private func allocate() -> Int {
    let slots = UnsafeMutablePointer<Int>.allocate(capacity: capacity * slotWords)
    slots.initialize(repeating: 0, count: capacity * slotWords)
    let address = Int(bitPattern: UInt(bitPattern: slots))
    guard streams_atomic_compare_exchange(words + 1, 0, address) else {
      slots.deallocate()
      return streams_atomic_load_acquire(words + 1)
    }
    return address
  }

  /// Reader: hands `body` the words of each write kept, oldest first, skipping a slot the owner
  /// is rewriting.
  func readEach(words body: (UnsafePointer<Int>) -> Void) {
    let written = streams_atomic_load_acquire(words)
    guard let slots = UnsafeMutablePointer<Int>(bitPattern: streams_atomic_load_acquire(words + 1))
    else { return }
    let width = slotWords - 1
    withUnsafeTemporaryAllocation(of: Int.self, capacity: width) { copy in
      guard let copied = copy.baseAddress else { return }
      var index = Swift.max(0, written - capacity)
      while index < written {
        defer { index += 1 }
        let slot = slots + (index & mask) &* slotWords
        let sequence = streams_atomic_load_acquire(slot)
        guard sequence == (index &+ 1) << 1 else { continue }
        for word in 0..<width {
          copied[word] = streams_atomic_load_relaxed(slot + 1 + word)
        }
        streams_atomic_fence_acquire()
        guard streams_atomic_load_relaxed(slot) == sequence else { continue }
        body(UnsafePointer(copied))
      }
    }
  }
}

/// The sends a thread makes from outside any delivery with nothing queued beside them ("root
/// sends": no chain edge to count, a plain element or none), written by that thread into a ring
/// of its own instead of its ``EventQueue``, and read, merged by id with the other threads' and
/// with the recorder's ring, when the graph is read (``RecorderState/recentDeliveries()``): a
/// root send costs no queue push and no drain.
extension SeqlockRing {
  /// A thread's ring of root sends, keeping the last `capacity` (rounded up to a power of two).
  static func sends(capacity: Int) -> SeqlockRing {
    SeqlockRing(capacity: capacity, width: 9)
  }

  /// Owner: keeps the root send `entry`.
  @inline(__always)
  func push(_ entry: RingEntry) {
    write { slot in
      streams_atomic_store_release(slot, Int(bitPattern: UInt(entry.id)))
      streams_atomic_store_release(slot + 1, Int(bitPattern: UInt(entry.from)))
      streams_atomic_store_release(slot + 2, Int(bitPattern: UInt(entry.to)))
      streams_atomic_store_release(slot + 3, Int(bitPattern: UInt(entry.cause)))
      streams_atomic_store_release(slot + 4, Int(bitPattern: UInt(entry.time)))
      streams_atomic_store_release(
        slot + 5,
        Int(entry.thread) | Int(unsafeBitCast(entry.event, to: UInt8.self)) << 32
          | Int(unsafeBitCast(entry.hop.hop, to: UInt8.self)) << 40
          | Int(entry.hop.label) << 48)
      streams_atomic_store_release(slot + 6, entry.valueType)
      streams_atomic_store_release(slot + 7, Int(bitPattern: UInt(entry.first)))
      streams_atomic_store_release(slot + 8, Int(bitPattern: UInt(entry.second)))
    }
  }

  /// Reader (under the recorder's lock): hands `body` each root send kept, oldest first.
  func readEach(_ body: (RingEntry) -> Void) {
    readEach(words: { slot in
      let packed = slot[5]
      body(
        RingEntry(
          id: UInt64(UInt(bitPattern: slot[0])), from: UInt64(UInt(bitPattern: slot[1])),
          to: UInt64(UInt(bitPattern: slot[2])), cause: UInt64(UInt(bitPattern: slot[3])),
          time: UInt64(UInt(bitPattern: slot[4])), thread: UInt32(truncatingIfNeeded: packed),
          event: unsafeBitCast(
            UInt8(truncatingIfNeeded: packed >> 32), to: TraceGraph.EventKind.self),
          hop: ThreadContext.Via(
            hop: unsafeBitCast(UInt8(truncatingIfNeeded: packed >> 40), to: TraceGraph.Hop.self),
            label: UInt16(truncatingIfNeeded: packed >> 48)),
          valueType: slot[6], first: UInt64(UInt(bitPattern: slot[7])),
          second: UInt64(UInt(bitPattern: slot[8]))))
    })
  }
}
