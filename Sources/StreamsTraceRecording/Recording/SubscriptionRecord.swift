import Streams
import StreamsShims

/// One traced subscription as the recorder tracks it: which node, which subscriber, which edge,
/// and the counters its deliveries bump without the recorder's lock.
///
/// `@unchecked Sendable`: the identity fields are immutable; the counters are words written with
/// atomic stores by the one thread delivering at a time (the Rx grammar makes a subscription's
/// events serial) and read with atomic loads by whoever takes the graph; the ring's word is set
/// once, with a compare-and-swap, by the delivering thread (the ring) or by the recorder when the
/// subscription ends (a mark that no ring will be made).
final class SubscriptionRecord: @unchecked Sendable {
  let id: UInt64
  /// The node subscribed to (an observable id; canonical, or provisional until merged).
  let node: UInt64
  /// The subscriber (an observable id); 0 when unknown.
  let subscriber: UInt64
  /// `.subscription` or `.control`.
  let kind: TraceGraph.EdgeKind
  /// Where the node's values go, when this subscription reports them (not for subjects, whose
  /// values are recorded where they are sent).
  let values: NodeValues?
  /// `values`, for the delivering thread to use without reference counting (`values` holds it).
  let valuesRef: Unmanaged<NodeValues>?
  /// `[events, first time, last time, values ring]`: the ring is the address of a retained
  /// ``SeqlockRing``, made when this subscription claims its node's values; 0 for none yet, and
  /// ``ended`` once the subscription ended without one.
  private let counters: UnsafeMutablePointer<Int>

  /// The ring's word of a subscription that ended without a ring (no address is 1).
  private static var ended: Int { 1 }

  init(
    id: UInt64, node: UInt64, subscriber: UInt64, kind: TraceGraph.EdgeKind,
    values: NodeValues?
  ) {
    self.id = id
    self.node = node
    self.subscriber = subscriber
    self.kind = kind
    self.values = values
    valuesRef = values.map { Unmanaged.passUnretained($0) }
    counters = .allocate(capacity: 4)
    counters.initialize(repeating: 0, count: 4)
  }

  deinit {
    // Releasing the ring runs no user code (plain words).
    if counters[3] != Self.ended, let ring = UnsafeRawPointer(bitPattern: counters[3]) {
      Unmanaged<SeqlockRing>.fromOpaque(ring).release()
    }
    counters.deallocate()
  }

  /// Counts one event at `time` (called by the delivering thread only).
  @inline(__always)
  func count(at time: UInt64) {
    // The times first, then the count with a release store: a reader that sees a count sees
    // the times that go with it.
    let events = streams_atomic_load_relaxed(counters)
    if events == 0 { streams_atomic_store_relaxed(counters + 1, Int(bitPattern: UInt(time))) }
    streams_atomic_store_relaxed(counters + 2, Int(bitPattern: UInt(time)))
    streams_atomic_store_release(counters, events &+ 1)
  }

  /// Events counted so far, and the times of the first and last.
  var events: (count: Int, first: UInt64, last: UInt64) {
    let count = streams_atomic_load_acquire(counters)
    return (
      count,
      UInt64(UInt(bitPattern: streams_atomic_load_relaxed(counters + 1))),
      UInt64(UInt(bitPattern: streams_atomic_load_relaxed(counters + 2)))
    )
  }

  /// The ring this subscription keeps its node's values in, if it is the one reporting them
  /// (called by the delivering thread only): the first subscription to deliver an element claims
  /// the node and makes its ring, so that an element shared by several subscribers (`share`) is
  /// remembered once.
  @inline(__always)
  var valueRing: Unmanaged<SeqlockRing>? {
    guard let valuesRef else { return nil }
    let bits = streams_atomic_load_relaxed(counters + 3)
    if UInt(bitPattern: bits) > UInt(Self.ended) {
      return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
    }
    guard bits == 0, valuesRef._withUnsafeGuaranteedRef({ $0.claimant }) == 0 else { return nil }
    return claimValues()
  }

  /// Claims the node's values, if no other subscription has since and this one has not ended,
  /// with a new ring (internal for tests).
  @inline(never)
  func claimValues() -> Unmanaged<SeqlockRing>? {
    guard let values, values.claim(by: id) else { return nil }
    let ring = Unmanaged.passRetained(SeqlockRing.values(limit: values.limit))
    guard streams_atomic_compare_exchange(counters + 3, 0, Int(bitPattern: ring.toOpaque()))
    else {
      ring.release()
      // Ended meanwhile (``endClaim()`` ran first): give the node back; this delivery's value is
      // not kept. (Otherwise another delivery to this subscription made its ring at once, which
      // breaks the Rx grammar; that ring keeps the claim.)
      if streams_atomic_load_acquire(counters + 3) == Self.ended { values.release(by: id) }
      return nil
    }
    return ring
  }

  /// The subscription has ended (under the recorder's lock): its ring, if it made one; else
  /// marks that it makes none, so that a delivery still under way on another thread cannot claim
  /// the node for a subscription nobody will release.
  func endClaim() -> SeqlockRing? {
    if streams_atomic_compare_exchange(counters + 3, 0, Self.ended) { return nil }
    return claimedRing
  }

  /// The ring, if this subscription has claimed its node's values (for the reader, under the
  /// recorder's lock).
  var claimedRing: SeqlockRing? {
    let bits = streams_atomic_load_acquire(counters + 3)
    guard UInt(bitPattern: bits) > UInt(Self.ended), let ring = UnsafeRawPointer(bitPattern: bits)
    else { return nil }
    return Unmanaged<SeqlockRing>.fromOpaque(ring).takeUnretainedValue()
  }
}

/// A delivery kept in the ring (plain data: its element, when plain, is kept as its type and
/// bytes; a string or description is beside it).
struct RingEntry {
  var id: UInt64
  /// The sender or the delivering node; 0 for a send made outside any delivery, which reads as
  /// from the subject itself.
  var from: UInt64
  var to: UInt64
  /// 0 for none.
  var cause: UInt64
  var time: UInt64
  var thread: UInt32
  var event: TraceGraph.EventKind
  var hop: ThreadContext.Via
  /// The plain element's type (as a word; 0 for none) and bytes.
  var valueType: Int
  var first: UInt64
  var second: UInt64
}

/// An object held weakly, to tell whether an owner is gone.
///
/// `@unchecked Sendable`: its one field is an immutable weak reference, and loading a weak
/// reference is atomic.
final class WeakOwner: @unchecked Sendable {
  weak let object: AnyObject?

  init(_ object: AnyObject) {
    self.object = object
  }
}
