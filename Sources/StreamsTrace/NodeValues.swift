@_spi(StreamsInternal) import Streams
import StreamsShims

/// A node's recent values: plain values written by the delivering thread itself, without the
/// recorder's lock or queue; strings and descriptions taken in from the threads' queues under the
/// lock. The graph lists the newest `limit`.
///
/// Where a plain value (``TraceValue/plain``: a type and two words) goes depends on who writes it:
///
/// - **An operator's subscription** (one writer: its deliveries are serial) writes into a ring of
///   its own (a ``SeqlockRing``, made when it claims the node, held by its record), with no
///   read-modify-write at all. Only the first subscription to deliver claims the node, so that an
///   element shared by several subscribers (`share`) is remembered once. When the claimant ends,
///   its values are folded into this object's (``fold(_:)``, under the lock) and the next
///   subscription to deliver claims the node with a ring of its own. A value delivered while its
///   subscription is being disposed on another thread may be written after the fold, and is
///   then not kept.
/// - **A send into a subject**: the first thread to send into it claims it and writes into a
///   ring of its own (the sender's ring, one writer: that thread, for the object's life), with no
///   read-modify-write. Other threads (several may send into one subject at once) write into this
///   object's shared ring of slots, each guarded by a sequence word (a sequence lock whose every
///   access is atomic): a writer takes a stamp with a fetch-add, claims the stamp's slot with a
///   compare-and-swap of its sequence word to the odd `stamp << 1 | 1`, stores the words with
///   release stores, and publishes the even `stamp << 1`. Two writers never write one slot at
///   once: the second finds it claimed or newer and drops its value. The reader (under the
///   recorder's lock) keeps a slot only when its sequence word reads the same even value before
///   and after the words.
///
/// Each value carries the time of the outermost delivery on its thread (the coarse clock, see
/// ``ThreadContext``). The graph lists each source's values in the order they were written (the
/// shared ring and the strings by stamp, a subscription's or a sender's ring by position) and
/// interleaves the sources by that time: values of one node from different subscriptions (a node
/// merged into another, a claimant and the one after it) or from different threads are ordered
/// at the clock's precision.
///
/// A node merged into another forwards to it (``forward(to:)``): its values move there, subject
/// writers follow the forwarding with atomic loads, and the rings of its subscriptions are read
/// with the canonical node's (``RecorderState``). Each values object holds the one it forwards
/// to, and a subscription's record holds its node's, so whatever a writer reaches is alive while
/// it delivers.
///
/// `@unchecked Sendable`: the slots and the counters are only touched through atomic operations;
/// `texts`, `textHead`, `archive` and `forwarded` are guarded by the recorder's lock.
final class NodeValues: @unchecked Sendable {
  /// How many values the graph shows.
  let limit: Int
  /// `capacity` slots of 5 words: sequence (0 when empty), time, type, and the value's two words.
  private let slots: UnsafeMutablePointer<Int>
  /// `capacity - 1`; the capacity is `limit` rounded up to a power of two.
  private let mask: Int
  /// The last stamp handed out (index 0), the subscription reporting the node's values (index
  /// 1), the values object this one forwards to (index 2, its address; 0 for none), the thread
  /// owning the sender's ring (index 3, its number + 1; 0 for none), and that ring (index 4, the
  /// address of a retained ``SeqlockRing``; 0 until made).
  private let words: UnsafeMutablePointer<Int>
  /// Strings and descriptions, with their stamps and times: at most `limit`, the oldest at
  /// `textHead` once full.
  @exclusivity(unchecked) private var texts: [(stamp: Int, time: UInt64, value: TraceValue)] = []
  @exclusivity(unchecked) private var textHead = 0
  /// Values of ended claimants and of nodes merged into this one, oldest first (at most
  /// `limit`).
  @exclusivity(unchecked) private var archive: [(time: UInt64, value: TraceValue)] = []
  /// What `words[2]` points to, held strongly.
  @exclusivity(unchecked) private(set) var forwarded: NodeValues?

  /// Words per slot of the shared ring.
  private static var slotWords: Int { 5 }

  init(limit: Int) {
    precondition(limit > 0, "StreamsTrace internal error: a values ring of no values")
    self.limit = limit
    var capacity = 1
    while capacity < limit { capacity <<= 1 }
    mask = capacity - 1
    slots = .allocate(capacity: Self.slotWords * capacity)
    slots.initialize(repeating: 0, count: Self.slotWords * capacity)
    words = .allocate(capacity: 5)
    words.initialize(repeating: 0, count: 5)
  }

  deinit {
    // Releasing the ring runs no user code (plain words).
    if let ring = UnsafeRawPointer(bitPattern: words[4]) {
      Unmanaged<SeqlockRing>.fromOpaque(ring).release()
    }
    slots.deallocate()
    words.deallocate()
  }

  // MARK: Delivering thread

