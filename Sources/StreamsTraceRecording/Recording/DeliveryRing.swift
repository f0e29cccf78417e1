import Streams
import StreamsShims

/// The ring of recent deliveries: the last `capacity` sends (and timeline deliveries) taken in,
/// in plain memory.
///
/// `@unchecked Sendable`: it is only touched under the recorder's lock.
final class DeliveryRing: @unchecked Sendable {
  let capacity: Int
  private let entries: UnsafeMutablePointer<RingEntry>
  /// How many entries are kept (up to `capacity`).
  @exclusivity(unchecked) private(set) var count = 0
  /// Where the next entry goes once the ring is full.
  @exclusivity(unchecked) private var head = 0

  init(capacity: Int) {
    self.capacity = capacity
    entries = .allocate(capacity: capacity)
  }

  deinit {
    entries.deallocate()
  }

  /// The positions of the entries kept.
  var positions: Range<Int> { 0..<count }

  subscript(position: Int) -> RingEntry { entries[position] }

  /// Forgets every entry (they are plain data).
  func removeAll() {
    count = 0
    head = 0
  }

  /// Keeps `entry` in place of the oldest one once the ring is full; returns its position.
  @inline(__always)
  func append(_ entry: RingEntry) -> Int {
    if count < capacity {
      (entries + count).initialize(to: entry)
      count += 1
      return count - 1
    }
    let position = head
    entries[position] = entry
    head = position + 1 == capacity ? 0 : position + 1
    return position
  }
}
