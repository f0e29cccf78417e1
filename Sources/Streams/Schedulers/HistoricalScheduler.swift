#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A virtual-time scheduler whose clock is a `Date` (``RxTime``) and whose intervals are seconds:
/// replays time-based work "as of" any moment, decoupled from the machine's clock, as RxSwift's
/// `HistoricalScheduler` does.
///
/// ```swift
/// let start = Date(timeIntervalSince1970: 1_700_000_000)
/// let scheduler = HistoricalScheduler(initialClock: start)
/// _ = Observable<Int>.interval(.seconds(60), scheduler: scheduler)
///   .take(2)
///   .subscribe(onNext: { print($0, scheduler.clock.timeIntervalSince(start)) })
/// scheduler.start()
/// // Prints "0 60.0"
/// // Prints "1 120.0"
/// ```
///
/// Nothing runs until ``VirtualTimeScheduler/start()`` or ``VirtualTimeScheduler/advanceTo(_:)``
/// is called; actions run on that thread, in time order, and in scheduling order at the same
/// time. `now` is the clock. Work scheduled for now or earlier runs at the current clock (no
/// processing delay, unlike `TestScheduler`). Intervals
/// (``VirtualTimeScheduler/sleep(_:)``, ``VirtualTimeScheduler/scheduleRelativeVirtual(_:dueTime:action:)``)
/// are seconds as a `Double`, as RxSwift's `TimeInterval`.
///
/// `@unchecked Sendable`: it adds no state to ``VirtualTimeScheduler``, whose state is
/// lock-guarded.
public final class HistoricalScheduler: VirtualTimeScheduler<HistoricalSchedulerTimeConverter>,
  @unchecked Sendable
{
  /// A scheduler whose clock starts at `initialClock` (by default 1970-01-01 00:00:00 UTC, as in
  /// RxSwift).
  ///
  /// ```swift
  /// let scheduler = HistoricalScheduler()
  /// scheduler.sleep(90)
  /// print(scheduler.now.timeIntervalSince1970)
  /// // Prints "90.0"
  /// ```
  public init(initialClock: RxTime = Date(timeIntervalSince1970: 0)) {
    super.init(initialClock: initialClock, converter: HistoricalSchedulerTimeConverter())
  }
}
