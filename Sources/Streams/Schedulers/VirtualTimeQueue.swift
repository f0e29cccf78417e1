/// The lock-guarded state of a ``VirtualTimeScheduler``: the clock, the queue of pending items,
/// kept sorted by (time, id) so that items due at the same tick run in scheduling order, and the
/// finished items kept for reuse.
///
/// It is not generic over the scheduler's converter, so that the scheduling path runs no generic
/// code and instantiates no generic metadata (measured: a queue generic over the converter, even
/// pre-specialized, made the `debounce-virtual` benchmark about 2.5 times slower).
struct VirtualTimeQueue {
  /// One pending item, with its sort key stored inline.
  struct Entry {
    let time: VirtualInstant
    let id: Int
    let item: any VirtualScheduledItem
  }

  /// How many finished items are kept for reuse.
  static let maxSpares = 16

  var clock: VirtualInstant
  /// How two instants of a converter of the user's compare; `nil` for the clocks whose instants
  /// are plain numbers.
  let order: VirtualInstant.Order?
  var running = false
  /// Set while ``VirtualTimeScheduler/start()`` or ``VirtualTimeScheduler/advanceTo(_:)`` runs
  /// its loop, even after `stop()` cleared `running`.
  var driving = false
  var nextID = 0
  var queue: [Entry] = []
  /// Finished items holding no state, action or result, reused by later scheduling of the same
  /// state type: scheduling then allocates nothing.
  var spares: [any VirtualScheduledItem] = []

  init(clock: VirtualInstant, order: VirtualInstant.Order?) {
    self.clock = clock
    self.order = order
  }

  /// How `lhs` compares with `rhs`.
  func compare(_ lhs: VirtualInstant, _ rhs: VirtualInstant) -> VirtualTimeComparison {
    if let order, let left = lhs.boxed, let right = rhs.boxed { return order(left, right) }
    return lhs.value < rhs.value ? .lessThan : lhs.value == rhs.value ? .equal : .greaterThan
  }

  /// A spare item of type `Item` that nothing else references, if there is one.
  ///
  /// An item is its own disposable, so a spare may still be held by whoever scheduled it; such an
  /// item is not reused (its holder may still dispose it, which must stay a no-op). Nobody can
  /// take a new reference to an item only the spares hold, so the check cannot go stale.
  mutating func takeSpare<Item: VirtualScheduledItem>(_ type: Item.Type) -> Item? {
    var index = spares.count
    while index > 0 {
      index -= 1
      guard Swift.type(of: spares[index]) == type else { continue }
      var candidate = unsafeDowncast(spares.remove(at: index), to: Item.self)
      if isKnownUniquelyReferenced(&candidate) { return candidate }
      spares.insert(candidate, at: index)
    }
    return nil
  }

  /// Ends the life of `item` for its scheduler: disposing it does nothing from now on.
  mutating func retire(_ item: any VirtualScheduledItem) {
    item.phase = .retired
  }

  /// Keeps a retired item that holds nothing for reuse, unless enough are kept already; returns
  /// it then, for the caller to release outside the lock.
  mutating func recycle(_ item: any VirtualScheduledItem) -> (any VirtualScheduledItem)? {
    if spares.count >= Self.maxSpares { return item }
    spares.append(item)
    return nil
  }

  /// Queues `item` after every item due at or before its time.
  mutating func insert(_ item: any VirtualScheduledItem) {
    let time = item.time
    item.id = nextID
    nextID += 1
    var low = 0
    var high = queue.count
    while low < high {
      let middle = (low + high) / 2
      if compare(queue[middle].time, time) == .greaterThan {
        high = middle
      } else {
        low = middle + 1
      }
    }
    queue.insert(Entry(time: time, id: item.id, item: item), at: low)
  }

