/// How a ``VirtualTimeScheduler`` counts time: its clock's unit, the unit of a distance between two
/// of its times, and how both convert to and from the scheduler's `RxTime` and seconds.
///
/// Write one to give a virtual-time scheduler a clock of your own, then subclass
/// ``VirtualTimeScheduler`` over it, as RxSwift test suites do:
///
/// ```swift
/// /// One virtual unit is ten seconds.
/// struct TenSecondConverter: VirtualTimeConverterType {
///   typealias VirtualTimeUnit = Int
///   typealias VirtualTimeIntervalUnit = Int
///
///   func convertFromVirtualTime(_ virtualTime: Int) -> RxTime {
///     RxTime(nanoseconds: Int64(virtualTime) * 10_000_000_000)
///   }
///   func convertToVirtualTime(_ time: RxTime) -> Int { Int(time.nanoseconds / 10_000_000_000) }
///   func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> Double {
///     Double(virtualTimeInterval * 10)
///   }
///   func convertToVirtualTimeInterval(_ timeInterval: Double) -> Int { Int(timeInterval / 10) }
///   func offsetVirtualTime(_ time: Int, offset: Int) -> Int { time + offset }
///   func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
///     lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
///   }
/// }
///
/// final class TenSecondScheduler: VirtualTimeScheduler<TenSecondConverter> {
///   init(initialClock: Int = 0) {
///     super.init(initialClock: initialClock, converter: TenSecondConverter())
///   }
/// }
///
/// let scheduler = TenSecondScheduler()
/// _ = scheduler.scheduleRelative((), dueTime: .seconds(30)) { _ in
///   print(scheduler.clock)
///   return Disposables.create()
/// }
/// scheduler.start()
/// // Prints "3"
/// ```
///
/// Differences from RxSwift: the absolute time is Streams' ``RxTime`` (nanoseconds) where RxSwift
/// has Foundation's `Date`, since `Streams` imports no Foundation. The interval conversions use
/// seconds as a `Double`, which is what RxSwift's `TimeInterval` is, so converters written for
/// RxSwift keep those two functions unchanged. A converter and its time units are `Sendable`: the
/// scheduler reads its clock from any thread. ``virtualTime(_:advancedBy:)`` is a Streams
/// addition with a default that does what RxSwift does.
public protocol VirtualTimeConverterType: Sendable {
  /// The unit of the virtual clock: what `clock`, `advanceTo` and `scheduleAbsoluteVirtual` take.
  associatedtype VirtualTimeUnit: Sendable

  /// The unit of a distance between two virtual times: what `sleep` and
  /// `scheduleRelativeVirtual` take.
  associatedtype VirtualTimeIntervalUnit: Sendable

  /// The scheduler time (`now`) at virtual time `virtualTime`.
  func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime

  /// The virtual time at scheduler time `time`.
  func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit

  /// The virtual interval `virtualTimeInterval` in seconds.
  func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> Double

  /// The virtual interval lasting `timeInterval` seconds.
  func convertToVirtualTimeInterval(_ timeInterval: Double) -> VirtualTimeIntervalUnit

  /// `time` moved by `offset`.
  func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit)
    -> VirtualTimeUnit

  /// How `lhs` compares with `rhs`: the order in which the scheduler runs its actions.
  func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison

  /// The virtual time `interval` after `time`: when work that `scheduleRelative` (what operators
  /// use) is given for `interval` from now becomes due, before the scheduler adjusts it.
  ///
  /// The default does what RxSwift does: it converts `time` to an `RxTime`, adds `interval` and
  /// converts back. Implement it when your clock can do this exactly without the round trip
  /// (``VirtualTickConverter`` adds whole ticks).
  func virtualTime(_ time: VirtualTimeUnit, advancedBy interval: RxTimeInterval) -> VirtualTimeUnit
}

extension VirtualTimeConverterType {
  /// `time` converted to an `RxTime`, moved by `interval`, converted back, as RxSwift computes
  /// the due time of relative work.
  ///
  /// ```swift
  /// let converter = HistoricalSchedulerTimeConverter()
  /// print(converter.virtualTime(RxTime(nanoseconds: 0), advancedBy: .seconds(2)))
  /// // Prints "RxTime(2000000000 ns)"
  /// ```
  public func virtualTime(_ time: VirtualTimeUnit, advancedBy interval: RxTimeInterval)
    -> VirtualTimeUnit
  {
    convertToVirtualTime(convertFromVirtualTime(time).adding(interval))
  }
}

/// How two virtual times compare, as ``VirtualTimeConverterType/compareVirtualTime(_:_:)``
/// reports it.
///
/// ```swift
/// print(HistoricalSchedulerTimeConverter().compareVirtualTime(
///   RxTime(nanoseconds: 1), RxTime(nanoseconds: 2)))
/// // Prints "lessThan"
/// ```
public enum VirtualTimeComparison: Sendable, Hashable {
  /// The left time is earlier.
  case lessThan
  /// Both times are the same.
  case equal
  /// The left time is later.
  case greaterThan
}
