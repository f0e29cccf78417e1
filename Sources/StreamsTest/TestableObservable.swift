@_spi(StreamsInternal) public import Streams

/// A test observable that records its subscriptions: created by ``TestScheduler``'s
/// `createHotObservable` and `createColdObservable`.
public class TestableObservable<Element>: ObservableType, @unchecked Sendable {
  // `@unchecked Sendable`: mutable state (subscriptions, observers) is behind `lockedState`.

  struct State {
    var subscriptions: [Subscription] = []
    var observers: [Int: AnyObserver<Element>] = [:]
    var nextKey = 0
  }

  /// The scheduler the observable runs on.
  public let testScheduler: TestScheduler
  /// The events the observable was created with.
  public let recordedEvents: [Recorded<Event<Element>>]
  let lockedState = Protected(State())
  private let hot: Bool

  init(scheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>], hot: Bool) {
    self.testScheduler = scheduler
    self.recordedEvents = recordedEvents
    self.hot = hot
  }

  /// When each subscription began and ended.
  public var subscriptions: [Subscription] { lockedState.withLock { $0.subscriptions } }

  /// Subscribes `observer`, recording the subscription time.
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
    let scheduled = hot ? [] : scheduleCold(for: key)
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
      for disposable in scheduled { disposable.dispose() }
    })
  }

  private func scheduleCold(for key: Int) -> [any Disposable] {
    let state = lockedState
    let start = testScheduler.clock
    return recordedEvents.map { recorded in
      let event = UncheckedBox(recorded.value)
      return testScheduler.scheduleAbsoluteVirtual((), time: start + recorded.time) { _ in
        let observer = state.withLock { $0.observers[key] }
        observer?.on(event.value)
        return Disposables.create()
      }
    }
  }

  func scheduleHot() {
    let state = lockedState
    for recorded in recordedEvents {
      let event = UncheckedBox(recorded.value)
      _ = testScheduler.scheduleAbsoluteVirtual((), time: recorded.time) { _ in
        let observers = state.withLock { $0.observers.sorted { $0.key < $1.key }.map(\.value) }
        for observer in observers { observer.on(event.value) }
        return Disposables.create()
      }
    }
  }
}

/// A hot test observable: its events happen at absolute times whether or not anyone listens.
final class HotObservable<Element>: TestableObservable<Element>, @unchecked Sendable {
  init(scheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
    super.init(scheduler: scheduler, recordedEvents: recordedEvents, hot: true)
    scheduleHot()
  }
}

/// A cold test observable: each subscription replays the events relative to its own start.
final class ColdObservable<Element>: TestableObservable<Element>, @unchecked Sendable {
  init(scheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
    super.init(scheduler: scheduler, recordedEvents: recordedEvents, hot: false)
  }
}
