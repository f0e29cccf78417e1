public import Streams

/// A test observable that records its subscriptions: created by ``TestScheduler``'s
/// `createHotObservable` and `createColdObservable`.
///
/// ```swift
/// let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
/// _ = scheduler.start { xs }
/// print(xs.subscriptions)
/// // Prints "[(200, 300)]"
/// ```
///
/// A hot observable emits its events at their absolute times to whoever is subscribed then; a
/// cold one replays them for each subscription, shifted by the subscription's time. Neither
/// enforces the event grammar: recordings may contain events after a terminal event, so that
/// tests can check that operators ignore them. A hot observable calls its subscribers in
/// subscription order, even after an earlier one left (RxTest's may call a later subscriber
/// first when it took the slot of one that left).
public class TestableObservable<Element>: ObservableType, @unchecked Sendable {
  // `@unchecked Sendable`: the mutable state (subscriptions, observers) is behind `lockedState`;
  // events are delivered on the thread that drives the scheduler.

  struct State {
    var subscriptions: [Subscription] = []
    var observers: [Int: AnyObserver<Element>] = [:]
    var nextKey = 0
  }

  /// The scheduler the observable runs on.
  public let testScheduler: TestScheduler
  /// The events the observable was created with.
  public let recordedEvents: [Recorded<Event<Element>>]
  let lockedState = Locked(State())

  init(scheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
    self.testScheduler = scheduler
    self.recordedEvents = recordedEvents
  }

  /// When each subscription began and ended, in subscription order. A subscription that is still
  /// active ends at `Int.max` (`Subscription(200)`).
  public var subscriptions: [Subscription] { lockedState.withLock { $0.subscriptions } }

  /// Subscribes `observer`, recording the subscription time; disposing records the end time.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    let any = AnyObserver(observer)
    let clock = testScheduler.clock
    let (index, key) = lockedState.withLock { state -> (Int, Int) in
      state.subscriptions.append(Subscription(clock))
      let key = state.nextKey
      state.nextKey += 1
      state.observers[key] = any
      return (state.subscriptions.count - 1, key)
    }
    didSubscribe(key: key)
    let scheduler = testScheduler
    let state = lockedState
    return Disposables.create(with: {
      let now = scheduler.clock
      let removed = state.withLock { state -> AnyObserver<Element>? in
        guard let observer = state.observers.removeValue(forKey: key) else { return nil }
        state.subscriptions[index] = Subscription(state.subscriptions[index].subscribe, now)
        return observer
      }
      withExtendedLifetime(removed) {}
    })
  }

  /// Called after a subscription was registered under `key`; the cold observable schedules its
  /// replay here.
  func didSubscribe(key: Int) {}

  /// Delivers `event` to the observer registered under `key`, if it is still subscribed.
  func deliver(_ event: Event<Element>, to key: Int) {
    let observer = lockedState.withLock { $0.observers[key] }
    observer?.on(event)
  }

  /// Delivers `event` to every current observer, in subscription order.
  func deliverToAll(_ event: Event<Element>) {
    let observers = lockedState.withLock { state in
      state.observers.sorted { $0.key < $1.key }.map(\.value)
    }
    for observer in observers { observer.on(event) }
  }
}

/// A hot test observable: its events happen at absolute times whether or not anyone listens.
final class HotObservable<Element>: TestableObservable<Element>, @unchecked Sendable {
  // `@unchecked Sendable`: no state of its own; the superclass's is behind `lockedState`.
  override init(scheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
    super.init(scheduler: scheduler, recordedEvents: recordedEvents)
    for recorded in recordedEvents {
      let event = UncheckedBox(recorded.value)
      // The scheduler keeps the observable alive until its last event, as in RxTest.
      scheduler.scheduleAt(recorded.time) { self.deliverToAll(event.value) }
    }
  }
}

/// A cold test observable: each subscription replays the events relative to its own start.
final class ColdObservable<Element>: TestableObservable<Element>, @unchecked Sendable {
  /// As RxTest: every event is queued at `subscription time + event time`; after disposal the
  /// queued events stay in the queue (the clock still reaches them) but are not delivered.
  override func didSubscribe(key: Int) {
    for recorded in recordedEvents {
      let event = UncheckedBox(recorded.value)
      _ = testScheduler.scheduleRelativeVirtual((), dueTime: recorded.time) { [self] _ in
        deliver(event.value, to: key)
        return Disposables.create()
      }
    }
  }
}
