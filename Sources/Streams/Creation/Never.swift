extension ObservableType {
  /// Never emits anything and never terminates.
  ///
  /// ```swift
  /// let subscription = Observable<Int>.never().subscribe { print($0) }
  /// subscription.dispose()
  /// // Prints nothing
  /// ```
  ///
  /// Never completes or fails; disposal ends the subscription.
  public static func never(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element>
  {
    Observable(kind: "never", upstreams: [], file: file, line: line) { _ in
      Disposables.create()
    }
  }
}
