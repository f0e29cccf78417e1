/// A registration made with ``StateCell/onChange(_:)``: cancelling it stops the action.
///
/// ```swift
/// let observation = state.isLoading.onChange { print($0) }
/// observation.cancel()
/// ```
///
/// Dropping the observation does not cancel it: the action runs until ``cancel()`` or until the
/// cell is deinitialized.
@MainActor
public final class StateObservation {
  /// Where the registration sits in its list; moved when the list compacts.
  fileprivate var slot: Int
  fileprivate weak var list: (any StateObservationList)?

  fileprivate init(slot: Int, list: any StateObservationList) {
    self.slot = slot
    self.list = list
  }

  /// `true` once cancelled, or once the cell is gone.
  public var isCancelled: Bool { list == nil }

  /// Stops the registration; its actions are released at once. Calling it again does nothing.
  public func cancel() {
    guard let list else { return }
    self.list = nil
    list.remove(slot: slot)
  }
}

@MainActor
private protocol StateObservationList: AnyObject {
  func remove(slot: Int)
}

/// The observers of one ``StateCell``, in registration order.
///
/// Adding and cancelling are O(1): a registration knows its slot, cancelling leaves a hole, and
/// holes are compacted away once they outnumber the live registrations (and number more than 8),
/// never during a delivery. A delivery reaches the registrations present when it starts that are
/// still registered when their turn comes.
///
/// The end actions run when the list is deinitialized, which happens when its cell is, on the
/// thread that releases the cell.
@MainActor
@usableFromInline
final class StateObservers<Value>: StateObservationList {
  /// A registration's token and end action; its change action sits at the same index of
  /// ``actions``.
  private struct Entry {
    let token: StateObservation
    let onEnd: (@Sendable () -> Void)?
  }

  private var entries: [Entry?] = []
  /// The change actions, apart from the entries so that a delivery copies one reference each.
  ///
  /// This and the counters below are `@exclusivity(unchecked)`, as the cell's state: main-actor
  /// only, and no access spans a call out (`deliver` reads one action at a time).
  @usableFromInline @exclusivity(unchecked) var actions: [(@MainActor (Value) -> Void)?] = []
  @usableFromInline @exclusivity(unchecked) var holes = 0
  @usableFromInline @exclusivity(unchecked) var deliveries = 0

  nonisolated init() {}

  deinit {
    for entry in entries {
      entry?.onEnd?()
    }
  }

  /// The number of live registrations.
  var count: Int { entries.count - holes }

  func add(
    onChange: (@MainActor (Value) -> Void)?, onEnd: (@Sendable () -> Void)?
  ) -> StateObservation {
    let token = StateObservation(slot: entries.count, list: self)
    entries.append(Entry(token: token, onEnd: onEnd))
    actions.append(onChange)
    return token
  }

  func remove(slot: Int) {
    // Released after the list is consistent again: an action's captures may run user code.
    let removedEntry = entries[slot]
    let removedAction = actions[slot]
    entries[slot] = nil
    actions[slot] = nil
    holes += 1
    compactIfSparse()
    _ = consume removedEntry
    _ = consume removedAction
  }

  /// Calls the change actions of the first `upTo` registrations with `value` (inlinable, to be
  /// specialized with the cell's write path). Called between ``beginDeliveries()`` and
  /// ``endDeliveries()``, which keep the slots in place meanwhile.
  @inlinable
  func deliver(_ value: Value, upTo: Int) {
    let present = Swift.min(upTo, actions.count)
    var index = 0
    while index < present {
      if let action = actions[index] { action(value) }
      index += 1
    }
  }

  /// Starts a round of deliveries: no compaction until it ends, so slots and counts stay valid.
  @inlinable
  func beginDeliveries() { deliveries += 1 }

  /// Ends a round of deliveries, and compacts the holes cancellations made during it.
  @inlinable
  func endDeliveries() {
    deliveries -= 1
    if holes > 8 { compactIfSparse() }
  }

  @usableFromInline
  func compactIfSparse() {
    guard deliveries == 0, holes > 8, holes > count else { return }
    var liveEntries: [Entry?] = []
    var liveActions: [(@MainActor (Value) -> Void)?] = []
    liveEntries.reserveCapacity(count)
    liveActions.reserveCapacity(count)
    for (entry, action) in zip(entries, actions) {
      guard let entry else { continue }
      entry.token.slot = liveEntries.count
      liveEntries.append(entry)
      liveActions.append(action)
    }
    entries = liveEntries
    actions = liveActions
    holes = 0
  }
}
