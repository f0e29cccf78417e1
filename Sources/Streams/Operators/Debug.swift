extension ObservableType {
  /// Prints every subscription, event and disposal with an identifier, and passes every event
  /// through unchanged.
  ///
  /// ```swift
  /// _ = Observable.of(1).debug("numbers").subscribe()
  /// // Prints "numbers -> subscribed", "numbers -> Event next(1)",
  /// //   "numbers -> Event completed", "numbers -> isDisposed"
  /// ```
  ///
  /// Each line is `"<identifier> -> <what>"`. RxSwift starts each line with a wall-clock
  /// timestamp (`2024-01-01 12:00:00.000: `); Streams prints none, since it does not use
  /// Foundation's `Date`. `subscribed` is printed before subscribing to the source, each event
  /// before it is passed on, and `isDisposed` once, when the subscription is disposed (by a
  /// terminal event or by the subscriber).
  ///
  /// Completes and fails when the source does. Disposal disposes the source.
  ///
  /// - Parameters:
  ///   - identifier: Names the lines; defaults to `"<file>:<line> (<function>)"` of the call.
  ///   - trimOutput: Shortens event descriptions longer than 40 characters to their first and
  ///     last 20, joined by `...`.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  ///   - function: The calling function (default `#function`), named in the default identifier.
  /// - Returns: The source, with its activity printed.
  public func debug(
    _ identifier: String? = nil, trimOutput: Bool = false,
    file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
  ) -> Observable<Element> {
    debug(
      identifier, trimOutput: trimOutput, file: file, line: line, function: function,
      log: { print($0) })
  }

  /// ``debug(_:trimOutput:file:line:function:)`` writing its lines to `log` instead of standard
  /// output; tests use it to check the exact lines.
  func debug(
    _ identifier: String?, trimOutput: Bool,
    file: StaticString, line: UInt, function: StaticString,
    log: @escaping (String) -> Void
  ) -> Observable<Element> {
    let source = asObservable()
    let name = identifier ?? debugIdentifier(file: file, line: line, function: function)
    return Observable(kind: "debug", upstreams: [source.traceID], file: file, line: line) {
      observer in
      log("\(name) -> subscribed")
      let sink = GuardedSink(observer, onDisposed: { log("\(name) -> isDisposed") })
      sink.setUpstream(
        source.subscribeAny(
          AnyObserver { event in
            guard sink.isActive else { return }
            log("\(name) -> Event \(debugDescription(of: event, trimmed: trimOutput))")
            sink.on(event)
          }))
      return sink
    }
  }
}

/// `"<file name>:<line> (<function>)"`, RxSwift's default identifier.
private func debugIdentifier(file: StaticString, line: UInt, function: StaticString) -> String {
  let path = "\(file)"
  let fileName = path.split(separator: "/").last.map(String.init) ?? path
  return "\(fileName):\(line) (\(function))"
}

/// The event's description, cut to its first and last 20 characters when `trimmed` and longer
/// than 40.
private func debugDescription<Element>(of event: Event<Element>, trimmed: Bool) -> String {
  let maximumLength = 40
  let text = "\(event)"
  guard trimmed, text.count > maximumLength else { return text }
  return "\(text.prefix(maximumLength / 2))...\(text.suffix(maximumLength / 2))"
}
