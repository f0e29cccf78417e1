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
final class StateObservers<Value>: StateObservationList {
  private struct Entry {
    let token: StateObservation
    let onChange: (@MainActor (Value) -> Void)?
    let onEnd: (@Sendable () -> Void)?
  }

  private var entries: [Entry?] = []
  private var holes = 0
  private var deliveries = 0

  init() {}

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
    entries.append(Entry(token: token, onChange: onChange, onEnd: onEnd))
    return token
  }

  func remove(slot: Int) {
    let removed = entries[slot]
    entries[slot] = nil
    holes += 1
    compactIfSparse()
    _ = consume removed
  }

  /// Calls the after-change actions with `value`.
  func deliver(_ value: Value) {
    deliveries += 1
    defer {
      deliveries -= 1
      compactIfSparse()
    }
    let present = entries.count
    var index = 0
    while index < present {
      if let onChange = entries[index]?.onChange { onChange(value) }
      index += 1
    }
  }

  private func compactIfSparse() {
    guard deliveries == 0, holes > 8, holes > count else { return }
    var live: [Entry?] = []
    live.reserveCapacity(count)
    for case let entry? in entries {
      entry.token.slot = live.count
      live.append(entry)
    }
    entries = live
    holes = 0
  }
}
