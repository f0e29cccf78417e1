public import Streams

/// An observer that records every event with the virtual time it arrived at.
///
/// ```swift
/// let scheduler = TestScheduler(initialClock: 0)
/// let observer = scheduler.createObserver(Int.self)
/// let subject = PublishSubject<Int>()
/// _ = subject.subscribe(observer)
/// scheduler.scheduleAt(10) { subject.onNext(1) }
/// scheduler.scheduleAt(20) { subject.onCompleted() }
/// scheduler.start()
/// print(observer.events)
/// // Prints "[next(1) @ 10, completed @ 20]"
/// ```
///
/// It records whatever it is sent, in order, including events after a terminal event (which lets
/// tests catch operators that break the grammar).
public final class TestableObserver<Element>: ObserverType, @unchecked Sendable {
  // `@unchecked Sendable`: `recorded` is guarded by its lock; the scheduler is Sendable.

  /// The scheduler whose clock stamps the events.
  public let scheduler: TestScheduler
  private let recorded = Locked<[Recorded<Event<Element>>]>([])

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
