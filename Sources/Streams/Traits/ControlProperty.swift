/// A type that is, or can be viewed as, a ``ControlProperty``: RxCocoa's `ControlPropertyType`.
public protocol ControlPropertyType: ObservableType, ObserverType {
  /// `self` as a ``ControlProperty``.
  func asControlProperty() -> ControlProperty<Element>
}

/// A UI property as a sequence of its values and an observer that sets it, as RxCocoa's
/// `ControlProperty`: it never fails, is subscribed on the main thread, and binding an error to
/// it is a programming error.
///
/// ```swift
/// final class Field { var text: String? }
/// let field = Field()
/// let edits = BehaviorSubject<String?>(value: nil)
/// let text = ControlProperty(values: edits, valueSink: Binder(field) { $0.text = $1 })
/// // what `textField.rx.text` is in RxCocoa
/// _ = text.orEmpty.subscribe(onNext: { print("[\($0)]") })
/// // Prints "[]"
/// ```
///
/// View models take `ControlProperty`s as inputs and bind outputs to them; a test builds them
/// from test observables and observers. The UIKit and AppKit properties that produce them are
/// not part of Streams (see the migration guide).
///
/// A subscription made off the main thread happens on the main queue's next turn, as in RxCocoa:
/// subscribe from the main thread (a `@MainActor` test) to see values synchronously. Completes
/// when the values do; disposal disposes the values' subscription, on the main thread. `.next`
/// and `.completed` sent to the property go to `valueSink`; `.error` stops the program with a
/// message naming the misuse (RxCocoa stops debug builds only).
public struct ControlProperty<PropertyType>: ControlPropertyType {
  /// The type of the values.
  public typealias Element = PropertyType

  let values: Observable<PropertyType>
  let valueSink: AnyObserver<PropertyType>

  /// A control property whose values are `values` and which is set through `valueSink`.
  ///
  /// - Parameters:
  ///   - values: The property's values (usually the current one first), subscribed on the
  ///     main thread; they must never fail.
  ///   - valueSink: Receives what is bound to the property.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public init<Values: ObservableType, Sink: ObserverType>(
    values: Values, valueSink: Sink, file: StaticString = #fileID, line: UInt = #line
  ) where Values.Element == PropertyType, Sink.Element == PropertyType {
    self.values = values.subscribe(on: ConcurrentMainScheduler.instance, file: file, line: line)
    self.valueSink = AnyObserver(valueSink)
  }

  /// Subscribes `observer` to the values.
  ///
  /// - Returns: A disposable that ends the subscription.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == PropertyType {
    values.subscribe(observer)
  }

  /// The values after the current one, as a ``ControlEvent``: RxCocoa's `changed`.
  ///
  /// ```swift
  /// // values: a-b-c   changed: --b-c
  /// let edits = property.changed
  /// ```
  public var changed: ControlEvent<PropertyType> {
    ControlEvent(events: values.skip(1))
  }

  /// The values as an ``Observable``.
  public func asObservable() -> Observable<PropertyType> { values }

  /// Returns `self`.
  public func asControlProperty() -> ControlProperty<PropertyType> { self }

  /// Sets the property: `.next` and `.completed` go to the value sink; an error stops the
  /// program with a message naming the misuse.
  public func on(_ event: Event<PropertyType>) {
    switch event {
    case .error(let error): bindingError(error)
    case .next, .completed: valueSink.on(event)
    }
  }
}

extension ControlPropertyType where Element == String? {
  /// The property with `nil` read as `""`: RxCocoa's `orEmpty`, for text fields.
  ///
  /// ```swift
  /// // text: nil-"a"-   text.orEmpty: ""-"a"-
  /// let query: Observable<String> = searchField.rx.text.orEmpty.asObservable()
  /// ```
  ///
  /// Values written to it are written to the original property.
  public var orEmpty: ControlProperty<String> {
    let original = asControlProperty()
    return ControlProperty(
      raw: original.values.map { $0 ?? "" },
      valueSink: AnyObserver<String> { event in original.valueSink.on(event.map { $0 }) })
  }
}

extension ControlProperty {
  /// A control property over values that are already subscribed on the main thread.
  init(raw values: Observable<PropertyType>, valueSink: AnyObserver<PropertyType>) {
    self.values = values
    self.valueSink = valueSink
  }
}

extension ControlProperty where PropertyType: Sendable {
  /// The values as a ``Driver``, as RxCocoa's `ControlProperty.asDriver()`.
  ///
  /// ```swift
  /// let query: Driver<String> = searchField.rx.text.orEmpty.asDriver()
  /// ```
  ///
  /// A failure of the values stops the program with a message (RxCocoa stops debug builds and
  /// completes in release builds).
  public func asDriver(file: StaticString = #fileID, line: UInt = #line) -> Driver<PropertyType> {
    asDriver(
      onErrorRecover: { error in controlFailed("ControlProperty", error, file: file, line: line) },
      file: file, line: line)
  }
}