  /// Takes `item` out of the queue if it is still there.
  mutating func remove(_ item: any VirtualScheduledItem) -> Entry? {
    let time = item.time
    let id = item.id
    var low = 0
    var high = queue.count
    while low < high {
      let middle = (low + high) / 2
      let entry = queue[middle]
      let order = compare(entry.time, time)
      if order == .lessThan || (order == .equal && entry.id < id) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    guard low < queue.count, queue[low].item === item else { return nil }
    return queue.remove(at: low)
  }

  /// Takes the first item if the run goes on and it is due by `limit`, moving the clock to its
  /// time and marking it running.
  mutating func takeDue(until limit: VirtualInstant?) -> (any VirtualScheduledItem)? {
    guard running, let first = queue.first else { return nil }
    if let limit, compare(first.time, limit) == .greaterThan { return nil }
    queue.removeFirst()
    if compare(first.time, clock) == .greaterThan { clock = first.time }
    first.item.phase = .running
    return first.item
  }

  /// Records what the action of `item` returned. An item whose action returned nothing to
  /// dispose is retired and kept for reuse at once (disposing its token afterwards has nothing
  /// to do either way). Returns `result` when the item was disposed while the action ran, for the
  /// caller to dispose outside the lock.
  mutating func finish(_ item: any VirtualScheduledItem, result: any Disposable) -> (
    any Disposable
  )? {
    if case .running = item.phase {
      guard Swift.type(of: result) == NopDisposable.self else {
        item.phase = .ran(result)
        return nil
      }
      retire(item)
      _ = recycle(item)
      return nil
    }
    retire(item)
    _ = recycle(item)
    return result
  }
}

/// Where a scheduled item is in its life. Read and written under the scheduler's lock.
enum VirtualScheduledPhase {
  /// In the queue.
  case pending
  /// Taken from the queue; its action is running.
  case running
  /// Its action ran and returned this disposable, which its token disposes.
  case ran(any Disposable)
  /// Disposed while its action ran: what the action returns is disposed at once.
  case disposedWhileRunning
  /// Done: its tokens are stale; it is spare or about to be released.
  case retired
}

/// One item of a ``VirtualTimeScheduler``'s queue, whatever the type of its state. It is also the
/// disposable handed out for its action.
///
/// An item is reused after it finished, but only once nothing outside the scheduler references it
/// (``VirtualTimeQueue/takeSpare(_:)``): a disposable that was handed out never starts to stand
/// for another action.
protocol VirtualScheduledItem: Disposable {
  /// The lock of the scheduler it belongs to, which guards `id` and `phase`.
  var guarded: Locked<VirtualTimeQueue> { get }
  /// The time it is due at.
  var time: VirtualInstant { get }
  /// Its place among the items due at the same tick; set when it is queued.
  var id: Int { get set }
  /// Where it is in its life.
  var phase: VirtualScheduledPhase { get set }
  /// Runs the action and lets go of it and its state. Called on the thread driving the clock,
  /// without the lock, once the item is taken from the queue: nothing else touches the action or
  /// the state then.
  func runOnce() -> any Disposable
  /// Lets go of the action and the state of an item retired before it ran; called without the
  /// lock by whoever retired it.
  func releaseAction()
}

extension VirtualScheduledItem {
  /// Before the action runs: takes it out of the queue. While it runs: what it returns is
  /// disposed as soon as it returns. After: disposes what it returned.
  func dispose() {
    let guarded = self.guarded
    let (cancelled, result) = guarded.withLock {
      s -> (VirtualTimeQueue.Entry?, (any Disposable)?) in
      switch phase {
      case .pending:
        let entry = s.remove(self)
        s.retire(self)
        return (entry, nil)
      case .running:
        phase = .disposedWhileRunning
        return (nil, nil)
      case .ran(let result):
        s.retire(self)
        _ = s.recycle(self)
        return (nil, result)
      case .disposedWhileRunning, .retired:
        return (nil, nil)
      }
    }
    result?.dispose()
    guard cancelled != nil else { return }
    // Retired while pending: this thread owns the item until it is recycled.
    releaseAction()
    let dropped = guarded.withLock { $0.recycle(self) }
    withExtendedLifetime((cancelled, dropped)) {}
  }
}
