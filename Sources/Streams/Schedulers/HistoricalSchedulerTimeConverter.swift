#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The clock of ``HistoricalScheduler``: virtual time is a `Date` (``RxTime``) and a virtual
/// interval is seconds as a `Double` (`TimeInterval`), so converting is the identity, as in
/// RxSwift.
///
/// ```swift
/// let converter = HistoricalSchedulerTimeConverter()
/// print(converter.offsetVirtualTime(RxTime(timeIntervalSince1970: 0), offset: 1.5))
/// // Prints "1970-01-01 00:00:01 +0000"
/// ```
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

  /// `time` moved by `offset` seconds.
  public func offsetVirtualTime(_ time: RxTime, offset: Double) -> RxTime {
    time.addingTimeInterval(offset)
  }

  /// Compares two times.
  public func compareVirtualTime(_ lhs: RxTime, _ rhs: RxTime) -> VirtualTimeComparison {
    lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
  }
}
