extension ObservableType {
  /// Calls `observableFactory` for every subscription and subscribes to the observable it returns.
  ///
  /// ```swift
  /// var calls = 0
  /// let counted = Observable.deferred { calls += 1; return Observable.just(calls) }
  /// _ = counted.subscribe(onNext: { print($0) })
  /// _ = counted.subscribe(onNext: { print($0) })
  /// // Prints "1", "2"
  /// ```
  ///
  /// Completes and fails as the created observable does; a throw from `observableFactory` becomes
  /// `.error`. Disposal disposes the subscription to the created observable.
  ///
  /// - Parameters:
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  ///   - observableFactory: Runs once per subscription, on the subscribing thread.
  public static func deferred(
    file: StaticString = #fileID, line: UInt = #line,
    _ observableFactory: @escaping () throws -> Observable<Element>
  ) -> Observable<Element> {
    Observable(kind: "deferred", upstreams: [], file: file, line: line) { observer in
      let source: Observable<Element>
      do {
        source = try observableFactory()
      } catch {
        observer.on(.error(error))
        return Disposables.create()
      }
      return source.subscribeAny(observer)
    }
  }
}
