/// A virtual-time scheduler whose clock is an ``RxTime`` and whose intervals are seconds: replays
/// time-based work "as of" any moment, decoupled from the machine's clock, as RxSwift's
/// `HistoricalScheduler` does with `Date`s.
///
/// ```swift
/// let start = RxTime(nanoseconds: 1_700_000_000_000_000_000)
/// let scheduler = HistoricalScheduler(initialClock: start)
/// _ = Observable<Int>.interval(.seconds(60), scheduler: scheduler)
///   .take(2)
///   .subscribe(onNext: {
///     print($0, (scheduler.clock.nanoseconds - start.nanoseconds) / 1_000_000_000)
///   })
/// scheduler.start()
/// // Prints "0 60"
/// // Prints "1 120"
/// ```
///
/// Nothing runs until ``VirtualTimeScheduler/start()`` or ``VirtualTimeScheduler/advanceTo(_:)``
/// is called; actions run on that thread, in time order, and in scheduling order at the same
/// time. `now` is the clock. Work scheduled for now or earlier runs at the current clock (no
/// processing delay, unlike `TestScheduler`).
///
/// Differences from RxSwift: the clock is Streams' ``RxTime`` (nanoseconds since 1970 for the
/// dispatch schedulers' wall clock) instead of Foundation's `Date`, because `Streams` imports no
/// Foundation; the default `initialClock` is the same instant as RxSwift's
/// `Date(timeIntervalSince1970: 0)`. From a `Date`:
/// `RxTime(nanoseconds: Int64(date.timeIntervalSince1970 * 1_000_000_000))`. Intervals
/// (``VirtualTimeScheduler/sleep(_:)``, ``VirtualTimeScheduler/scheduleRelativeVirtual(_:dueTime:action:)``)
/// are seconds as a `Double`, as RxSwift's `TimeInterval`.
///
/// `@unchecked Sendable`: it adds no state to ``VirtualTimeScheduler``, whose state is
/// lock-guarded.
public final class HistoricalScheduler: VirtualTimeScheduler<HistoricalSchedulerTimeConverter>,
  @unchecked Sendable
{
  /// A scheduler whose clock starts at `initialClock` (by default 1970-01-01 00:00:00 UTC, the
  /// reference point of ``RxTime``'s wall clock).
  ///
  /// ```swift
  /// let scheduler = HistoricalScheduler()
  /// scheduler.sleep(90)
  /// print(scheduler.now)
  /// // Prints "RxTime(90000000000 ns)"
  /// ```
  public init(initialClock: RxTime = RxTime(nanoseconds: 0)) {
    super.init(initialClock: initialClock, converter: HistoricalSchedulerTimeConverter())
  }
}
