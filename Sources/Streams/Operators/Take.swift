extension ObservableType {
  /// Emits the first `count` elements, then completes.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3).take(2).subscribe { print($0) }
  /// // Prints "next(1)", "next(2)", "completed"
  /// ```
  ///
  /// Completes right after the `count`th element (disposing the source) or when the source
  /// completes earlier; fails when the source fails first. `take(0)` completes at once without
  /// subscribing to the source. Disposal disposes the source. A negative `count` stops the
  /// program with a message naming the misuse.
  ///
  /// - Parameters:
  ///   - count: How many elements to take.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  @inlinable
  public func take(_ count: Int, file: StaticString = #fileID, line: UInt = #line)
    -> Observable<Element>
  {
    if count < 0 { streamsStop("take(_:): count can't be negative (got \(count))") }
    let source = asObservable()
    if count == 0 {
      return Observable(kind: "take", upstreams: [source.traceID], file: file, line: line) {
        observer in
        observer.on(.completed)
        return Disposables.create()
      }
    }
    return stage(TakeCountStep(remaining: count), kind: "take", file: file, line: line)
  }

  /// Emits elements while `predicate` holds, then completes.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3, 1).take(while: { $0 < 3 }).subscribe { print($0) }
  /// // Prints "next(1)", "next(2)", "completed"
  /// ```
  ///
  /// Completes at the first element for which `predicate` returns `false` (which is emitted
  /// before the completion with `behavior: .inclusive`), disposing the source, or when the source
  /// completes; a throw from `predicate` becomes `.error`. Disposal disposes the source.
  ///
  /// - Parameters:
  ///   - predicate: Called for each element until it returns `false`.
  ///   - behavior: Whether the first element that fails `predicate` is emitted.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  @inlinable
  public func take(
    while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let caller = CallerIsolation(isolation, api: "take(while:)", file: file, line: line)
    let predicate = isolation == nil ? predicate : caller.checked(predicate)
    return takeUntilPredicate(kind: "take(while:)", behavior: behavior, file: file, line: line) {
      try !predicate($0)
    }
  }

  /// Emits elements until `predicate` holds for one, then completes.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3, 4).take(until: { $0 == 3 }, behavior: .inclusive)
  ///   .subscribe { print($0) }
  /// // Prints "next(1)", "next(2)", "next(3)", "completed"
  /// ```
  ///
  /// Completes at the first element for which `predicate` returns `true` (emitted before the
  /// completion only with `behavior: .inclusive`), disposing the source, or when the source
  /// completes; a throw from `predicate` becomes `.error`. Disposal disposes the source.
  ///
  /// - Parameters:
  ///   - predicate: Called for each element until it returns `true`.
  ///   - behavior: Whether the element that satisfies `predicate` is emitted.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  @inlinable
  public func take(
    until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let caller = CallerIsolation(isolation, api: "take(until:)", file: file, line: line)
    let predicate = isolation == nil ? predicate : caller.checked(predicate)
    return takeUntilPredicate(
      kind: "take(until:)", behavior: behavior, file: file, line: line, predicate)
  }

  @inlinable
  func takeUntilPredicate(
    kind: StaticString, behavior: TakeBehavior, file: StaticString, line: UInt,
    _ stop: @escaping (Element) throws -> Bool
  ) -> Observable<Element> {
    stage(
      TakeUntilStep(stop, inclusive: behavior == .inclusive), kind: kind, file: file, line: line)
  }

  /// Emits the source's elements until `other` emits an element, then completes.
  ///
  /// ```swift
  /// let stop = PublishSubject<Void>()
  /// let values = PublishSubject<Int>()
  /// _ = values.take(until: stop).subscribe { print($0) }
  /// values.onNext(1)
  /// stop.onNext(())
  /// values.onNext(2)
  /// // Prints "next(1)", "completed"
  /// ```
  ///
  /// `other` is subscribed first, then the source. Completes when `other` emits (disposing both)
  /// or when the source completes; fails when either fails. When `other` completes without
  /// emitting, only its subscription ends and the source goes on. Disposal disposes both, the
  /// source first (as RxSwift does).
  ///
  /// Events from the two sequences may come from different threads. Streams serializes them
  /// without a lock held around delivery: a completion triggered by `other` while a source
  /// element is being delivered is delivered right after that element, on the source's thread
  /// (RxSwift delivers it on `other`'s thread after waiting on a recursive lock).
  @inlinable
  public func take<Other: ObservableType>(
    until other: Other, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    let trigger = other.asObservable()
    return Observable(
      kind: "take(until:)", upstreams: [source.traceID, trigger.traceID], file: file, line: line
    ) { observer in
      let sink = GuardedSink(observer)
      let gate = UntilGate(sink)
      let otherSubscription = SingleAssignmentDisposable()
      otherSubscription.setDisposable(
        trigger.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next: gate.terminate(.completed)
            case .error(let error): gate.terminate(.error(error))
            case .completed: otherSubscription.dispose()
            }
          }))
      let sourceSubscription = source.subscribeNested(
        AnyObserver { event in
          switch event {
          case .next: gate.forward(event)
          case .error, .completed: gate.terminate(event)
          }
        })
      // The source is disposed before `other`, as in RxSwift. A sequence that ended while being
      // subscribed has stopped the sink, which then disposes both at once.
      sink.setUpstream(Disposables.create(sourceSubscription, otherSubscription))
      return sink
    }
  }

  /// Renamed ``take(while:behavior:isolation:file:line:)``.
  @available(*, deprecated, renamed: "take(while:)")
  public func takeWhile(
    _ predicate: @escaping (Element) throws -> Bool, isolation: (any Actor)? = #isolation
  ) -> Observable<Element> {
    take(while: predicate, isolation: isolation)
  }

  /// Renamed ``take(until:file:line:)``.
  @available(*, deprecated, renamed: "take(until:)")
  public func takeUntil<Other: ObservableType>(_ other: Other) -> Observable<Element> {
    take(until: other)
  }

  /// Renamed ``take(until:behavior:isolation:file:line:)``.
  @available(*, deprecated, renamed: "take(until:behavior:)")
  public func takeUntil(
    _ behavior: TakeBehavior, predicate: @escaping (Element) throws -> Bool,
    isolation: (any Actor)? = #isolation
  ) -> Observable<Element> {
    take(until: predicate, behavior: behavior, isolation: isolation)
  }
}

