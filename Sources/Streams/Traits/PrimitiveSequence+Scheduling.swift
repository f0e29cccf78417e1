extension PrimitiveSequence where Element: Sendable {
  /// Delivers the success, the completion or the failure on `scheduler`, as RxSwift's
  /// `observe(on:)` on a trait.
  ///
  /// ```swift
  /// _ = api.user()
  ///   .observe(on: MainScheduler.instance)
  ///   .subscribe(onSuccess: { print($0) })
  /// // Prints the user on the main thread
  /// ```
  ///
  /// ```
  /// source (TestScheduler, subscribed at 200): --(1|)        at 210
  /// observe(on: scheduler):                      ---(1|)      next at 211, completed at 212
  /// ```
  ///
  /// Succeeds, completes and fails as the source does, one scheduled action per event (see
  /// ``ObservableType/observe(on:file:line:)``). Disposal disposes the source and drops what is
  /// still queued. The element crosses to the scheduler, hence `Element: Sendable`.
  ///
  /// - Parameters:
  ///   - scheduler: Where the observer is called.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func observe(
    on scheduler: any ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(raw: source.observe(on: scheduler, file: file, line: line))
  }

  /// RxSwift 5's name for ``observe(on:file:line:)``.
  @available(*, deprecated, renamed: "observe(on:)")
  public func observeOn(_ scheduler: any ImmediateSchedulerType) -> PrimitiveSequence<
    Trait, Element
  > {
    observe(on: scheduler)
  }
}

extension PrimitiveSequence {
  /// Subscribes to the source, and later disposes that subscription, on `scheduler`, as
  /// RxSwift's `subscribe(on:)` on a trait.
  ///
  /// ```swift
  /// let user = database.loadUser()
  ///   .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .userInitiated))
  ///   .observe(on: MainScheduler.instance)
  /// ```
  ///
  /// The event is not moved: it arrives on the thread the source emits on. Succeeds, completes
  /// and fails as the source does (see ``ObservableType/subscribe(on:file:line:)``). Disposing
  /// before the scheduled subscription runs cancels it; disposing afterwards schedules the
  /// disposal of the source subscription on `scheduler`.
  ///
  /// - Parameters:
  ///   - scheduler: Where the subscription and its disposal happen.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func subscribe(
    on scheduler: any ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(raw: source.subscribe(on: scheduler, file: file, line: line))
  }

  /// RxSwift 5's name for ``subscribe(on:file:line:)``.
  @available(*, deprecated, renamed: "subscribe(on:)")
  public func subscribeOn(_ scheduler: any ImmediateSchedulerType) -> PrimitiveSequence<
    Trait, Element
  > {
    subscribe(on: scheduler)
  }
}
