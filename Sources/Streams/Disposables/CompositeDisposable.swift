/// A group of disposables disposed together.
///
/// ```swift
/// let composite = CompositeDisposable()
/// let key = composite.insert(Disposables.create { print("a") })
/// _ = composite.insert(Disposables.create { print("b") })
/// composite.remove(for: key!)
/// // Prints "a"
/// composite.dispose()
/// // Prints "b"
/// ```
///
/// Inserting into a disposed composite disposes the argument at once and returns `nil`.
public final class CompositeDisposable: Cancelable {
  /// The key of an inserted disposable, used to remove it.
  public struct DisposeKey: Hashable, Sendable {
    let value: UInt64
  }

  private struct State {
    var disposables: [UInt64: any Disposable] = [:]
    var order: [UInt64] = []
    var nextKey: UInt64 = 0
    var isDisposed = false
  }

  private let state = Locked(State())

  /// An empty composite.
  public init() {}

  /// A composite holding `disposables`.
  public init(disposables: [any Disposable]) {
    state.withLock { state in
      for disposable in disposables {
        state.disposables[state.nextKey] = disposable
        state.order.append(state.nextKey)
        state.nextKey += 1
      }
    }
  }

  /// A composite holding the arguments.
  public convenience init(_ disposables: any Disposable...) {
    self.init(disposables: disposables)
  }

  /// `true` once disposed.
  public var isDisposed: Bool { state.withLock { $0.isDisposed } }

  /// The number of disposables held.
  public var count: Int { state.withLock { $0.disposables.count } }

  /// Adds `disposable`; returns its key, or `nil` (after disposing it) if the composite is disposed.
  @discardableResult
  public func insert(_ disposable: any Disposable) -> DisposeKey? {
    let key = state.withLock { state -> UInt64? in
      if state.isDisposed { return nil }
      let key = state.nextKey
      state.nextKey += 1
      state.disposables[key] = disposable
      state.order.append(key)
      return key
    }
    guard let key else {
      disposable.dispose()
      return nil
    }
    return DisposeKey(value: key)
  }

  /// Removes and disposes the disposable stored for `key`.
  public func remove(for key: DisposeKey) {
    let removed = state.withLock { state -> (any Disposable)? in
      guard let removed = state.disposables.removeValue(forKey: key.value) else { return nil }
      if let index = state.order.firstIndex(of: key.value) { state.order.remove(at: index) }
      return removed
    }
    removed?.dispose()
  }

  /// Disposes everything held, in insertion order, and every later insertion.
  public func dispose() {
    let all = state.withLock { state -> [any Disposable] in
      if state.isDisposed { return [] }
      state.isDisposed = true
      let all = state.order.compactMap { state.disposables[$0] }
      state.disposables = [:]
      state.order = []
      return all
    }
    for disposable in all { disposable.dispose() }
  }
}
