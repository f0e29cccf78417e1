extension ObservableType {
  /// Combines each element with `object`, held weakly, through `resultSelector`; completes once
  /// `object` is gone.
  ///
  /// ```swift
  /// final class Screen { let title = "Home" }
  /// let screen = Screen()
  /// _ = Observable.of(1, 2)
  ///   .withUnretained(screen) { owner, value in "\(owner.title) \(value)" }
  ///   .subscribe(onNext: { print($0) })
  /// // Prints "Home 1", "Home 2"
  /// ```
  ///
  /// When an element arrives after `object` was deallocated, the result completes instead of
  /// emitting, and the source is disposed. Otherwise completes and fails when the source does.
  /// Disposal disposes the source.
  ///
  /// - Parameters:
  ///   - object: The object to pass along; not retained.
  ///   - resultSelector: Combines the object and an element.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: An observable of the combined values.
  public func withUnretained<Object: AnyObject, Result>(
    _ object: Object,
    resultSelector: @escaping (Object, Element) -> Result,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Result> {
    let resultSelector = CallerIsolation(isolation, api: "withUnretained", file: file, line: line)
      .guarding(resultSelector)!
    let source = asObservable()
    return Observable(
      kind: "withUnretained", upstreams: [source.traceID], file: file, line: line
    ) { [weak object] observer in
      let sink = GuardedSink(observer)
      sink.setUpstream(
        source.subscribeNested(
          AnyObserver { [weak object] event in
            switch event {
            case .next(let element):
              guard sink.isActive else { return }
              guard let object else {
                sink.on(.completed)
                return
              }
              sink.on(.next(resultSelector(object, element)))
            case .error(let error): sink.on(.error(error))
            case .completed: sink.on(.completed)
            }
          }))
      return sink
    }
  }

  /// Pairs each element with `object`, held weakly; completes once `object` is gone.
  ///
  /// ```swift
  /// final class Screen { let title = "Home" }
  /// let screen = Screen()
  /// _ = Observable.of(1, 2).withUnretained(screen)
  ///   .subscribe(onNext: { owner, value in print(owner.title, value) })
  /// // Prints "Home 1", "Home 2"
  /// ```
  ///
  /// When an element arrives after `object` was deallocated, the result completes instead of
  /// emitting, and the source is disposed. Otherwise completes and fails when the source does.
  /// Disposal disposes the source.
  ///
  /// - Parameters:
  ///   - object: The object to pass along; not retained.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: An observable of `(object, element)` pairs.
  public func withUnretained<Object: AnyObject>(
    _ object: Object,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<(Object, Element)> {
    withUnretained(object, resultSelector: { ($0, $1) }, file: file, line: line)
  }
}
