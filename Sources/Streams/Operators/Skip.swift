extension ObservableType {
  /// Drops the first `count` elements and emits the rest.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3).skip(2).subscribe { print($0) }
  /// // Prints "next(3)", "completed"
  /// ```
  ///
  /// Completes and fails when the source does; disposal disposes the source. A negative `count`
  /// stops the program with a message naming the misuse.
  ///
  /// - Parameters:
  ///   - count: How many elements to drop.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  @inlinable
  public func skip(_ count: Int, file: StaticString = #fileID, line: UInt = #line)
    -> Observable<Element>
  {
    if count < 0 { streamsStop("skip(_:): count can't be negative (got \(count))") }
    return stage(SkipCountStep(remaining: count), kind: "skip", file: file, line: line)
  }

  /// Drops elements while `predicate` holds, then emits every element from the first one that
  /// fails it.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3, 1).skip(while: { $0 < 2 }).subscribe { print($0) }
  /// // Prints "next(2)", "next(3)", "next(1)", "completed"
  /// ```
  ///
  /// Completes and fails when the source does; a throw from `predicate` becomes `.error` and
  /// disposes the source. `predicate` is not called again once it returned `false`. Disposal
  /// disposes the source.
  @inlinable
  public func skip(
    while predicate: @escaping (Element) throws -> Bool,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let caller = CallerIsolation(isolation, api: "skip(while:)", file: file, line: line)
    let predicate = isolation == nil ? predicate : caller.checked(predicate)
    return stage(SkipWhileStep(predicate), kind: "skip(while:)", file: file, line: line)
  }

  /// Drops the source's elements until `other` emits an element, then emits the rest.
  ///
  /// ```swift
  /// let start = PublishSubject<Void>()
  /// let values = PublishSubject<Int>()
  /// _ = values.skip(until: start).subscribe { print($0) }
  /// values.onNext(1)
  /// start.onNext(())
  /// values.onNext(2)
  /// // Prints "next(2)"
  /// ```
  ///
  /// The source is subscribed first, then `other`; the first element of `other` ends the
  /// subscription to it. Fails when either fails. Completes when the source completes after
  /// `other` emitted; as in RxSwift, a source that completes before `other` emitted ends the
  /// subscription without any event. When `other` completes without emitting, only its
  /// subscription ends (no element will ever pass). Disposal disposes both.
  ///
  /// Events from the two sequences may come from different threads; an error from `other` is
  /// serialized with the source's elements without holding a lock during delivery (see
  /// ``take(until:file:line:)``).
  @inlinable
  public func skip<Other: ObservableType>(
    until other: Other, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    let trigger = other.asObservable()
    return Observable(
      kind: "skip(until:)", upstreams: [source.traceID, trigger.traceID], file: file, line: line
    ) { observer in
      let sink = GuardedSink(observer)
      let gate = UntilGate(sink)
      let group = CompositeDisposable()
      sink.setUpstream(group)
      group.insert(
        source.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next:
              if gate.isOpen { gate.forward(event) }
            case .error:
              gate.terminate(event)
            case .completed:
              if gate.isOpen { gate.terminate(event) } else { sink.dispose() }
            }
          }))
      let otherSubscription = SingleAssignmentDisposable()
      group.insert(otherSubscription)
      otherSubscription.setDisposable(
        trigger.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next:
              gate.open()
              otherSubscription.dispose()
            case .error(let error):
              gate.terminate(.error(error))
            case .completed:
              otherSubscription.dispose()
            }
          }))
      return sink
    }
  }

  /// Drops the elements the source emits during `duration` after the subscription and emits the
  /// rest, as RxSwift's `skip(_:scheduler:)`.
  ///
  /// ```swift
  /// // subscribed at 200, skip(.seconds(15)):
  /// // source: -210:a-220:b-230:c-240:|   result: -220:b-230:c-240:|
  /// _ = clicks.skip(.seconds(2), scheduler: MainScheduler.instance)
  ///   .subscribe(onNext: { print($0) })
  /// ```
  ///
  /// The timer is scheduled before the source is subscribed, as in RxSwift, so on a virtual-time
  /// scheduler an element due at the same instant as the end of `duration` is dropped if it was
  /// scheduled first (a hot observable's events are) and passes otherwise. Completes and fails
  /// when the source does, also during `duration`. Disposal disposes the source and cancels the
  /// timer. Elements are not required to be `Sendable`: they stay on the source's thread.
  ///
  /// - Parameters:
  ///   - duration: How long to drop elements, from the subscription.
  ///   - scheduler: Runs the timer.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func skip(
    _ duration: RxTimeInterval, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(
      kind: "skip(duration:)", upstreams: [source.traceID], file: file, line: line
    ) { observer in
      let sink = GuardedSink(observer)
      let gate = UntilGate(sink)
      let timer = SingleAssignmentDisposable()
      let subscription = SingleAssignmentDisposable()
      sink.setUpstream(Disposables.create(timer, subscription))
      timer.setDisposable(
        scheduler.scheduleRelative((), dueTime: duration) { _ in
          gate.open()
          return Disposables.create()
        })
      subscription.setDisposable(
        source.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next:
              if gate.isOpen { gate.forward(event) }
            case .error, .completed:
              gate.terminate(event)
            }
          }))
      return sink
    }
  }

  /// Renamed ``skip(while:isolation:file:line:)``.
  @available(*, deprecated, renamed: "skip(while:)")
  public func skipWhile(
    _ predicate: @escaping (Element) throws -> Bool, isolation: (any Actor)? = #isolation
  ) -> Observable<Element> {
    skip(while: predicate, isolation: isolation)
  }

  /// Renamed ``skip(until:file:line:)``.
  @available(*, deprecated, renamed: "skip(until:)")
  public func skipUntil<Other: ObservableType>(_ other: Other) -> Observable<Element> {
    skip(until: other)
  }
}

/// `skip(_:)`: drops elements while some remain to skip.
@usableFromInline
struct SkipCountStep<Element>: StageStep {
  @usableFromInline var remaining: Int

  @inlinable
  init(remaining: Int) { self.remaining = remaining }

  @inlinable
  mutating func apply(_ input: Element) -> StageOutput<Element> {
    guard remaining > 0 else { return .emit(input) }
    remaining -= 1
    return .skip
  }
}

/// `skip(while:)`: drops elements until the first that fails `predicate`, which is not called
/// after that.
@usableFromInline
struct SkipWhileStep<Element>: StageStep {
  @usableFromInline let predicate: (Element) throws -> Bool
  @usableFromInline var skipping = true

  @inlinable
  init(_ predicate: @escaping (Element) throws -> Bool) { self.predicate = predicate }

  @inlinable
  mutating func apply(_ input: Element) throws -> StageOutput<Element> {
    if skipping {
      skipping = try predicate(input)
      if skipping { return .skip }
    }
    return .emit(input)
  }
}