  /// Where subject values go now: this object, or the one it was merged into (atomic loads; the
  /// chain is held by `self`).
  @inline(__always)
  var current: Unmanaged<NodeValues> {
    var values = Unmanaged.passUnretained(self)
    while true {
      let bits = values._withUnsafeGuaranteedRef { streams_atomic_load_acquire($0.words + 2) }
      guard let next = UnsafeRawPointer(bitPattern: bits) else { return values }
      values = Unmanaged.fromOpaque(next)
    }
  }

  /// A new stamp: the order of a value among this node's shared ring and strings.
  @inline(__always)
  func nextStamp() -> Int {
    streams_atomic_fetch_add(words, 1) &+ 1
  }

  /// Keeps `value`, sent by the thread numbered `thread`, if it is plain, and returns `true`;
  /// returns `false` for a string or a description, which the caller queues with a stamp from
  /// ``nextStamp()``.
  @inline(__always)
  func write(_ value: TraceValue, time: UInt64, thread: UInt32) -> Bool {
    guard let plain = value.plain else { return false }
    write(type: plain.type, plain.words.0, plain.words.1, time: time, thread: thread)
    return true
  }

  /// Keeps the plain value of `type` whose bytes are `first` and `second`, sent by the thread
  /// numbered `thread`: in the sender's ring if that thread owns it (or claims it now), else in
  /// the shared ring.
  @inline(__always)
  func write(type: any Any.Type, _ first: UInt64, _ second: UInt64, time: UInt64, thread: UInt32) {
    let owner = streams_atomic_load_relaxed(words + 3)
    if owner == Int(thread) &+ 1 || (owner == 0 && claimSenderRing(by: thread)) {
      // Published by this thread (below), so its own relaxed load sees it.
      let ring = UnsafeRawPointer(bitPattern: streams_atomic_load_relaxed(words + 4))
      return Unmanaged<SeqlockRing>.fromOpaque(ring.unsafelyUnwrapped)._withUnsafeGuaranteedRef {
        $0.keep(type: type, first, second, time: time)
      }
    }
    writeShared(type: type, first, second, time: time)
  }

  /// Makes the thread numbered `thread` the owner of the sender's ring, if no thread is; whether
  /// it is now.
  @inline(never)
  private func claimSenderRing(by thread: UInt32) -> Bool {
    guard streams_atomic_compare_exchange(words + 3, 0, Int(thread) &+ 1) else { return false }
    let ring = Unmanaged.passRetained(SeqlockRing.values(limit: limit))
    streams_atomic_store_release(words + 4, Int(bitPattern: ring.toOpaque()))
    return true
  }

  /// Keeps the plain value of `type` whose bytes are `first` and `second` in the shared ring.
  @inline(__always)
  private func writeShared(type: any Any.Type, _ first: UInt64, _ second: UInt64, time: UInt64) {
    let stamp = nextStamp()
    let slot = slots + (stamp & mask) &* Self.slotWords
    let sequence = streams_atomic_load_relaxed(slot)
    // Being written by another writer, or holding a newer value: this one is dropped.
    guard sequence & 1 == 0, sequence >> 1 < stamp,
      streams_atomic_compare_exchange(slot, sequence, stamp << 1 | 1)
    else { return }
    streams_atomic_store_release(slot + 1, Int(bitPattern: UInt(time)))
    streams_atomic_store_release(slot + 2, unsafeBitCast(type, to: Int.self))
    streams_atomic_store_release(slot + 3, Int(bitPattern: UInt(first)))
    streams_atomic_store_release(slot + 4, Int(bitPattern: UInt(second)))
    streams_atomic_store_release(slot, stamp << 1)
  }

  /// The subscription whose ring holds the node's values now; 0 for none (a relaxed load).
  @inline(__always)
  var claimant: Int { streams_atomic_load_relaxed(words + 1) }

  /// Makes `subscription` the one reporting the node's values if none is; whether it is now.
  func claim(by subscription: UInt64) -> Bool {
    let id = Int(truncatingIfNeeded: subscription)
    return streams_atomic_compare_exchange(words + 1, 0, id) || claimant == id
  }

  /// Lets another subscription claim the node once `subscription` has ended.
  func release(by subscription: UInt64) {
    _ = streams_atomic_compare_exchange(words + 1, Int(truncatingIfNeeded: subscription), 0)
  }

  // MARK: Under the recorder's lock

  /// Where values go now, following the merges.
  var target: NodeValues {
    var values = self
    while let next = values.forwarded { values = next }
    return values
  }

  /// Sends this node's values to `other` from now on (the node was merged into `other`'s), and
  /// moves the values it holds there.
  func forward(to other: NodeValues) {
    guard forwarded == nil, other !== self else { return }
    forwarded = other
    streams_atomic_store_release(
      words + 2, Int(bitPattern: Unmanaged.passUnretained(other).toOpaque()))
    other.archive = other.newest(Self.interleaved([other.archive, held, sent]))
    archive = []
    texts = []
    textHead = 0
  }

