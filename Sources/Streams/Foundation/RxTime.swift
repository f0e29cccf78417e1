#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// A point in time, as schedulers report it: Foundation's `Date`, as in RxSwift.
///
/// ``SchedulerType/now``, ``HistoricalScheduler``'s clock and the conversions of a
/// ``VirtualTimeConverterType`` take and return `Date`s, so a custom scheduler or converter
/// written for RxSwift compiles unchanged.
///
/// The time operators (`throttle`, `delay`, periodic scheduling) read the clocks of the dispatch
/// schedulers and of the tick-counting virtual schedulers (`TestScheduler`,
/// `VirtualTimeScheduler()`) in whole nanoseconds (see `SchedulerClock`): the wall clock as
/// `clock_gettime` gives it, and `ticks × resolution`. A `Date` holds seconds since 2001 in a
/// `Double`, so one near 1970, where virtual clocks start, is only good to about 0.1 µs, and an
/// interval computed from two of them can land a hair off an exact boundary (`elapsed >= dueTime`
/// in `throttle`). A clock that is a `Date` (``HistoricalScheduler``) and a scheduler of the
/// app's are read through their `Date`s, as RxSwift reads every scheduler.
public typealias RxTime = Date

extension Date {
  /// The time as whole nanoseconds since 1970, rounded, saturating at `Int64`'s bounds.
  var streamsNanoseconds: Int64 {
    let nanoseconds = (timeIntervalSince1970 * 1_000_000_000).rounded()
    guard nanoseconds < 9.2e18 else { return Int64.max }
    guard nanoseconds > -9.2e18 else { return Int64.min }
    return Int64(nanoseconds)
  }

  /// The time `nanoseconds` after 1970.
  init(streamsNanoseconds nanoseconds: Int64) {
    self.init(timeIntervalSince1970: Double(nanoseconds) / 1_000_000_000)
  }

  /// This time moved by `interval`; `.never` gives `Date.distantFuture`.
  func adding(_ interval: RxTimeInterval) -> Date {
    if case .never = interval { return .distantFuture }
    return addingTimeInterval(interval.seconds)
  }
}
