/// How a ``VirtualTimeScheduler`` counts time: its clock's unit, the unit of a distance between two
/// of its times, and how both convert to and from the scheduler's time (a `Date`) and seconds.
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
///     Date(timeIntervalSince1970: Double(virtualTime * 10))
///   }
///   func convertToVirtualTime(_ time: RxTime) -> Int { Int(time.timeIntervalSince1970 / 10) }
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
/// The absolute time is Foundation's `Date` (``RxTime``) and the interval conversions use seconds
/// as a `Double` (`TimeInterval`), as in RxSwift, so converters written for RxSwift compile
/// unchanged. A converter and its time units are `Sendable`: the
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
  /// `time` converted to a `Date`, moved by `interval`, converted back, as RxSwift computes the
  /// due time of relative work; `.never` moves it to `Date.distantFuture`.
  ///
  /// ```swift
  /// let converter = HistoricalSchedulerTimeConverter()
  /// let start = Date(timeIntervalSince1970: 0)
  /// print(converter.virtualTime(start, advancedBy: .seconds(2)).timeIntervalSince1970)
  /// // Prints "2.0"
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
///   Date(timeIntervalSince1970: 1), Date(timeIntervalSince1970: 2)))
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
