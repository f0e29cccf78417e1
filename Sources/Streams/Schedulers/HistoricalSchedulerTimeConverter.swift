/// The clock of ``HistoricalScheduler``: virtual time is an ``RxTime`` and a virtual interval is
/// seconds as a `Double`, so converting is the identity.
///
/// ```swift
/// let converter = HistoricalSchedulerTimeConverter()
/// print(converter.offsetVirtualTime(RxTime(nanoseconds: 0), offset: 1.5))
/// // Prints "RxTime(1500000000 ns)"
/// ```
///
/// Differences from RxSwift: the time is ``RxTime`` (nanoseconds) instead of Foundation's `Date`;
/// the interval is a `Double` of seconds, as RxSwift's `TimeInterval` is.
public struct HistoricalSchedulerTimeConverter: VirtualTimeConverterType, Hashable {
  /// A virtual time: the scheduler time itself.
  public typealias VirtualTimeUnit = RxTime
  /// A virtual interval: seconds.
  public typealias VirtualTimeIntervalUnit = Double

  /// The converter; it has no settings.
  public init() {}

  /// `virtualTime` itself.
  public func convertFromVirtualTime(_ virtualTime: RxTime) -> RxTime { virtualTime }

  /// `time` itself.
  public func convertToVirtualTime(_ time: RxTime) -> RxTime { time }

  /// `virtualTimeInterval` itself (seconds).
  public func convertFromVirtualTimeInterval(_ virtualTimeInterval: Double) -> Double {
    virtualTimeInterval
  }

  /// `timeInterval` itself (seconds).
  public func convertToVirtualTimeInterval(_ timeInterval: Double) -> Double { timeInterval }

  /// `time` moved by `offset` seconds, rounded to the nanosecond (saturating at the ends of
  /// `RxTime`).
  public func offsetVirtualTime(_ time: RxTime, offset: Double) -> RxTime {
    let nanoseconds = (offset * 1_000_000_000).rounded()
    guard nanoseconds < 9.2e18 else { return RxTime(nanoseconds: Int64.max) }
    guard nanoseconds > -9.2e18 else { return RxTime(nanoseconds: Int64.min) }
    let (sum, overflow) = time.nanoseconds.addingReportingOverflow(Int64(nanoseconds))
    if overflow { return RxTime(nanoseconds: nanoseconds < 0 ? Int64.min : Int64.max) }
    return RxTime(nanoseconds: sum)
  }

  /// Compares two times.
  public func compareVirtualTime(_ lhs: RxTime, _ rhs: RxTime) -> VirtualTimeComparison {
    lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
  }
}
