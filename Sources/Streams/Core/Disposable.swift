/// A resource that can be released: a subscription, a scheduled action.
///
/// Disposing is idempotent and may happen on any thread, which is why a disposable is `Sendable`.
///
/// Unlike RxSwift's, this protocol is class-bound: a disposable is an object. Every subscription
/// hands its disposable up the chain of operators and stores it there, and a class-bound
/// existential is one reference (retained and released directly, `nil` for free in an optional)
/// where an unconstrained one is a five-word box moved through value witnesses. That was about a
/// sixth of the cost of subscribing and disposing a three-operator chain. Code that conformed a
/// struct to `Disposable` makes it a `final class`, or returns
/// `Disposables.create { ... }`; the compiler names each such type.
public protocol Disposable: AnyObject, Sendable {
  /// Releases the resource. Calling it again does nothing.
  func dispose()
}

/// A disposable that can tell whether it has been disposed.
public protocol Cancelable: Disposable {
  /// `true` once ``Disposable/dispose()`` has been called.
  var isDisposed: Bool { get }
}
