/// Serializes the elements of a source with a terminal event that may come from another sequence
/// (`take(until:)`, `skip(until:)`), without holding a lock while calling downstream.
///
/// The side word of `slot` counts source elements being delivered (low bits) and holds
/// `terminating` (a terminal event was requested and stored in `slot`), `delivered` (it was
/// delivered) and `open` (`skip(until:)`'s trigger fired). A terminal event requested while an
/// element is being delivered is delivered by that element's thread right after it; an element
/// that arrives after a terminal event was requested is dropped. Elements delivered reentrantly
/// (from inside the delivery of another) still go through.
///
/// `@unchecked Sendable`: `slot` only ever holds a terminal event (`.error` or `.completed`, which
/// carry no element), under its lock; `sink` guards itself.
@usableFromInline
final class UntilGate<Element>: @unchecked Sendable {
  @usableFromInline static var busyMask: Int { (1 << 28) - 1 }
  @usableFromInline static var openBit: Int { 1 << 28 }
  @usableFromInline static var deliveredBit: Int { 1 << 29 }
  @usableFromInline static var terminatingBit: Int { 1 << 30 }

  @usableFromInline let sink: GuardedSink<Element>
  @usableFromInline let slot: Locked<Event<Element>?>

  @inlinable
  init(_ sink: GuardedSink<Element>) {
    self.sink = sink
    slot = Locked(nil)
  }

  /// `true` once ``open()`` was called.
  @inlinable
  var isOpen: Bool { slot.loadWord() & Self.openBit != 0 }

  /// Lets elements through (`skip(until:)`).
  @inlinable
  func open() { _ = slot.fetchOrWord(Self.openBit) }

  /// Delivers a source element unless a terminal event was requested.
  @inlinable
  func forward(_ event: Event<Element>) {
    let previous = slot.fetchAddWord(1)
    if previous & Self.terminatingBit == 0 { sink.on(event) }
    let now = slot.fetchAddWord(-1) - 1
    if now & Self.terminatingBit != 0, now & Self.busyMask == 0 { deliverTerminal() }
  }

  /// Requests `event` (a terminal event); the first request wins.
  @inlinable
  func terminate(_ event: Event<Element>) {
    let isFirst = slot.withLock { stored -> Bool in
      if stored != nil { return false }
      stored = event
      return true
    }
    guard isFirst else { return }
    let previous = slot.fetchOrWord(Self.terminatingBit)
    if previous & Self.busyMask == 0 { deliverTerminal() }
  }

  @inlinable
  func deliverTerminal() {
    if slot.fetchOrWord(Self.deliveredBit) & Self.deliveredBit != 0 { return }
    let event = slot.withLock { $0 }
    if let event { sink.on(event) }
  }
}
