/// A scheduler whose clock Streams reads in whole nanoseconds: the schedulers Streams ships.
///
/// Its ``nanosecondsNow`` and ``SchedulerType/now`` tell the same time. The nanoseconds are exact
/// where a `Date` would round (see ``RxTime``) for the dispatch schedulers and tick clocks; a clock
/// that is a `Date` (``HistoricalScheduler``) gives its `Date`'s nanoseconds, rounded.
protocol NanosecondClock: SchedulerType {
  /// The current time in nanoseconds on the scheduler's clock.
  var nanosecondsNow: Int64 { get }
}

/// How the time operators read a scheduler's time: the exact nanoseconds of a
/// ``NanosecondClock``, or, for a scheduler of the app's, its `now` in nanoseconds since 1970.
///
/// Made once per subscription, so the per-event read costs no dynamic cast.
struct SchedulerClock: Sendable {
  private let scheduler: any SchedulerType
  private let exact: (any NanosecondClock)?

  init(_ scheduler: any SchedulerType) {
    self.scheduler = scheduler
    exact = scheduler as? any NanosecondClock
  }

  /// The scheduler's current time in nanoseconds.
  var nanoseconds: Int64 {
    if let exact { return exact.nanosecondsNow }
    return scheduler.now.streamsNanoseconds
  }
}
