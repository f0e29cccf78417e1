extension ObservableConvertibleType where Element: Sendable {
  /// Subscribes, waits for the first element and disposes the subscription: RxBlocking's
  /// `first()` for async code.
  ///
  /// ```swift
  /// let first = try await Observable.of(1, 2, 3).firstValue
  /// print(first as Any)
  /// // Prints "Optional(1)"
  /// ```
  ///
  /// Returns `nil` when the sequence completes empty and throws its error when it fails first.
  /// The subscription is made in the caller's isolation (the getter is
  /// `nonisolated(nonsending)`, so a main-actor caller stays on the main actor) and disposed as
  /// soon as the first element arrives; later elements are ignored. Cancelling the waiting task
  /// disposes the subscription and throws `CancellationError`: the continuation is never leaked.
  ///
  /// The answer is the first element the subscription receives, even when it arrives between
  /// the subscription and the moment the task suspends to wait (another thread may send at any
  /// time): the iterator keeps one element for it (`.bufferingOldest(1)`), so `0` is returned for
  /// a sequence sending `0, 1, 2`, never a later element.
  ///
  /// Named `firstValue` rather than RxSwift's operator name `first()`, which returns a `Single`.
  public nonisolated(nonsending) var firstValue: Element? {
    get async throws {
      // Not `.bufferingOldest(0)`: an element arriving after `subscribe` returned but before the
      // continuation is stored would be dropped, and a later one returned as the "first".
      var iterator = values(bufferingPolicy: .bufferingOldest(1)).makeAsyncIterator()
      if let element = try await iterator.next(isolation: #isolation) { return element }
      if iterator.wasCancelled { throw CancellationError() }
      return nil
    }
  }

  /// Subscribes, waits for completion and returns the last element: RxBlocking's `last()` for
  /// async code.
  ///
  /// ```swift
  /// let last = try await Observable.of(1, 2, 3).lastValue
  /// print(last as Any)
  /// // Prints "Optional(3)"
  /// ```
  ///
  /// Returns `nil` when the sequence completes empty and throws its error when it fails. Only the
  /// newest element is kept while waiting (memory stays constant for a long sequence). The
  /// subscription is made in the caller's isolation. Cancelling the waiting task disposes the
  /// subscription and throws `CancellationError`.
  public nonisolated(nonsending) var lastValue: Element? {
    get async throws {
      var iterator = values(bufferingPolicy: .bufferingNewest(1)).makeAsyncIterator()
      var last: Element?
      while let element = try await iterator.next(isolation: #isolation) { last = element }
      if iterator.wasCancelled { throw CancellationError() }
      return last
    }
  }
}
