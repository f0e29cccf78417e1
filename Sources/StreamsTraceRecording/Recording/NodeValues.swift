import Streams
import StreamsShims

/// A node's recent values: plain values written by the delivering thread itself, without the
/// recorder's lock or queue; strings and descriptions taken in from the threads' queues under the
/// lock. The graph lists the newest `limit`.
///
/// Where a plain value (``TraceValue/plain``: a type and two words) goes depends on who writes it:
///
/// - **An operator's subscription** (one writer, as its deliveries are serial by the Rx
///   grammar) writes into a ring of its own (a ``SeqlockRing``, made when it claims the node,
///   held by its record), with no read-modify-write. Only the first subscription to deliver claims
///   the node, so that an element shared by several subscribers (`share`) is remembered once.
///   When the claimant ends, its values are folded into this object's (``fold(_:)``, under the
///   lock) and the next subscription to deliver claims the node with a ring of its own. A value
///   delivered while its subscription is being disposed on another thread may be written after
///   the fold, and is then not kept; so may a value another subscription delivers meanwhile,
///   which finds the node still claimed.
/// - **A send into a subject**: the first thread to send into it owns a ring of its own (the
///   sender's ring, one writer: that thread, for the object's life), with no read-modify-write
///   after the claim. Other threads (several may send into one subject at once) write into this
///   object's shared ring of slots, each guarded by a sequence word (a sequence lock whose every
///   access is atomic): a writer takes a stamp with a fetch-add, claims the stamp's slot with a
///   compare-and-swap of its sequence word to the odd `stamp << 1 | 1`, stores the words with
///   release stores, and publishes the even `stamp << 1`. Two writers never write one slot at
///   once: the second finds it claimed or newer and drops its value. The reader (under the
///   recorder's lock) keeps a slot only when its sequence word reads the same even value before
///   and after the words.
///
/// Each value carries an order key. A subject's is the send's delivery id, taken from the
/// process-wide counter when the send began, so a subject's values are listed in the order the
/// sends began, whichever thread made them. An operator's is the time of the outermost delivery
/// under way on the delivering thread when it delivered (``ThreadContext``: the coarse clock, or
/// the precise one in timeline mode). The graph lists each source's values in the order they were
/// written (the shared ring and the strings by key, then stamp; a ring by position) and
/// interleaves the sources by key, the earlier source first on equal keys (the folded values, then the strings
/// and the shared ring, then the sender's ring, then the live subscriptions' rings by
/// subscription). So values of one operator node from different subscriptions (the nodes of a
/// pipeline rebuilt at one call site, merged into one; a claimant and the one after it) are
/// ordered by when the event that caused them began, at the clock's tick (an operator's strings
/// and its plain values written within one outermost delivery have equal keys: the strings are
/// listed first).
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
  /// A value with its order key.
  typealias Keyed = (key: UInt64, value: TraceValue)

  /// How many values the graph shows.
  let limit: Int
  /// `capacity` slots of 5 words: sequence (0 when empty), key, type, and the value's two words.
  private let slots: UnsafeMutablePointer<Int>
  /// `capacity - 1`; the capacity is `limit` rounded up to a power of two.
  private let mask: Int
  /// The last stamp handed out (index 0), the subscription reporting the node's values (index
  /// 1), the values object this one forwards to (index 2, its address; 0 for none), the thread
  /// owning the sender's ring (index 3, its number + 1; 0 for none), and that ring (index 4, the
  /// address of a retained ``SeqlockRing``; 0 until made).
  private let words: UnsafeMutablePointer<Int>
  /// Strings and descriptions, with their stamps and keys: the newest `limit` by key, then
  /// stamp (they arrive in the order the threads' queues are drained, not in that order).
  @exclusivity(unchecked) private var texts: [(stamp: Int, key: UInt64, value: TraceValue)] = []
  /// Values of ended claimants and of nodes merged into this one, oldest first (at most
  /// `limit`).
  @exclusivity(unchecked) private var archive: [Keyed] = []
  /// What `words[2]` points to, held strongly.
  @exclusivity(unchecked) private(set) var forwarded: NodeValues?

  /// Words per slot of the shared ring.
  private static var slotWords: Int { 5 }

  init(limit: Int) {
    if limit <= 0 { fatalError("StreamsTrace internal error: a values ring of no values") }
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

  /// Keeps `value`, sent with the order key `key` by the thread numbered `thread`, if it is
  /// plain, and returns `true`; returns `false` for a string or a description, which the caller
  /// queues with a stamp from ``nextStamp()``.
  @inline(__always)
  func write(_ value: TraceValue, key: UInt64, thread: UInt32) -> Bool {
    guard let plain = value.plain else { return false }
    write(type: plain.type, plain.words.0, plain.words.1, key: key, thread: thread)
    return true
  }

  /// Keeps the plain value of `type` whose bytes are `first` and `second`, sent with the order
  /// key `key` by the thread numbered `thread`: in the sender's ring if that thread owns it (or
  /// claims it now), else in the shared ring.
  @inline(__always)
  func write(type: any Any.Type, _ first: UInt64, _ second: UInt64, key: UInt64, thread: UInt32) {
    let owner = streams_atomic_load_relaxed(words + 3)
    if owner == Int(thread) &+ 1 || (owner == 0 && claimSenderRing(by: thread)) {
      // Published by this thread (below), so its own relaxed load sees it.
      let ring = UnsafeRawPointer(bitPattern: streams_atomic_load_relaxed(words + 4))
      return Unmanaged<SeqlockRing>.fromOpaque(ring.unsafelyUnwrapped)._withUnsafeGuaranteedRef {
        $0.keep(type: type, first, second, key: key)
      }
    }
    writeShared(type: type, first, second, key: key)
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
  private func writeShared(type: any Any.Type, _ first: UInt64, _ second: UInt64, key: UInt64) {
    let stamp = nextStamp()
    let slot = slots + (stamp & mask) &* Self.slotWords
    let sequence = streams_atomic_load_relaxed(slot)
    // Being written by another writer, or holding a newer value: this one is dropped.
    guard sequence & 1 == 0, sequence >> 1 < stamp,
      streams_atomic_compare_exchange(slot, sequence, stamp << 1 | 1)
    else { return }
    streams_atomic_store_release(slot + 1, Int(bitPattern: UInt(key)))
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
    other.archive = Self.newest(other.limit, of: [other.archive, held, sent])
    archive = []
    texts = []
  }

  /// Keeps the values of an ended claimant's ring (see ``SeqlockRing/keep(type:_:_:key:)``).
  func fold(_ ring: SeqlockRing) {
    archive = Self.newest(limit, of: [archive, ring.values])
  }

  /// Keeps a string or description delivered with `stamp` and the order key `key`, taken in
  /// from a queue, in place of the oldest once `limit` are kept (or drops it if it is older).
  func remember(text value: TraceValue, stamp: Int, key: UInt64) {
    if texts.count < limit {
      texts.append((stamp, key, value))
      return
    }
    var oldest = 0
    for index in texts.indices.dropFirst()
    where (texts[index].key, texts[index].stamp) < (texts[oldest].key, texts[oldest].stamp) {
      oldest = index
    }
    guard (key, stamp) > (texts[oldest].key, texts[oldest].stamp) else { return }
    texts[oldest] = (stamp, key, value)
  }

  /// The newest `limit` values, oldest first, with those of `rings` (the rings of the live
  /// subscriptions reporting into this object, in the order of their subscriptions).
  func ordered(with rings: [SeqlockRing] = []) -> [TraceValue] {
    Self.newest(limit, of: [archive, held, sent] + rings.map(\.values)).map(\.value)
  }

  /// The shared ring's values and the strings, by key, then stamp: a subject's keys are its
  /// sends' ids, and a value's stamp is taken after its key (a description, made in between, can
  /// take long), so the stamps alone could put concurrent sends out of order.
  private var held: [Keyed] {
    var all = texts
    for index in 0...mask {
      let slot = slots + index &* Self.slotWords
      let sequence = streams_atomic_load_acquire(slot)
      guard sequence != 0, sequence & 1 == 0 else { continue }
      let key = streams_atomic_load_relaxed(slot + 1)
      let type = streams_atomic_load_relaxed(slot + 2)
      let first = streams_atomic_load_relaxed(slot + 3)
      let second = streams_atomic_load_relaxed(slot + 4)
      streams_atomic_fence_acquire()
      guard streams_atomic_load_relaxed(slot) == sequence else { continue }
      all.append(
        (
          sequence >> 1, UInt64(UInt(bitPattern: key)),
          TraceValue(
            plainType: unsafeBitCast(type, to: Any.Type.self),
            words: (UInt64(UInt(bitPattern: first)), UInt64(UInt(bitPattern: second))))
        ))
    }
    all.sort { ($0.key, $0.stamp) < ($1.key, $1.stamp) }
    return all.map { ($0.key, $0.value) }
  }

  /// The values in the sender's ring.
  private var sent: [Keyed] {
    guard let ring = UnsafeRawPointer(bitPattern: streams_atomic_load_acquire(words + 4)) else {
      return []
    }
    return Unmanaged<SeqlockRing>.fromOpaque(ring).takeUnretainedValue().values
  }

  /// The newest `limit` values of `sources` merged into one sequence, oldest first: each
  /// source's values in their order, the sources interleaved by key (on equal keys, the earlier
  /// source first). Takes them newest first from the sources' ends, choosing among the sources
  /// with a heap: O(`sources.count` + `limit` × log `sources.count`) once the sources are read
  /// (each a ring's or list's worth), however many sources (the live subscriptions of a pipeline
  /// rebuilt many times hold one each).
  static func newest(_ limit: Int, of sources: [[Keyed]]) -> [Keyed] {
    let sources = sources.filter { !$0.isEmpty }
    if sources.count == 1 { return Array(sources[0].suffix(limit)) }
    // The next value to take from each source (its index), counting down.
    var next = sources.map { $0.count - 1 }
    // Comes later in the merged sequence: a larger key, or an equal key in a later source.
    func later(_ a: Int, _ b: Int) -> Bool {
      let (first, second) = (sources[a][next[a]].key, sources[b][next[b]].key)
      return first != second ? first > second : a > b
    }
    // A binary max-heap of source indices, by what each would give next.
    var heap = Array(sources.indices)
    func siftDown(_ start: Int) {
      var parent = start
      while true {
        let left = 2 * parent + 1
        guard left < heap.count else { return }
        var child = left
        if left + 1 < heap.count, later(heap[left + 1], heap[left]) { child = left + 1 }
        guard later(heap[child], heap[parent]) else { return }
        heap.swapAt(child, parent)
        parent = child
      }
    }
    for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    var taken: [Keyed] = []
    taken.reserveCapacity(limit)
    while taken.count < limit, let source = heap.first {
      taken.append(sources[source][next[source]])
      next[source] -= 1
      if next[source] < 0 {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
      }
      siftDown(0)
    }
    return taken.reversed()
  }
}

/// A ring of a node's plain values with one writer (see ``NodeValues``): a subscription's, or the
/// sender's ring of a subject. Four words per value: its order key, type and two words.
extension SeqlockRing {
  /// A ring for the values of a node that shows `limit`.
  static func values(limit: Int) -> SeqlockRing {
    SeqlockRing(capacity: limit, width: 4)
  }

  /// Owner: keeps the plain value of `type` whose bytes are `first` and `second`, with the order
  /// key `key`.
  @inline(__always)
  func keep(type: any Any.Type, _ first: UInt64, _ second: UInt64, key: UInt64) {
    write { slot in
      streams_atomic_store_release(slot, Int(bitPattern: UInt(key)))
      streams_atomic_store_release(slot + 1, unsafeBitCast(type, to: Int.self))
      streams_atomic_store_release(slot + 2, Int(bitPattern: UInt(first)))
      streams_atomic_store_release(slot + 3, Int(bitPattern: UInt(second)))
    }
  }

  /// Reader (under the recorder's lock): the values kept, oldest first.
  var values: [NodeValues.Keyed] {
    var values: [NodeValues.Keyed] = []
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
