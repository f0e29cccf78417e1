extension StateCell where Value: Sendable {
  /// The current value, then every value stored after it, in order; the sequence ends when the
  /// cell is deinitialized. Values are buffered without limit: a slow reader sees every value.
  ///
  /// ```swift
  /// for await block in state.contentAlpha.values {
  ///   print(block.title)
  /// }
  /// ```
  public var values: AsyncStream<Value> { values(bufferingPolicy: .unbounded) }

  /// The current value, then the values stored after it, buffered by `bufferingPolicy`
  /// (`.bufferingNewest(1)` keeps only the latest value a slow reader has not taken yet).
  ///
  /// The sequence ends when the cell is deinitialized. When the reader stops (its task is
  /// cancelled, or the loop breaks and the sequence is released), the cell lets go of the
  /// sequence on the next main-actor turn.
  public func values(
    bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy
  ) -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Value.self, bufferingPolicy: bufferingPolicy)
    continuation.yield(storage)
    let observation = observers.add(
      onChange: { continuation.yield($0) }, onEnd: { continuation.finish() })
    continuation.onTermination = { _ in
      Task { @MainActor in observation.cancel() }
    }
    return stream
  }
}
