extension ObservableType {
  /// Emits `initialState`, then `iterate(initialState)`, and so on while `condition` holds, like a
  /// `for` loop.
  ///
  /// ```swift
  /// _ = Observable.generate(initialState: 1, condition: { $0 < 20 }, iterate: { $0 * 3 })
  ///   .subscribe { print($0) }
  /// // Prints "next(1)", "next(3)", "next(9)", "completed"
  /// ```
  ///
  /// One step per element on the trampoline of the subscribing thread (RxSwift's default
  /// ``CurrentThreadScheduler``). Completes when `condition` returns `false`; a throw from
  /// `condition` or `iterate` becomes `.error`. Disposal stops it before the next step. Nothing
  /// leaves the subscribing thread, so neither `Element` nor the closures need be `Sendable`.
  ///
  /// - Parameters:
  ///   - initialState: The first candidate element.
  ///   - condition: Decides whether a state is emitted; `false` completes the sequence.
  ///   - scheduler: Runs the loop; only the current-thread scheduler is accepted (RxSwift's
  ///     default).
  ///   - iterate: Computes the next state from the last one.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public static func generate(
    initialState: Element, condition: @escaping (Element) throws -> Bool,
    scheduler: CurrentThreadScheduler = .instance,
    iterate: @escaping (Element) throws -> Element,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    Observable.onTrampoline(kind: "generate", file: file, line: line) {
      GenerateSteps(state: initialState, condition: condition, iterate: iterate)
    }
  }

  /// `generate(initialState:condition:iterate:)` with every step an action
  /// on `scheduler`.
  ///
  /// ```swift
  /// // TestScheduler, subscribed at 200:
  /// // Observable.generate(initialState: 0, condition: { $0 < 2 }, scheduler: scheduler,
  /// //                     iterate: { $0 + 1 })
  /// //   -> next(201, 0), next(202, 1), completed(203)
  /// ```
  ///
  /// Completes when `condition` returns `false`; a throw from `condition` or `iterate` becomes
  /// `.error`; disposal cancels the pending action. The state and the closures run on
  /// `scheduler`, so they must be `Sendable`.
  @_disfavoredOverload
  public static func generate(
    initialState: Element, condition: @escaping @Sendable (Element) throws -> Bool,
    scheduler: any ImmediateSchedulerType,
    iterate: @escaping @Sendable (Element) throws -> Element,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Element: Sendable {
    Observable.onScheduler(kind: "generate", file: file, line: line, scheduler: scheduler) {
      GenerateSteps(state: initialState, condition: condition, iterate: iterate)
    }
  }
}

/// The steps of `generate`: iterate (after the first step), test, emit.
private struct GenerateSteps<Element>: EmissionSteps {
  var state: Element
  var isFirst = true
  let condition: (Element) throws -> Bool
  let iterate: (Element) throws -> Element

  init(
    state: Element, condition: @escaping (Element) throws -> Bool,
    iterate: @escaping (Element) throws -> Element
  ) {
    self.state = state
    self.condition = condition
    self.iterate = iterate
  }

  mutating func next() -> Event<Element> {
    do {
      if isFirst {
        isFirst = false
      } else {
        state = try iterate(state)
      }
      return try condition(state) ? .next(state) : .completed
    } catch {
      return .error(error)
    }
  }
}
