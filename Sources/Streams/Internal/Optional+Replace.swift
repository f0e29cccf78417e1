extension Optional {
  /// Stores `newValue` and hands back the value it replaced, without releasing it.
  ///
  /// For lock-guarded state that keeps a latest element (`combineLatest`, `withLatestFrom`,
  /// `sample`, `debounce`, `throttle`): the replaced element leaves the critical section and is
  /// released after unlocking, since its `deinit` is user code that may re-enter the operator.
  ///
  /// ```swift
  /// let replaced = state.withLock { $0.latest.replace(with: element) }
  /// withExtendedLifetime(replaced) {}  // released here, after the lock
  /// ```
  @inlinable
  mutating func replace(with newValue: Wrapped) -> Wrapped? {
    let replaced = take()
    self = newValue
    return replaced
  }
}
