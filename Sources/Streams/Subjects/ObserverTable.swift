/// A subject's observers in subscription order, with holes where removed ones were: one buffer
/// that the thread holding the delivery claim owns (see ``SubjectCore``).
///
/// Appending is amortized O(1); removing is O(1) through the index the subscription keeps, plus a
/// compaction, O(n), once holes outnumber observers and number more than 8 (amortized O(1)). A removed entry is handed
/// back, never released here, so that the caller can release it outside any lock.
@usableFromInline
struct ObserverTable<Element> {
  @usableFromInline typealias Entry = (
    observer: AnyObserver<Element>, subscription: SubjectSubscription
  )
  @usableFromInline typealias Entries = ContiguousArray<Entry>

  /// `count` initialized slots, `nil` for a hole; `nil` until the first append.
  @usableFromInline var base: UnsafeMutablePointer<Entry?>?
  @usableFromInline var capacity = 0
  /// Slots in use, holes included.
  @usableFromInline var count = 0
  /// Slots holding an observer.
  @usableFromInline var live = 0

  @inlinable
  init() {}

  /// Adds an observer at the end and records its slot in `subscription`.
  @inlinable
  mutating func append(_ observer: AnyObserver<Element>, _ subscription: SubjectSubscription) {
    if count == capacity { grow() }
    subscription.index = count
    (base! + count).initialize(to: (observer, subscription))
    count += 1
    live += 1
  }

  @inlinable
  mutating func grow() {
    let newCapacity = Swift.max(4, capacity * 2)
    let fresh = UnsafeMutablePointer<Entry?>.allocate(capacity: newCapacity)
    if let base {
      fresh.moveInitialize(from: base, count: count)
      base.deallocate()
    }
    base = fresh
    capacity = newCapacity
  }

  /// Takes `subscription`'s entry out, or returns `nil` when it is not in the table (it was never
  /// added, or was removed already).
  @inlinable
  mutating func remove(_ subscription: SubjectSubscription) -> Entry? {
    let index = subscription.index
    guard let base, index >= 0, index < count, base[index]?.subscription === subscription else {
      return nil
    }
    let entry = base[index].take()
    subscription.index = -1
    live -= 1
    if live == 0 {
      count = 0  // only holes are left: they hold nothing
    } else if count - live > Swift.max(8, live) {
      compact()
    }
    return entry
  }

  /// Closes the holes, keeping the order, and updates the moved subscriptions' slots.
  @inlinable
  mutating func compact() {
    guard let base else { return }
    var write = 0
    for read in 0..<count {
      guard let entry = base[read].take() else { continue }
      entry.subscription.index = write
      base[write] = entry
      write += 1
    }
    count = write
  }

  /// Takes every entry out, in order.
  @inlinable
  mutating func removeAll() -> Entries {
    var entries = Entries()
    guard let base, live > 0 else {
      count = 0
      live = 0
      return entries
    }
    entries.reserveCapacity(live)
    for index in 0..<count {
      if let entry = base[index].take() {
        entry.subscription.index = -1
        entries.append(entry)
      }
    }
    count = 0
    live = 0
    return entries
  }

  /// Frees the buffer, releasing what is left in it (the owner's deinit: no lock is held).
  @inlinable
  mutating func deallocate() {
    guard let base else { return }
    base.deinitialize(count: count)
    base.deallocate()
    self.base = nil
    capacity = 0
    count = 0
    live = 0
  }
}
