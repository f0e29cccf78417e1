import Observation

/// The state of one content block of a screen: a value that SwiftUI views observe and that the
/// rest of the app writes on the main actor.
///
/// A screen's state container holds one cell per content block, as `let` properties:
///
/// ```swift
/// struct ContentAlpha: Equatable {
///   var title = ""
///   var alpha = 1.0
/// }
///
/// @MainActor
/// final class UIState {
///   let contentAlpha = StateCell(ContentAlpha())
///   let isLoading = StateCell(false)
/// }
/// ```
///
/// Each cell notifies only the views and observers that read it, so a view of one block is not
/// invalidated when another block changes; and because the container's properties are `let`, a
/// view can never be left holding a cell that the container has replaced.
///
/// A cell is observable in four ways:
/// - through Observation (`Observation.Observable`, on iOS 17, macOS 14, tvOS 17, watchOS 10 and
///   later, and on Linux): reading ``value`` inside a SwiftUI `body` or `withObservationTracking`
///   registers the read, and a write notifies before the change, as `@Observable` does;
/// - through `ObservableObject` where Combine exists: `objectWillChange` sends before the change
///   (for SwiftUI on iOS 15 and 16);
/// - through ``onChange(_:)``, whose action runs after the new value is stored;
/// - as an `AsyncSequence`, ``values``: the current value first, then every stored value.
///
/// A write that does not change an `Equatable` value notifies nobody. Several changes made in one
/// ``update(_:)`` notify once.
///
/// Writes happen on the main actor. Code running elsewhere (an Rx pipeline on a background queue)
/// goes through a binding, such as Streams' `bind(to:)`, which writes synchronously when it runs
/// on the main queue and otherwise hops there once.
///
/// A cell depends on nothing but Observation: files that declare state and the views that read it
/// import only `StreamsState`, and keep compiling once the Rx code that feeds them is gone.
@MainActor
public final class StateCell<Value> {
  // The stored `var`s below are `@exclusivity(unchecked)`: every access is on the main actor and
  // none spans a call out (`update` mutates a copy), so the dynamic exclusivity check, a third
  // of a write's cost, has nothing to find.
  //
  // `storage`, `isEqual` and `registrarBox` are `nonisolated(unsafe)` only so that the
  // nonisolated initializers can set them, before the cell is shared; after that only the cell's
  // main-actor members touch them.
  @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var storage: Value
  /// Tells whether two values are equal; set by the `Equatable` initializer only.
  @usableFromInline nonisolated(unsafe) let isEqual: ((Value, Value) -> Bool)?
  /// The Observation registrar and the key path of ``value``, boxed because
  /// `ObservationRegistrar` is unavailable below iOS 17 / macOS 14 and a stored property cannot be
  /// marked available; `nil` on systems without Observation.
  @usableFromInline nonisolated(unsafe) let registrarBox: AnyObject?
  /// Observers of changes and of the cell's end, in registration order. Only the cell holds
  /// them: when the cell is deinitialized, so are they, and they run their end actions.
  @usableFromInline let observers = StateObservers<Value>()
  /// Set while the will-change observers run; a write then would recurse.
  @usableFromInline @exclusivity(unchecked) var isNotifyingWillChange = false
  /// Values stored while the after-change observers were running, delivered once they return.
  /// Values stored while the after-change observers were running, each with the number of
  /// registrations at that moment (later ones did not exist yet when the value was stored).
  @usableFromInline @exclusivity(unchecked) var pendingDeliveries: [(value: Value, upTo: Int)] =
    []
  /// Set while an ``update(_:)`` body runs; a write of the cell then would be lost.
  @usableFromInline @exclusivity(unchecked) var isUpdating = false
  @usableFromInline @exclusivity(unchecked) var isDelivering = false
  #if canImport(Combine) || STREAMS_OPENCOMBINE
    /// The `objectWillChange` publisher, made on first use (see `StateCell+ObservableObject`).
    @usableFromInline var willChangePublisher: AnyObject?
  #endif

  /// Where the cell was created, for precondition messages.
  @usableFromInline let file: StaticString
  @usableFromInline let line: UInt

  /// A cell holding `initial`. Every write notifies, since values cannot be compared; a cell of
  /// an `Equatable` value uses the other initializer, which skips writes of an equal value.
  ///
  /// Nonisolated, as both initializers are: a cell can be made anywhere, so that a main-actor
  /// state type can hold it as `nonisolated let` for code on other actors to bind to (reading and
  /// writing ``value`` stay main-actor).
  nonisolated public init(
    _ initial: sending Value, file: StaticString = #fileID, line: UInt = #line
  ) {
    self.storage = initial
    self.isEqual = nil
    self.file = file
    self.line = line
    self.registrarBox = Self.makeRegistrarBox()
  }

  /// A cell holding `initial`, where a write of a value equal to the stored one notifies nobody
  /// (as a property of an `@Observable` type).
  nonisolated public init(
    _ initial: sending Value, file: StaticString = #fileID, line: UInt = #line
  )
  where Value: Equatable {
    self.storage = initial
    self.isEqual = { $0 == $1 }
    self.file = file
    self.line = line
    self.registrarBox = Self.makeRegistrarBox()
  }

