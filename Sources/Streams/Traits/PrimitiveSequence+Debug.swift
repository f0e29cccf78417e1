extension PrimitiveSequence {
  /// Prints the subscription, the event and the disposal with an identifier, and passes the
  /// event through unchanged, as RxSwift's `debug` on a trait.
  ///
  /// ```swift
  /// _ = Single.just(1).debug("answer").subscribe()
  /// // Prints "answer -> subscribed", "answer -> Event next(1)",
  /// //   "answer -> Event completed", "answer -> isDisposed"
  /// ```
  ///
  /// The lines show the underlying observable's events: a success is `next` then `completed`, as
  /// in RxSwift; like ``ObservableType/debug(_:trimOutput:file:line:function:)`` they carry no
  /// timestamp. Succeeds, completes and fails as the source does. Disposal disposes the source.
  ///
  /// - Parameters:
  ///   - identifier: Names the lines; defaults to `"<file>:<line> (<function>)"` of the call.
  ///   - trimOutput: Shortens event descriptions longer than 40 characters.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  ///   - function: The calling function (default `#function`), named in the default identifier.
  public func debug(
    _ identifier: String? = nil, trimOutput: Bool = false,
    file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
  ) -> PrimitiveSequence<Trait, Element> {
    debug(
      identifier, trimOutput: trimOutput, file: file, line: line, function: function,
      log: { print($0) })
  }

  /// ``debug(_:trimOutput:file:line:function:)`` writing its lines to `log`; tests use it.
  func debug(
    _ identifier: String?, trimOutput: Bool,
    file: StaticString, line: UInt, function: StaticString,
    log: @escaping (String) -> Void
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(
      raw: source.debug(
        identifier, trimOutput: trimOutput, file: file, line: line, function: function, log: log))
  }
}
