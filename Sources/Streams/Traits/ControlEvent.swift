/// A type that is, or can be viewed as, a ``ControlEvent``: RxCocoa's `ControlEventType`.
public protocol ControlEventType: ObservableType {
  /// `self` as a ``ControlEvent``.
  func asControlEvent() -> ControlEvent<Element>
}

/// A sequence of UI events, as RxCocoa's `ControlEvent`: it never fails, and is subscribed on
/// the main thread (`subscribe(on: ConcurrentMainScheduler.instance)`).
///
/// ```swift
/// let taps = PublishSubject<Void>()
/// let tap = ControlEvent(events: taps)  // what `button.rx.tap` is in RxCocoa
/// _ = tap.subscribe(onNext: { print("tapped") })
/// taps.onNext(())
/// // Prints "tapped"
/// ```
///
/// View models take `ControlEvent`s as inputs; a test builds them from test observables. The
/// UIKit and AppKit controls that produce them are not part of Streams (see the migration
/// guide).
///
/// A subscription made off the main thread happens on the main queue's next turn, as in RxCocoa:
/// subscribe from the main thread (a `@MainActor` test) to see events synchronously. Completes when
/// the events do; a failure of the events is a programming error that reaches the subscriber as it
/// is (``asDriver(file:line:)`` and ``asSignal(file:line:)`` stop the program on it). Disposal
/// disposes the events' subscription, on the main thread.
public struct ControlEvent<PropertyType>: ControlEventType {
  /// The type of the events.
  public typealias Element = PropertyType

  let events: Observable<PropertyType>

  /// A control event over `events`, which must never fail and should deliver on the main
  /// thread.
  ///
  /// - Parameters:
  ///   - events: The events, subscribed on the main thread.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public init<Events: ObservableType>(
    events: Events, file: StaticString = #fileID, line: UInt = #line
  ) where Events.Element == PropertyType {
    self.events = events.subscribe(on: ConcurrentMainScheduler.instance, file: file, line: line)
  }

  /// Subscribes `observer` to the events.
  ///
  /// - Returns: A disposable that ends the subscription.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == PropertyType {
    events.subscribe(observer)
  }

  /// The events as an ``Observable``.
  public func asObservable() -> Observable<PropertyType> { events }

  /// Returns `self`.
  public func asControlEvent() -> ControlEvent<PropertyType> { self }
}

extension ControlEvent where PropertyType: Sendable {
  /// The events as a ``Driver``, as RxCocoa's `ControlEvent.asDriver()`.
  ///
  /// ```swift
  /// let taps: Driver<Void> = tap.asDriver()
  /// ```
  ///
  /// A failure of the events stops the program with a message (RxCocoa stops debug builds and
  /// completes in release builds).
  public func asDriver(file: StaticString = #fileID, line: UInt = #line) -> Driver<PropertyType> {
    asDriver(
      onErrorRecover: { error in controlFailed("ControlEvent", error, file: file, line: line) },
      file: file, line: line)
  }

  /// The events as a ``Signal``, as RxCocoa's `ControlEvent.asSignal()`.
  ///
  /// ```swift
  /// let taps: Signal<Void> = tap.asSignal()
  /// ```
  ///
  /// A failure of the events stops the program with a message, as in ``asDriver(file:line:)``.
  public func asSignal(file: StaticString = #fileID, line: UInt = #line) -> Signal<PropertyType> {
    asSignal(
      onErrorRecover: { error in controlFailed("ControlEvent", error, file: file, line: line) },
      file: file, line: line)
  }
}

/// Stops the program for a control event or property whose sequence failed.
func controlFailed(_ kind: String, _ error: any Error, file: StaticString, line: UInt) -> Never {
  streamsStop(
    "Streams: a \(kind) failed with \(error). A \(kind) must never fail; handle the error in "
      + "the sequence it was made from.", file: file, line: line)
}
