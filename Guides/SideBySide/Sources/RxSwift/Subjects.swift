// Stand-in for RxSwift's `PublishSubject` and `BehaviorSubject`, enough to back the relays.

import Foundation

/// Sends each event to the observers subscribed at the time.
public final class PublishSubject<Element>: Observable<Element>, ObserverType,
  @unchecked Sendable
{
  private let core = SubjectState<Element>()

  /// A subject with no observers.
  public init() {
    let core = self.core
    super.init { observer in core.add(observer, replay: nil) }
  }

  /// `true` while some observer is subscribed.
  public var hasObservers: Bool { core.hasObservers }

  /// Sends `event` to the current observers.
  public func on(_ event: Event<Element>) { core.send(event) }
}

/// Sends its current value to each new observer, then each event.
public final class BehaviorSubject<Element>: Observable<Element>, ObserverType,
  @unchecked Sendable
{
  private let core = SubjectState<Element>()

  /// A subject holding `value`.
  public init(value: Element) {
    let core = self.core
    core.latest = value
    super.init { observer in core.add(observer, replay: { core.latest }) }
  }

  /// `true` while some observer is subscribed.
  public var hasObservers: Bool { core.hasObservers }

  /// The current value; throws the error the subject failed with.
  public func value() throws -> Element {
    try core.currentValue()
  }

  /// Stores an element and sends `event` to the current observers.
  public func on(_ event: Event<Element>) { core.send(event) }
}

/// The observers and the terminal event of a subject, under one lock.
/// `@unchecked Sendable`: every field is read and written under `lock`.
final class SubjectState<Element>: @unchecked Sendable {
  private let lock = NSRecursiveLock()
  private var observers: [Int: AnyObserver<Element>] = [:]
  private var nextKey = 0
  private var stopEvent: Event<Element>?
  var latest: Element?

  var hasObservers: Bool {
    lock.lock()
    defer { lock.unlock() }
    return !observers.isEmpty
  }

  func currentValue() throws -> Element {
    lock.lock()
    defer { lock.unlock() }
    if case .error(let error)? = stopEvent { throw error }
    return latest!
  }

  func add(_ observer: AnyObserver<Element>, replay: (() -> Element?)?) -> Disposable {
    lock.lock()
    if let stopEvent = stopEvent {
      lock.unlock()
      observer.on(stopEvent)
      return Disposables.create()
    }
    let key = nextKey
    nextKey += 1
    observers[key] = observer
    let current = replay?()
    lock.unlock()
    if let current = current { observer.on(.next(current)) }
    return Disposables.create { [weak self] in self?.remove(key) }
  }

  func send(_ event: Event<Element>) {
    lock.lock()
    if stopEvent != nil {
      lock.unlock()
      return
    }
    switch event {
    case .next(let element): latest = element
    case .error, .completed: stopEvent = event
    }
    let targets = observers.sorted { $0.key < $1.key }.map(\.value)
    if event.isStopEvent { observers = [:] }
    lock.unlock()
    for observer in targets { observer.on(event) }
  }

  private func remove(_ key: Int) {
    lock.lock()
    let removed = observers.removeValue(forKey: key)
    lock.unlock()
    withExtendedLifetime(removed) {}
  }
}
