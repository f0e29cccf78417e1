@_spi(StreamsInternal) import Streams
import StreamsShims

/// A node's recent values: plain values written by the delivering thread itself, without the
/// recorder's lock or queue; strings and descriptions taken in from the threads' queues under the
/// lock. Every value gets a stamp from the node's counter when it is delivered, and the graph
/// lists the newest `limit` by stamp.
///
/// Plain values (``TraceValue/plain``: a type and two words) go to a ring of slots, each guarded
/// by a sequence word (a sequence lock whose every access is atomic, so ThreadSanitizer sees no
/// race): a writer takes a stamp with a fetch-add, claims the stamp's slot with a
/// compare-and-swap of its sequence word to the odd `stamp << 1 | 1`, stores the words with
/// release stores, and publishes the even `stamp << 1`. Two writers (a subscription disposed on
/// one thread while another subscription claims the node, or the reporters of a merged node and
/// of its canonical node) never write one slot at once: the second finds it claimed or newer and
/// drops its value. The reader (under the recorder's lock) keeps a slot only when its sequence
/// word reads the same even value before and after the words.
///
/// A node merged into another forwards to it (``forward(to:)``): writers follow the forwarding
/// with atomic loads, so a merged node's values show on its canonical node. Each values object
/// holds the one it forwards to, and a subscription's record holds its node's, so whatever a
/// writer reaches is alive while it delivers.
///
/// `@unchecked Sendable`: the slots and the counters are only touched through atomic operations;
/// `texts`, `textHead` and `forwarded` are guarded by the recorder's lock.
final class NodeValues: @unchecked Sendable {
  /// How many values the graph shows.
  let limit: Int
  /// `capacity` slots of 4 words: sequence (0 when empty), type, and the value's two words.
  private let slots: UnsafeMutablePointer<Int>
  /// `capacity - 1`; the capacity is `limit` rounded up to a power of two.
  private let mask: Int
  /// The last stamp handed out (index 0), the subscription reporting the node's values (index
  /// 1), and the values object this one forwards to (index 2, its address; 0 for none).
  private let words: UnsafeMutablePointer<Int>
  /// Strings and descriptions, with their stamps: at most `limit`, the oldest at `textHead` once
  /// full.
  @exclusivity(unchecked) private var texts: [(stamp: Int, value: TraceValue)] = []
  @exclusivity(unchecked) private var textHead = 0
  /// What `words[2]` points to, held strongly.
  @exclusivity(unchecked) private(set) var forwarded: NodeValues?

  init(limit: Int) {
    precondition(limit > 0, "StreamsTrace internal error: a values ring of no values")
    self.limit = limit
    var capacity = 1
    while capacity < limit { capacity <<= 1 }
    mask = capacity - 1
    slots = .allocate(capacity: 4 * capacity)
    slots.initialize(repeating: 0, count: 4 * capacity)
    words = .allocate(capacity: 3)
    words.initialize(repeating: 0, count: 3)
  }

  deinit {
    slots.deallocate()
    words.deallocate()
  }

  // MARK: Delivering thread

  /// Where values go now: this object, or the one it was merged into (atomic loads; the chain is
  /// held by `self`).
  @inline(__always)
  var current: Unmanaged<NodeValues> {
    var values = Unmanaged.passUnretained(self)
    while true {
      let bits = values._withUnsafeGuaranteedRef { streams_atomic_load_acquire($0.words + 2) }
      guard let next = UnsafeRawPointer(bitPattern: bits) else { return values }
      values = Unmanaged.fromOpaque(next)
    }
  }

  /// A new stamp: the order of a value among this node's.
  @inline(__always)
  func nextStamp() -> Int {
    streams_atomic_fetch_add(words, 1) &+ 1
  }

  /// Keeps `value` if it is plain, and returns `true`; returns `false` for a string or a
  /// description, which the caller queues with a stamp from ``nextStamp()``.
  @inline(__always)
  func write(_ value: TraceValue) -> Bool {
    guard let plain = value.plain else { return false }
    write(
      type: unsafeBitCast(plain.type, to: Int.self),
      Int(bitPattern: UInt(plain.words.0)), Int(bitPattern: UInt(plain.words.1)))
    return true
  }

  /// Keeps the plain value of `type` whose bytes are `first` and `second`.
  @inline(__always)
  func write(type: any Any.Type, _ first: UInt64, _ second: UInt64) {
    write(
      type: unsafeBitCast(type, to: Int.self), Int(bitPattern: UInt(first)),
      Int(bitPattern: UInt(second)))
  }

  @inline(__always)
  private func write(type: Int, _ first: Int, _ second: Int) {
    let stamp = nextStamp()
    let slot = slots + ((stamp & mask) << 2)
    let sequence = streams_atomic_load_relaxed(slot)
    // Being written by another writer, or holding a newer value: this one is dropped.
    guard sequence & 1 == 0, sequence >> 1 < stamp,
      streams_atomic_compare_exchange(slot, sequence, stamp << 1 | 1)
    else { return }
    streams_atomic_store_release(slot + 1, type)
    streams_atomic_store_release(slot + 2, first)
    streams_atomic_store_release(slot + 3, second)
    streams_atomic_store_release(slot, stamp << 1)
  }

  /// Whether this subscription is the one reporting the node's values: the first subscription
  /// to deliver an element claims the node, so that an element shared by several subscribers
  /// (`share`) is remembered once.
  @inline(__always)
  func claim(by subscription: UInt64) -> Bool {
    let current = streams_atomic_load_relaxed(words + 1)
    if current == Int(truncatingIfNeeded: subscription) { return true }
    return current == 0
      && streams_atomic_compare_exchange(words + 1, 0, Int(truncatingIfNeeded: subscription))
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
  /// moves the values it holds there, after `other`'s.
  func forward(to other: NodeValues) {
    guard forwarded == nil, other !== self else { return }
    forwarded = other
    streams_atomic_store_release(
      words + 2, Int(bitPattern: Unmanaged.passUnretained(other).toOpaque()))
    for value in ordered { other.append(value) }
  }

  /// Keeps `value` after every value kept so far.
  func append(_ value: TraceValue) {
    if !write(value) { remember(text: value, stamp: nextStamp()) }
  }

  /// Keeps a string or description delivered with `stamp`, taken in from a queue.
  func remember(text value: TraceValue, stamp: Int) {
    if texts.count < limit {
      texts.append((stamp, value))
      return
    }
    texts[textHead] = (stamp, value)
    textHead = textHead + 1 == limit ? 0 : textHead + 1
  }

  /// The newest `limit` values, oldest first.
  var ordered: [TraceValue] {
    var all = texts
    for index in 0...mask {
      let slot = slots + (index << 2)
      let sequence = streams_atomic_load_acquire(slot)
      guard sequence != 0, sequence & 1 == 0 else { continue }
      let type = streams_atomic_load_relaxed(slot + 1)
      let first = streams_atomic_load_relaxed(slot + 2)
      let second = streams_atomic_load_relaxed(slot + 3)
      streams_atomic_fence_acquire()
      guard streams_atomic_load_relaxed(slot) == sequence else { continue }
      all.append(
        (
          sequence >> 1,
          TraceValue(
            plainType: unsafeBitCast(type, to: Any.Type.self),
            words: (UInt64(UInt(bitPattern: first)), UInt64(UInt(bitPattern: second))))
        ))
    }
    all.sort { $0.stamp < $1.stamp }
    return all.suffix(limit).map(\.value)
  }
}
