extension ObservableType {
  /// Applies `accumulator` to each element, updating a running state in place, and emits the
  /// state after every element.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3)
  ///   .scan(into: [Int]()) { history, value in history.append(value) }
  ///   .subscribe(onNext: { print($0) })
  /// // Prints "[1]", "[1, 2]", "[1, 2, 3]"
  /// ```
  ///
  /// Every subscription starts again from `seed`. The seed itself is not emitted. Completes and
  /// fails when the source does; a throw from `accumulator` becomes `.error` and disposes the
  /// source. Disposal disposes the source.
  ///
  /// - Parameters:
  ///   - seed: The initial state of each subscription.
  ///   - accumulator: Called once per element with the state to update.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: An observable of the successive states.
  @inlinable
  public func scan<State>(
    into seed: State,
    accumulator: @escaping (inout State, Element) throws -> Void,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<State> {
    let caller = CallerIsolation(isolation, api: "scan", file: file, line: line)
    let accumulator = isolation == nil ? accumulator : caller.checked(accumulator)
    return stage(ScanStep(seed, accumulator), kind: "scan", file: file, line: line)
  }

  /// Applies `accumulator` to each element and the previous state, and emits each new state.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3).scan(0) { sum, value in sum + value }
  ///   .subscribe(onNext: { print($0) })
  /// // Prints "1", "3", "6"
  /// ```
  ///
  /// Every subscription starts again from `seed`. The seed itself is not emitted. Completes and
  /// fails when the source does; a throw from `accumulator` becomes `.error` and disposes the
  /// source. Disposal disposes the source.
  ///
  /// - Parameters:
  ///   - seed: The initial state of each subscription.
  ///   - accumulator: Returns the new state from the previous state and an element.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: An observable of the successive states.
  @inlinable
  public func scan<State>(
    _ seed: State,
    accumulator: @escaping (State, Element) throws -> State,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<State> {
    scan(
      into: seed,
      accumulator: { state, element in state = try accumulator(state, element) },
      isolation: isolation, file: file, line: line)
  }
}

/// `scan`: folds each element into the state and forwards the state.
@usableFromInline
struct ScanStep<Element, State>: StageStep {
  @usableFromInline var state: State
  @usableFromInline let accumulator: (inout State, Element) throws -> Void

  @inlinable
  init(_ seed: State, _ accumulator: @escaping (inout State, Element) throws -> Void) {
    self.state = seed
    self.accumulator = accumulator
  }

  @inlinable
  mutating func apply(_ input: Element) throws -> StageOutput<State> {
    try accumulator(&state, input)
    return .emit(state)
  }
}
