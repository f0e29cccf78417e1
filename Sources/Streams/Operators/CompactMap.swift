extension ObservableType {
  /// Transforms each element with `transform` and emits only the non-`nil` results.
  ///
  /// ```swift
  /// _ = Observable.of("1", "x", "3").compactMap { Int($0) }.subscribe(onNext: { print($0) })
  /// // Prints "1", "3"
  /// ```
  ///
  /// Completes and fails when the source does; a throw from `transform` becomes `.error` and
  /// disposes the source. Disposal disposes the source.
  ///
  /// - Parameters:
  ///   - transform: Called once per element; returning `nil` drops the element.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: An observable of the non-`nil` results of `transform`.
  @inlinable
  public func compactMap<Result>(
    _ transform: @escaping (Element) throws -> Result?,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Result> {
    let caller = CallerIsolation(isolation, api: "compactMap", file: file, line: line)
    let transform = isolation == nil ? transform : caller.checked(transform)
    return stage(CompactMapStep(transform), kind: "compactMap", file: file, line: line)
  }
}
