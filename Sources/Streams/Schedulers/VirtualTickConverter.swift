#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The clock of `VirtualTimeScheduler()` and of StreamsTest's `TestScheduler`: integer ticks, each
/// lasting `resolution` seconds. It is RxTest's `TestSchedulerVirtualTimeConverter` (StreamsTest
/// has that name as an alias).
///
/// ```swift
/// let converter = VirtualTickConverter(resolution: 0.001)
/// print(converter.convertToVirtualTimeInterval(0.25))
/// // Prints "250"
/// print(converter.virtualTime(40, advancedBy: .milliseconds(10)))
/// // Prints "50"
/// ```
///
/// Intervals round to the nearest tick. Relative work is due the rounded number of ticks after the
/// clock (``virtualTime(_:advancedBy:)``), and `.never` is due at `Int.max`, after everything.
public struct VirtualTickConverter: VirtualTimeConverterType, Hashable {
  /// A virtual time: a tick count.
  public typealias VirtualTimeUnit = Int
  /// A virtual interval: a number of ticks.
  public typealias VirtualTimeIntervalUnit = Int

  /// Seconds per tick.
  public let resolution: Double

  /// Ticks of `resolution` seconds; `resolution` must be positive.
  ///
  /// ```swift
  /// let milliseconds = VirtualTickConverter(resolution: 0.001)
  /// ```
  public init(resolution: Double = 1.0, file: StaticString = #fileID, line: UInt = #line) {
    if !(resolution > 0) {  // NaN too
      streamsStop(
        "VirtualTimeScheduler needs a positive resolution (seconds per tick), got \(resolution)",
        file: file, line: line)
    }
    self.resolution = resolution
  }

  /// The time of tick `virtualTime`: `virtualTime × resolution` seconds after 1970, as RxTest's
  /// converter makes it.
  public func convertFromVirtualTime(_ virtualTime: Int) -> RxTime {
    RxTime(timeIntervalSince1970: Double(virtualTime) * resolution)
  }

  /// The tick nearest to `time`, halves away from zero. (RxTest adds 0.5 and truncates, which
  /// differs for times before 1970.)
  public func convertToVirtualTime(_ time: RxTime) -> Int {
    Int((time.timeIntervalSince1970 / resolution).rounded())
  }

  /// The time of tick `virtualTime` in whole nanoseconds since 1970: what the time operators
  /// compute with, exact where the `Date` of ``convertFromVirtualTime(_:)`` rounds; saturating at
  /// `Int64`'s bounds (about 292 years either side of 1970).
  func nanoseconds(_ virtualTime: Int) -> Int64 {
    let nanoseconds = (Double(virtualTime) * resolution * 1_000_000_000).rounded()
    guard nanoseconds < 9.2e18 else { return Int64.max }
    guard nanoseconds > -9.2e18 else { return Int64.min }
    return Int64(nanoseconds)
  }

  /// `virtualTimeInterval` ticks in seconds.
  public func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> Double {
    Double(virtualTimeInterval) * resolution
  }

  /// The number of ticks nearest to `timeInterval` seconds, halves away from zero.
  public func convertToVirtualTimeInterval(_ timeInterval: Double) -> Int {
    Int((timeInterval / resolution).rounded())
  }

  /// `time + offset`.
  public func offsetVirtualTime(_ time: Int, offset: Int) -> Int {
    time + offset
  }

  /// Compares two tick counts.
  public func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
    lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
  }

  /// `time` plus `interval` rounded to whole ticks; `Int.max` for `.never`.
  public func virtualTime(_ time: Int, advancedBy interval: RxTimeInterval) -> Int {
    let ticks = ticks(interval)
    return ticks == Int.max ? Int.max : time + ticks
  }

  /// `interval` in ticks, rounded to the nearest tick; `Int.max` for `.never`.
  ///
  /// ```swift
  /// print(VirtualTickConverter(resolution: 0.5).ticks(.seconds(2)))
  /// // Prints "4"
  /// ```
  public func ticks(_ interval: RxTimeInterval) -> Int {
    if case .never = interval { return Int.max }
    return Int((interval.seconds / resolution).rounded())
  }
}