  /// The current value. Reading it inside a SwiftUI `body` or `withObservationTracking` makes the
  /// reader observe this cell; writing it stores the value and notifies (see the type's summary).
  ///
  /// A write from inside a will-change observer (an `onChange` of `withObservationTracking`, an
  /// `objectWillChange` subscriber) stops the program: the write would notify that observer again,
  /// without end. A write from inside an after-change observer (``onChange(_:)``, ``values``, an
  /// Rx subscriber) is stored at once and its notification waits until every observer has seen
  /// the current one, so each observer's last seen value is the stored value.
  //
  // The read and write paths are inlinable so that they are specialized for the value's type in
  // the caller's module (a binding writes through them once per element).
  @inlinable
  public var value: Value {
    get {
      if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) { access() }
      return storage
    }
    set { write(newValue) }
  }

  /// Changes the value in place, notifying once for all the changes `body` makes, and not at all
  /// if the result equals the stored value (for an `Equatable` value).
  ///
  /// ```swift
  /// state.contentAlpha.update { block in
  ///   block.title = "Today"
  ///   block.alpha = 0.5
  /// }
  /// ```
  ///
  /// Writing the cell itself inside `body` stops the program: the write would be replaced by the
  /// result of `body` and lost.
  @inlinable
  public func update<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    var copy = storage
    isUpdating = true
    let result: Result
    do {
      result = try body(&copy)
    } catch {
      isUpdating = false
      throw error
    }
    isUpdating = false
    write(copy)
    return result
  }

  /// The current value, without registering an Observation read: for the modules that connect
  /// cells to other systems, so that subscribing inside a view's `body` does not make the view
  /// depend on the cell.
  package var untrackedValue: Value { storage }

  /// Runs `action` with each new value after it is stored, on the main actor, until the returned
  /// observation is cancelled or the cell is deinitialized. `action` is not called with the
  /// current value.
  ///
  /// ```swift
  /// let observation = state.isLoading.onChange { isLoading in
  ///   print("loading:", isLoading)
  /// }
  /// ```
  ///
  /// The cell holds `action` strongly: capture owners of the cell weakly.
  @discardableResult
  public func onChange(_ action: @escaping @MainActor (Value) -> Void) -> StateObservation {
    observers.add(onChange: action, onEnd: nil)
  }

  /// Registers an after-change action and an action that runs when the cell is deinitialized (on
  /// the thread that releases it), for the modules that connect cells to other systems.
  package func observe(
    onChange: (@MainActor (Value) -> Void)?, onEnd: (@Sendable () -> Void)?
  ) -> StateObservation {
    observers.add(onChange: onChange, onEnd: onEnd)
  }

  @inlinable
  func write(_ newValue: Value) {
    if let isEqual, isEqual(storage, newValue) { return }
    if isNotifyingWillChange { writtenDuringWillChange() }
    if isUpdating { writtenDuringUpdate() }
    isNotifyingWillChange = true
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) { willSet() }
    sendObjectWillChange()
    isNotifyingWillChange = false
    let old = storage
    storage = newValue
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) { didSet() }
    deliver(newValue)
    _ = consume old
  }

  /// Stops the program: a will-change observer wrote the cell.
  @usableFromInline
  func writtenDuringWillChange() -> Never {
    fatalError(
      "StreamsState: the StateCell<\(Value.self)> created at \(file):\(line) was written from "
        + "inside one of its will-change observers (withObservationTracking's onChange, "
        + "objectWillChange); that write would notify the same observer again without end. "
        + "Write after the change instead: from onChange(_:), values, or the next main-actor turn.")
  }

  /// Stops the program: the cell was written inside an `update` body.
  @usableFromInline
  func writtenDuringUpdate() -> Never {
    fatalError(
      "StreamsState: the StateCell<\(Value.self)> created at \(file):\(line) was written inside "
        + "its own update { } body; the body's result would replace that write. Change the "
        + "value through the body's inout argument instead.")
  }

  /// Runs the after-change observers with `value`; called again from inside one of them, queues
  /// `value` until the current round ends, for the registrations present now.
  @inlinable
  func deliver(_ value: Value) {
    if isDelivering {
      pendingDeliveries.append((value, observers.actions.count))
      return
    }
    isDelivering = true
    observers.beginDeliveries()
    observers.deliver(value, upTo: observers.actions.count)
    var next = 0
    while next < pendingDeliveries.count {
      let (value, upTo) = pendingDeliveries[next]
      observers.deliver(value, upTo: upTo)
      next += 1
    }
    if next > 0 { pendingDeliveries.removeAll() }
    isDelivering = false
    observers.endDeliveries()
  }
}

// MARK: - Observation

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension StateCell: Observation.Observable {}

/// The Observation registrar of one cell (see `StateCell.registrarBox`).
///
/// The registrar tracks reads and announces writes by its own identity and a key path; the
/// subject passed to `access`, `willSet` and `didSet` only types the key path. So the key path is
/// one of this non-generic class, made once, rather than `\StateCell<Value>.value`, whose
/// generic metadata and key path object would be looked up on every read and write.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@usableFromInline
final class CellRegistrar: Observation.Observable, Sendable {
  static let keyPath: any KeyPath<CellRegistrar, Int> & Sendable = \.value

  let registrar = ObservationRegistrar()

  /// The tracked "property": stands for the cell's value.
  var value: Int { 0 }
}

extension StateCell {
  nonisolated private static func makeRegistrarBox() -> AnyObject? {
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
      return CellRegistrar()
    }
    return nil
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  var box: CellRegistrar {
    // Set in `init` under the same availability, so the box is there and of this type.
    unsafeDowncast(registrarBox.unsafelyUnwrapped, to: CellRegistrar.self)
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @usableFromInline
  func access() {
    let box = box
    box.registrar.access(box, keyPath: CellRegistrar.keyPath)
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @usableFromInline
  func willSet() {
    let box = box
    box.registrar.willSet(box, keyPath: CellRegistrar.keyPath)
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @usableFromInline
  func didSet() {
    let box = box
    box.registrar.didSet(box, keyPath: CellRegistrar.keyPath)
  }
}