/// Whether the element that ends `take(while:)` or `take(until:)` is emitted.
public enum TakeBehavior: Sendable, Equatable {
  /// The element that ends the sequence is emitted before the completion.
  case inclusive
  /// The element that ends the sequence is dropped.
  case exclusive
}

/// `take(_:)` with a positive count: forwards elements while some remain, completing with the
/// last.
@usableFromInline
struct TakeCountStep<Element>: StageStep {
  @usableFromInline var remaining: Int

  @inlinable
  init(remaining: Int) { self.remaining = remaining }

  @inlinable
  mutating func apply(_ input: Element) -> StageOutput<Element> {
    remaining -= 1
    return remaining == 0 ? .emitThenComplete(input) : .emit(input)
  }
}

/// `take(while:)` and `take(until:)`: forwards elements until `stop` holds for one, which is
/// forwarded before completing when `inclusive`.
@usableFromInline
struct TakeUntilStep<Element>: StageStep {
  @usableFromInline let stop: (Element) throws -> Bool
  @usableFromInline let inclusive: Bool

  @inlinable
  init(_ stop: @escaping (Element) throws -> Bool, inclusive: Bool) {
    self.stop = stop
    self.inclusive = inclusive
  }

  @inlinable
  func apply(_ input: Element) throws -> StageOutput<Element> {
    guard try stop(input) else { return .emit(input) }
    return inclusive ? .emitThenComplete(input) : .complete
  }
}
