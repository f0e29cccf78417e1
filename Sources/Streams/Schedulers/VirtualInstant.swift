#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
/// A virtual time as the queue keeps it: a number for the clocks Streams knows
/// (``VirtualTickConverter``'s ticks, ``HistoricalSchedulerTimeConverter``'s `Date` as the bits of
/// its `Double`, made to order as integers), or the converter's own time in a box, ordered by the
/// converter, for a converter of the user's.
struct VirtualInstant: Sendable {
  /// How two boxed times compare: the converter's `compareVirtualTime`.
  typealias Order =
    @Sendable (any AnyObject & Sendable, any AnyObject & Sendable) -> VirtualTimeComparison

  /// The time, for the known clocks.
  var value: Int64
  /// The converter's time (a ``VirtualTimeBox``), for a converter of the user's.
  var boxed: (any AnyObject & Sendable)?

  init(value: Int64, boxed: (any AnyObject & Sendable)? = nil) {
    self.value = value
    self.boxed = boxed
  }
}

/// A converter's time in a box, for the queue.
final class VirtualTimeBox<Time: Sendable>: Sendable {
  let time: Time
  init(_ time: Time) { self.time = time }
}

/// Converts between a converter's times and ``VirtualInstant``s. Made once per scheduler; the
/// scheduler then calls its closures, which are specialized for the known clocks.
struct VirtualInstantBridge<Time: Sendable>: Sendable {
  let erase: @Sendable (Time) -> VirtualInstant
  let restore: @Sendable (VirtualInstant) -> Time
  let order: VirtualInstant.Order?
  /// The time in whole nanoseconds since 1970, for ``SchedulerClock``: exact for ticks.
  let nanoseconds: @Sendable (Time) -> Int64

  init<Converter: VirtualTimeConverterType>(_ converter: Converter)
  where Converter.VirtualTimeUnit == Time {
    if Converter.self == VirtualTickConverter.self {
      // Time is Int.
      erase = { VirtualInstant(value: Int64(unsafeBitCast($0, to: Int.self))) }
      restore = { unsafeBitCast(Int($0.value), to: Time.self) }
      order = nil
      let ticks = unsafeBitCast(converter, to: VirtualTickConverter.self)
      nanoseconds = { ticks.nanoseconds(unsafeBitCast($0, to: Int.self)) }
    } else if Converter.self == HistoricalSchedulerTimeConverter.self {
      // Time is RxTime (a `Date`).
      erase = { VirtualInstant(value: Self.orderedBits(unsafeBitCast($0, to: RxTime.self))) }
      restore = { unsafeBitCast(Self.date(orderedBits: $0.value), to: Time.self) }
      order = nil
      nanoseconds = { unsafeBitCast($0, to: RxTime.self).streamsNanoseconds }
    } else {
      erase = { VirtualInstant(value: 0, boxed: VirtualTimeBox($0)) }
      restore = { instant in
        guard let box = instant.boxed else {
          streamsStop("VirtualTimeScheduler internal error: an unboxed custom time")
        }
        return unsafeDowncast(box, to: VirtualTimeBox<Time>.self).time
      }
      order = { lhs, rhs in
        converter.compareVirtualTime(
          unsafeDowncast(lhs, to: VirtualTimeBox<Time>.self).time,
          unsafeDowncast(rhs, to: VirtualTimeBox<Time>.self).time)
      }
      nanoseconds = { converter.convertFromVirtualTime($0).streamsNanoseconds }
    }
  }

  /// `date` as an integer that orders as the date does: the bits of its `Double`, with the
  /// magnitude bits of negative values flipped. Exact, and its own inverse (``date(orderedBits:)``).
  static func orderedBits(_ date: RxTime) -> Int64 {
    // `+ 0.0` turns -0.0 into +0.0: the two are the same date and must be the same key.
    let bits = Int64(bitPattern: (date.timeIntervalSinceReferenceDate + 0.0).bitPattern)
    return bits < 0 ? bits ^ Int64.max : bits
  }

  /// The date ``orderedBits(_:)`` made `bits` from.
  static func date(orderedBits bits: Int64) -> RxTime {
    let raw = bits < 0 ? bits ^ Int64.max : bits
    return RxTime(timeIntervalSinceReferenceDate: Double(bitPattern: UInt64(bitPattern: raw)))
  }
}
