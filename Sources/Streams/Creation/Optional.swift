extension ObservableType {
  /// Emits the wrapped value of `optional`, if any, then completes, synchronously.
  ///
  /// ```swift
  /// _ = Observable.from(optional: Int?.none).subscribe { print($0) }
  /// // Prints "completed"
  /// ```
  ///
  /// Completes during the subscription; never fails. `Element` need not be `Sendable`.
  public static func from(
    optional: Element?, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    Observable(kind: "from(optional:)", upstreams: [], file: file, line: line) { observer in
      if let optional { observer.on(.next(optional)) }
      observer.on(.completed)
      return Disposables.create()
    }
  }

  /// Emits the wrapped value of `optional`, if any, in one action on `scheduler`, and completes in
  /// the next one (or in the first one when `optional` is `nil`).
  ///
  /// ```swift
  /// // TestScheduler, subscribed at 200:
  /// // Observable.from(optional: 1, scheduler: scheduler)  -> next(201, 1), completed(202)
  /// ```
  ///
  /// Never fails; disposal cancels the pending action. The value crosses to `scheduler`, so it
  /// must be `Sendable` (the ``CurrentThreadScheduler`` overload does not require it).
  @_disfavoredOverload
  public static func from(
    optional: Element?, scheduler: any ImmediateSchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Element: Sendable {
    Observable.onScheduler(
      kind: "from(optional:)", file: file, line: line, scheduler: scheduler
    ) { SequenceSteps(optional.map { [$0] } ?? []) }
  }

  /// `from(optional:scheduler:)` on the trampoline
  /// of the subscribing thread, for elements that need not be `Sendable`.
  ///
  /// ```swift
  /// _ = Observable.from(optional: 1, scheduler: CurrentThreadScheduler.instance)
  ///   .subscribe { print($0) }
  /// // Prints "next(1)", "completed"
  /// ```
  ///
  /// Never fails; disposal stops it before the next step.
  public static func from(
    optional: Element?, scheduler: CurrentThreadScheduler,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    Observable.onTrampoline(kind: "from(optional:)", file: file, line: line) {
      SequenceSteps(optional.map { [$0] } ?? [])
    }
  }
}
