/// The sources' subscriptions of one `combineLatest` or `zip` subscription, one slot per source
/// in subscription order, shared by ``TypedCombineStateMachine`` (two or three sources, typed)
/// and ``CombineStateMachine`` (any number, boxed), which keep it beside their state.
///
/// A slot is filled when the source's `subscribe` returns, which may be after the source
/// completed, and released when the source completes or the subscription ends
/// (``UpstreamDisposable``). While a combination runs, a source has completed exactly when its
/// slot is released.
@usableFromInline
struct CombineSubscriptions {
  @usableFromInline var slots: [UpstreamDisposable]

  /// `count` sources, none subscribed yet.
  @inlinable
  init(count: Int) {
    slots = Array(repeating: .pending, count: count)
  }

  /// Whether source `index`'s slot is released: the source completed (or, once the combination
  /// ended, was let go).
  @inlinable
  func isReleased(_ index: Int) -> Bool {
    if case .released = slots[index] { return true }
    return false
  }

  /// Stores source `index`'s subscription; returns it back when it must be disposed at once
  /// (the source already completed).
  @inlinable
  mutating func store(_ index: Int, _ disposable: any Disposable) -> (any Disposable)? {
    slots[index].store(disposable)
  }

  /// Releases source `index`'s slot; returns its subscription to dispose, if it returned.
  @inlinable
  mutating func release(_ index: Int) -> (any Disposable)? {
    slots[index].release()
  }

  /// Releases every slot; returns the subscriptions to dispose, in subscription order.
  @inlinable
  mutating func releaseAll() -> [any Disposable] {
    var all: [any Disposable] = []
    for index in slots.indices {
      if let disposable = slots[index].release() { all.append(disposable) }
    }
    return all
  }
}
