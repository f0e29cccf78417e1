/// The disposable of one upstream subscription, which may be needed before `subscribe` returned.
@usableFromInline
enum UpstreamDisposable {
  /// `subscribe` has not returned yet.
  case pending
  /// The subscription's disposable.
  case set(any Disposable)
  /// The subscription ended (or must end): a disposable that arrives later is disposed at once.
  case released

  /// Stores `disposable`; returns it back when it must be disposed at once.
  @inlinable
  mutating func store(_ disposable: any Disposable) -> (any Disposable)? {
    switch self {
    case .pending:
      self = .set(disposable)
      return nil
    case .released:
      return disposable
    case .set:
      preconditionFailure("Streams internal error: upstream disposable stored twice")
    }
  }

  /// `true` while it holds a subscription's disposable.
  @inlinable
  var isSet: Bool {
    switch self {
    case .set: return true
    case .pending, .released: return false
    }
  }

  /// Marks the subscription ended; returns the disposable to dispose, if it is known.
  @inlinable
  mutating func release() -> (any Disposable)? {
    defer { self = .released }
    if case .set(let disposable) = self { return disposable }
    return nil
  }
}
