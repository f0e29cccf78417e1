/// A disposable whose underlying disposable is set exactly once, possibly after it was disposed.
///
/// ```swift
/// let single = SingleAssignmentDisposable()
/// single.dispose()
/// single.setDisposable(Disposables.create { print("disposed on set") })
/// // Prints "disposed on set"
/// ```
///
/// Setting it twice is a programming error and stops the program with a message that says so.
public final class SingleAssignmentDisposable: Cancelable {
  @usableFromInline
  enum State {
    case empty
    case set(any Disposable)
    case disposedBeforeSet
    case disposed
  }

  @usableFromInline let state: Locked<State>

  /// An empty disposable; call ``setDisposable(_:)`` once.
  @inlinable
  public init() {
    state = Locked(.empty)
  }

  /// `true` once disposed.
  public var isDisposed: Bool {
    state.withLock {
      switch $0 {
      case .disposed, .disposedBeforeSet: return true
      case .empty, .set: return false
      }
    }
  }

  /// Sets the underlying disposable; if this was already disposed, disposes `disposable` at once.
  @inlinable
  public func setDisposable(_ disposable: any Disposable) {
    let disposeNow = state.withLock { state -> Bool in
      switch state {
      case .empty:
        state = .set(disposable)
        return false
      case .disposedBeforeSet:
        state = .disposed
        return true
      case .set, .disposed:
        preconditionFailure(
          "SingleAssignmentDisposable.setDisposable called twice: a single-assignment disposable "
            + "takes exactly one disposable")
      }
    }
    if disposeNow { disposable.dispose() }
  }

  /// Disposes the underlying disposable, now or when it is set.
  @inlinable
  public func dispose() {
    let toDispose = state.withLock { state -> (any Disposable)? in
      switch state {
      case .empty:
        state = .disposedBeforeSet
        return nil
      case .set(let disposable):
        state = .disposed
        return disposable
      case .disposedBeforeSet, .disposed:
        return nil
      }
    }
    toDispose?.dispose()
  }
}
