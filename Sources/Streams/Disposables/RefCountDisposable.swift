/// Disposes its underlying disposable once it was disposed and every retained handle was disposed.
///
/// ```swift
/// let refCount = RefCountDisposable(disposable: Disposables.create { print("released") })
/// let handle = refCount.retain()
/// refCount.dispose()
/// handle.dispose()
/// // Prints "released"
/// ```
public final class RefCountDisposable: Cancelable {
  private struct State {
    var disposable: (any Disposable)?
    var primaryDisposed = false
    var count = 0
  }

  private let state: Locked<State>

  /// Wraps `disposable`.
  public init(disposable: any Disposable) {
    state = Locked(State(disposable: disposable))
  }

  /// `true` once the underlying disposable was released.
  public var isDisposed: Bool { state.withLock { $0.disposable == nil } }

  /// Returns a handle that keeps the underlying disposable alive until it is disposed.
  public func retain() -> any Disposable {
    let alive = state.withLock { state -> Bool in
      guard state.disposable != nil else { return false }
      state.count += 1
      return true
    }
    guard alive else { return Disposables.create() }
    return AnonymousDisposable { [self] in release() }
  }

  private func release() {
    let toDispose = state.withLock { state -> (any Disposable)? in
      guard state.disposable != nil else { return nil }
      if state.count <= 0 { streamsStop("RefCountDisposable released more often than retained") }
      state.count -= 1
      guard state.primaryDisposed, state.count == 0 else { return nil }
      defer { state.disposable = nil }
      return state.disposable
    }
    toDispose?.dispose()
  }

  /// Marks the primary disposal; the underlying disposable goes when no handle is left.
  public func dispose() {
    let toDispose = state.withLock { state -> (any Disposable)? in
      guard state.disposable != nil, !state.primaryDisposed else { return nil }
      state.primaryDisposed = true
      guard state.count == 0 else { return nil }
      defer { state.disposable = nil }
      return state.disposable
    }
    toDispose?.dispose()
  }
}
