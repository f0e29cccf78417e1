// Stand-in for RxRelay's `PublishRelay` and `BehaviorRelay`: subjects that never end.

import RxSwift

/// Relays each accepted element to its current observers; never fails or completes.
public final class PublishRelay<Element>: ObservableType {
  private let subject = PublishSubject<Element>()

  /// A relay with no observers.
  public init() {}

  /// Sends `event` to the observers.
  public func accept(_ event: Element) {
    subject.onNext(event)
  }

  /// Subscribes `observer`.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element {
    subject.subscribe(observer)
  }

  /// The relay as an `Observable`.
  public func asObservable() -> Observable<Element> { subject.asObservable() }
}

/// Holds a value, sends it to each new observer, then each accepted value; never ends.
public final class BehaviorRelay<Element>: ObservableType {
  private let subject: BehaviorSubject<Element>

  /// A relay holding `value`.
  public init(value: Element) {
    subject = BehaviorSubject(value: value)
  }

  /// The current value.
  public var value: Element {
    // A relay never fails, so `value()` cannot throw here.
    try! subject.value()
  }

  /// Stores `event` and sends it to the observers.
  public func accept(_ event: Element) {
    subject.onNext(event)
  }

  /// Subscribes `observer`.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element {
    subject.subscribe(observer)
  }

  /// The relay as an `Observable`.
  public func asObservable() -> Observable<Element> { subject.asObservable() }
}