  /// Keeps the values of an ended claimant's ring (see ``SeqlockRing/keep(type:_:_:time:)``).
  func fold(_ ring: SeqlockRing) {
    archive = newest(Self.interleaved([archive, ring.values]))
  }

  /// Keeps a string or description delivered with `stamp` at `time`, taken in from a queue.
  func remember(text value: TraceValue, stamp: Int, time: UInt64) {
    if texts.count < limit {
      texts.append((stamp, time, value))
      return
    }
    texts[textHead] = (stamp, time, value)
    textHead = textHead + 1 == limit ? 0 : textHead + 1
  }

  /// The newest `limit` values, oldest first, with those of `rings` (the rings of the live
  /// subscriptions reporting into this object).
  func ordered(with rings: [SeqlockRing] = []) -> [TraceValue] {
    newest(Self.interleaved([archive, held, sent] + rings.map(\.values))).map(\.value)
  }

  /// The values in the sender's ring.
  private var sent: [(time: UInt64, value: TraceValue)] {
    guard let ring = UnsafeRawPointer(bitPattern: streams_atomic_load_acquire(words + 4)) else {
      return []
    }
    return Unmanaged<SeqlockRing>.fromOpaque(ring).takeUnretainedValue().values
  }

  /// The shared ring's values and the strings, by stamp.
  private var held: [(time: UInt64, value: TraceValue)] {
    var all = texts
    for index in 0...mask {
      let slot = slots + index &* Self.slotWords
      let sequence = streams_atomic_load_acquire(slot)
      guard sequence != 0, sequence & 1 == 0 else { continue }
      let time = streams_atomic_load_relaxed(slot + 1)
      let type = streams_atomic_load_relaxed(slot + 2)
      let first = streams_atomic_load_relaxed(slot + 3)
      let second = streams_atomic_load_relaxed(slot + 4)
      streams_atomic_fence_acquire()
      guard streams_atomic_load_relaxed(slot) == sequence else { continue }
      all.append(
        (
          sequence >> 1, UInt64(UInt(bitPattern: time)),
          TraceValue(
            plainType: unsafeBitCast(type, to: Any.Type.self),
            words: (UInt64(UInt(bitPattern: first)), UInt64(UInt(bitPattern: second))))
        ))
    }
    all.sort { $0.stamp < $1.stamp }
    return all.map { ($0.time, $0.value) }
  }

  private func newest(_ values: [(time: UInt64, value: TraceValue)])
    -> [(time: UInt64, value: TraceValue)]
  {
    values.count > limit ? Array(values.suffix(limit)) : values
  }

  /// `sources` merged into one sequence, each source's values in their order, interleaved by
  /// time (on equal times, the earlier source first).
  static func interleaved(_ sources: [[(time: UInt64, value: TraceValue)]])
    -> [(time: UInt64, value: TraceValue)]
  {
    let nonEmpty = sources.filter { !$0.isEmpty }
    guard nonEmpty.count > 1 else { return nonEmpty.first ?? [] }
    var positions = Array(repeating: 0, count: nonEmpty.count)
    var merged: [(time: UInt64, value: TraceValue)] = []
    merged.reserveCapacity(nonEmpty.reduce(0) { $0 + $1.count })
    while true {
      var next: Int?
      for (source, values) in nonEmpty.enumerated() where positions[source] < values.count {
        if let best = next,
          nonEmpty[best][positions[best]].time <= values[positions[source]].time
        {
          continue
        }
        next = source
      }
      guard let source = next else { return merged }
      merged.append(nonEmpty[source][positions[source]])
      positions[source] += 1
    }
  }
}

/// A subscription's ring of its node's plain values (see ``NodeValues``): four words per value,
/// its time, type and two words.
extension SeqlockRing {
  /// A ring for a subscription reporting values of a node that shows `limit`.
  static func values(limit: Int) -> SeqlockRing {
    SeqlockRing(capacity: limit, width: 4)
  }

  /// Owner: keeps the plain value of `type` whose bytes are `first` and `second`, delivered at
  /// `time`.
  @inline(__always)
  func keep(type: any Any.Type, _ first: UInt64, _ second: UInt64, time: UInt64) {
    write { slot in
      streams_atomic_store_release(slot, Int(bitPattern: UInt(time)))
      streams_atomic_store_release(slot + 1, unsafeBitCast(type, to: Int.self))
      streams_atomic_store_release(slot + 2, Int(bitPattern: UInt(first)))
      streams_atomic_store_release(slot + 3, Int(bitPattern: UInt(second)))
    }
  }

  /// Reader (under the recorder's lock): the values kept, oldest first.
  var values: [(time: UInt64, value: TraceValue)] {
    var values: [(time: UInt64, value: TraceValue)] = []
    readEach(words: { slot in
      values.append(
        (
          UInt64(UInt(bitPattern: slot[0])),
          TraceValue(
            plainType: unsafeBitCast(slot[1], to: Any.Type.self),
            words: (UInt64(UInt(bitPattern: slot[2])), UInt64(UInt(bitPattern: slot[3]))))
        ))
    })
    return values
  }
}
