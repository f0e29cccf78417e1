extension ObservableType {
  /// Folds every element into an accumulated value and emits `mapResult` of the final value when
  /// the source completes.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3)
  ///   .reduce(0, accumulator: +, mapResult: { "sum: \($0)" })
  ///   .subscribe(onNext: { print($0) })
  /// // Prints "sum: 6"
  /// ```
  ///
  /// Emits exactly one element, right before completing, when the source completes (an empty
  /// source yields `mapResult(seed)`). Fails when the source fails or when `accumulator` or
  /// `mapResult` throws; a throw disposes the source. Disposal disposes the source.
  ///
  /// - Parameters:
  ///   - seed: The initial accumulated value of each subscription.
  ///   - accumulator: Returns the new accumulated value from the previous one and an element.
  ///   - mapResult: Turns the final accumulated value into the result.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: An observable of a single result.
  @inlinable
  public func reduce<Accumulate, Result>(
    _ seed: Accumulate,
    accumulator: @escaping (Accumulate, Element) throws -> Accumulate,
    mapResult: @escaping (Accumulate) throws -> Result,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Result> {
    let caller = CallerIsolation(isolation, api: "reduce", file: file, line: line)
    let accumulator = isolation == nil ? accumulator : caller.checked(accumulator)
    let mapResult = isolation == nil ? mapResult : caller.checked(mapResult)
    let source = asObservable()
    return Observable(kind: "reduce", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let accumulated = ReduceAccumulator(seed)
      let sink = GuardedSink(observer)
      sink.setUpstream(
        source.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next(let element):
              guard sink.isActive else { return }
              do {
                accumulated.value = try accumulator(accumulated.value, element)
              } catch {
                sink.on(.error(error))
              }
            case .error(let error):
              sink.on(.error(error))
            case .completed:
              guard sink.isActive else { return }
              do {
                sink.on(.next(try mapResult(accumulated.value)))
                sink.on(.completed)
              } catch {
                sink.on(.error(error))
              }
            }
          }))
      return sink
    }
  }

  /// Folds every element into an accumulated value and emits the final value when the source
  /// completes.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3).reduce(10, accumulator: +).subscribe(onNext: { print($0) })
  /// // Prints "16"
  /// ```
  ///
  /// Emits exactly one element, right before completing, when the source completes (an empty
  /// source yields `seed`). Fails when the source fails or `accumulator` throws; a throw disposes
  /// the source. Disposal disposes the source.
  ///
  /// - Parameters:
  ///   - seed: The initial accumulated value of each subscription.
  ///   - accumulator: Returns the new accumulated value from the previous one and an element.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: An observable of a single result.
  @inlinable
  public func reduce<Accumulate>(
    _ seed: Accumulate,
    accumulator: @escaping (Accumulate, Element) throws -> Accumulate,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Accumulate> {
    // Only the caller's closure is checked; `mapResult` here is the library's own.
    let caller = CallerIsolation(isolation, api: "reduce", file: file, line: line)
    return reduce(
      seed, accumulator: isolation == nil ? accumulator : caller.checked(accumulator),
      mapResult: { $0 }, isolation: nil,
      file: file, line: line)
  }
}

/// The accumulated value of one `reduce` subscription.
///
/// A class rather than a captured `var` so that it can opt out of dynamic exclusivity checking,
/// which cost about 75 instructions per element: the value is only touched by the subscription's
/// observer, whose calls are serial, and each access (a read before `accumulator` is called, a
/// write after it returns) ends before any other can begin, even if `accumulator` re-enters.
@usableFromInline
final class ReduceAccumulator<Value> {
  @exclusivity(unchecked) @usableFromInline var value: Value

  @inlinable
  init(_ value: Value) {
    self.value = value
  }
}
