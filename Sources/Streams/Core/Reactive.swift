#if canImport(ObjectiveC)
  import ObjectiveC
#endif

/// The namespace of a type's reactive extensions, as RxSwift's `Reactive`: `view.rx.title`,
/// `Type.rx.something`.
///
/// ```swift
/// final class Counter: ReactiveCompatible { var value = 0 }
/// let counter = Counter()
/// _ = Observable.of(1, 2).bind(to: counter.rx.value)  // a Binder<Int> through the key path
/// // counter.value == 2 (once the main scheduler has run the bindings)
/// ```
///
/// Add members in an extension constrained on `Base`, as with RxSwift:
///
/// ```swift
/// extension Reactive where Base: Counter {
///   var reset: Binder<Void> { Binder(base) { counter, _ in counter.value = 0 } }
/// }
/// ```
///
/// Every writable property of a class is a ``Binder`` through `@dynamicMemberLookup`: see
/// ``subscript(dynamicMember:)``.
@dynamicMemberLookup
public struct Reactive<Base> {
  /// The extended value.
  public let base: Base

  /// The reactive extensions of `base`.
  ///
  /// - Parameter base: The extended value.
  public init(_ base: Base) {
    self.base = base
  }

  /// A ``Binder`` that writes each element to the property at `keyPath` of ``base``, on the main
  /// scheduler, as RxSwift's key-path binder.
  ///
  /// ```swift
  /// final class Label: ReactiveCompatible { var text: String? }
  /// let label = Label()
  /// _ = Observable.just("Hello").bind(to: label.rx.text)
  /// // label.text == "Hello" (on the main thread)
  /// ```
  ///
  /// The binder holds ``base`` weakly: once it is gone, elements are dropped. It ignores
  /// completion and stops the program on an error, as every ``Binder`` does. Elements cross to
  /// the main scheduler, so `Property` is `Sendable` (a Swift 6 rule RxSwift does not have).
  ///
  /// - Parameter keyPath: The property to write.
  public subscript<Property: Sendable>(
    dynamicMember keyPath: ReferenceWritableKeyPath<Base, Property>
  ) -> Binder<Property> where Base: AnyObject {
    Binder(base) { base, value in
      base[keyPath: keyPath] = value
    }
  }
}

extension Reactive: Sendable where Base: Sendable {}

/// A type with reactive extensions under `.rx`, as RxSwift's `ReactiveCompatible`.
///
/// ```swift
/// final class Player: ReactiveCompatible { var volume = 0 }
/// let volume: Binder<Int> = Player().rx.volume
/// let namespace: Reactive<Player>.Type = Player.rx
/// ```
///
/// Conforming needs no code: the default ``rx-swift.property`` returns `Reactive(self)`, and
/// the static ``rx-swift.type.property`` returns the `Reactive<Self>` type. Their setters exist
/// so that `.rx` can be used on a `var` with mutating extensions, as in RxSwift; they do
/// nothing. On Apple platforms `NSObject` conforms, as in RxSwift, so UIKit and AppKit
/// classes have `.rx`.
public protocol ReactiveCompatible {
  /// The type whose extensions `.rx` gives; `Self` in the default implementation.
  associatedtype ReactiveBase

  /// The reactive extensions of the type.
  static var rx: Reactive<ReactiveBase>.Type { get set }

  /// The reactive extensions of the value.
  var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
  /// The reactive extensions of the type: `Reactive<Self>.self`. Setting it does nothing.
  public static var rx: Reactive<Self>.Type {
    get { Reactive<Self>.self }
    set {}
  }

  /// The reactive extensions of the value: `Reactive(self)`. Setting it does nothing.
  public var rx: Reactive<Self> {
    get { Reactive(self) }
    set {}
  }
}

#if canImport(ObjectiveC)
  extension NSObject: ReactiveCompatible {}
#endif
