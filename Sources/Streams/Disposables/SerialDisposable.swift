/// A disposable whose underlying disposable can be replaced; replacing disposes the previous one.
///
/// ```swift
/// let serial = SerialDisposable()
/// serial.disposable = Disposables.create { print("first") }
/// serial.disposable = Disposables.create { print("second") }
/// // Prints "first"
/// serial.dispose()
/// // Prints "second"
/// ```
///
/// After `dispose()`, a newly assigned disposable is disposed immediately.
public final class SerialDisposable: Cancelable {
  private struct State {
    var current: (any Disposable)?
    var isDisposed = false
  }

  private let state = Locked(State())

  /// An empty serial disposable.
  public init() {}

  /// `true` once disposed.
  public var isDisposed: Bool { state.withLock { $0.isDisposed } }

  /// The current underlying disposable. Setting it disposes the previous one (outside the lock).
  public var disposable: any Disposable {
    get { state.withLock { $0.current } ?? Disposables.create() }
    set {
      let (old, disposeNew) = state.withLock { state -> ((any Disposable)?, Bool) in
        if state.isDisposed { return (nil, true) }
        defer { state.current = newValue }
        return (state.current, false)
      }
      old?.dispose()
      if disposeNew { newValue.dispose() }
    }
  }

  /// Disposes the current disposable and every later one.
  public func dispose() {
    let old = state.withLock { state -> (any Disposable)? in
      if state.isDisposed { return nil }
      state.isDisposed = true
      defer { state.current = nil }
      return state.current
    }
    old?.dispose()
  }
}
