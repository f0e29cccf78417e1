extension ObservableType {
  /// Transforms each element with `transform`.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3).map { $0 * 10 }.subscribe(onNext: { print($0) })
  /// // Prints "10", "20", "30"
  /// ```
  ///
  /// Completes and fails when the source does; a throw from `transform` becomes `.error` and
  /// disposes the source. Disposal disposes the source.
  ///
  /// - Parameters:
  ///   - transform: Called once per element.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  @inlinable
  public func map<Result>(
    _ transform: @escaping (Element) throws -> Result,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Result> {
    let caller = CallerIsolation(isolation, api: "map", file: file, line: line)
    let transform = isolation == nil ? transform : caller.checked(transform)
    return stage(MapStep(transform), kind: "map", file: file, line: line)
  }
}
