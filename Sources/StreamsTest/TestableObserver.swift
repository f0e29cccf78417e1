@_spi(StreamsInternal) public import Streams

/// An observer that records every event with the virtual time it arrived at.
///
/// ```swift
/// let observer = scheduler.createObserver(Int.self)
/// _ = Observable.just(1).subscribe(observer)
/// print(observer.events)
/// // Prints "[next(1) @ 0, completed @ 0]"
/// ```
public final class TestableObserver<Element>: ObserverType, @unchecked Sendable {
  // `@unchecked Sendable`: `recorded` is guarded by its lock; the scheduler is Sendable.

  /// The scheduler whose clock stamps the events.
  public let scheduler: TestScheduler
  private let recorded = Protected<[Recorded<Event<Element>>]>([])

  init(scheduler: TestScheduler) {
    self.scheduler = scheduler
  }

  /// The events received so far, with their times.
  public var events: [Recorded<Event<Element>>] { recorded.withLock { $0 } }

  /// Records `event` at the current virtual time.
  public func on(_ event: Event<Element>) {
    let time = scheduler.clock
    recorded.withLock { $0.append(Recorded(time: time, value: event)) }
  }
}
