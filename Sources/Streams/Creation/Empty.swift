extension ObservableType {
  /// Completes at once, without elements.
  ///
  /// ```swift
  /// _ = Observable<Int>.empty().subscribe { print($0) }
  /// // Prints "completed"
  /// ```
  ///
  /// Completes synchronously during the subscription; never fails; disposal has nothing to stop.
  public static func empty(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element>
  {
    Observable(kind: "empty", upstreams: [], file: file, line: line) { observer in
      observer.on(.completed)
      return Disposables.create()
    }
  }
}
