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
  /// - Parameter error: The error to fail with.
  public static func error(
    _ error: any Error, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    Observable(kind: "error", upstreams: [], file: file, line: line) { observer in
      observer.on(.error(error))
      return Disposables.create()
    }
  }
}
