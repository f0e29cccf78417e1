extension ObservableType {
  /// Fails at once with `error`.
  ///
  /// ```swift
  /// _ = Observable<Int>.error(RxError.unknown).subscribe(onError: { print($0) })
  /// // Prints "Unknown error occurred."
  /// ```
  ///
  /// Fails synchronously during the subscription; never emits or completes.
  ///
  /// - Parameters:
  ///   - error: The error to fail with.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public static func error(
    _ error: any Error, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    Observable(kind: "error", upstreams: [], file: file, line: line) { observer in
      observer.on(.error(error))
      return Disposables.create()
    }
  }
}
