/// A resource that can be released: a subscription, a scheduled action.
///
/// Disposing is idempotent and may happen on any thread, which is why a disposable is `Sendable`.
public protocol Disposable: Sendable {
  /// Releases the resource. Calling it again does nothing.
  func dispose()
}

/// A disposable that can tell whether it has been disposed.
public protocol Cancelable: Disposable {
  /// `true` once ``Disposable/dispose()`` has been called.
  var isDisposed: Bool { get }
}
