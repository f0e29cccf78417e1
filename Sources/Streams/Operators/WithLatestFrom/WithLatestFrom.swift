extension ObservableType {
  /// Combines each element with the latest element of `second`, using `resultSelector`.
  ///
  /// ```swift
  /// let taps = PublishSubject<Void>(), text = PublishSubject<String>()
  /// _ = taps.withLatestFrom(text) { _, text in text.uppercased() }
  ///   .subscribe(onNext: { print($0) })
  /// taps.onNext(()); text.onNext("hi"); taps.onNext(())
  /// // Prints "HI"
  /// ```
  ///
  /// ```
  /// self:   --a---b--c-|
  /// second: -1--2-----3|
  /// result: --A---B--C-|   (A = (a, 1), B = (b, 2), C = (c, 2))
  /// ```
  ///
  /// Elements that arrive before `second` has emitted are dropped. `second` is subscribed first.
  /// Completes when this sequence completes (`second` completing only ends its subscription; its
  /// last element stays in use); fails with an error of either sequence or when `resultSelector`
  /// throws. Disposal disposes both subscriptions.
  ///
  /// - Parameters:
  ///   - second: The sequence whose latest element is used.
  ///   - resultSelector: Combines an element of this sequence with the latest of `second`.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func withLatestFrom<Source: ObservableConvertibleType, ResultType>(
    _ second: Source,
    resultSelector: @escaping (Element, Source.Element) throws -> ResultType,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<ResultType> {
    let caller = CallerIsolation(isolation, api: "withLatestFrom", file: file, line: line)
    let resultSelector = isolation == nil ? resultSelector : caller.checked(resultSelector)
    let first = asObservable()
    let second = second.asObservable()
    return Observable(
      kind: "withLatestFrom", upstreams: [first.traceID, second.traceID], file: file, line: line
    ) { observer in
      WithLatestFromSink.subscribe(
        first, second, observer: observer, resultSelector: resultSelector)
    }
  }

  /// Emits the latest element of `second` each time this sequence emits.
  ///
  /// ```swift
  /// let taps = PublishSubject<Void>(), text = PublishSubject<String>()
  /// _ = taps.withLatestFrom(text).subscribe(onNext: { print($0) })
  /// text.onNext("a"); taps.onNext(()); taps.onNext(())
  /// // Prints "a", "a"
  /// ```
  ///
  /// Completes when this sequence completes; fails with an error of either sequence. Disposal
  /// disposes both subscriptions.
  public func withLatestFrom<Source: ObservableConvertibleType>(
    _ second: Source, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Source.Element> {
    withLatestFrom(second, resultSelector: { $1 }, file: file, line: line)
  }
}
