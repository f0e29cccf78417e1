extension ObservableType {
  /// Subscribes to the source, and later disposes that subscription, on `scheduler`, as
  /// RxSwift's `subscribe(on:)`.
  ///
  /// ```swift
  /// _ = expensiveQuery
  ///   .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .userInitiated))
  ///   .observe(on: MainScheduler.instance)
  ///   .subscribe(onNext: { print($0) })
  /// ```
  ///
  /// Events are not moved: they arrive on whichever thread the source emits on (for a source
  /// that emits while being subscribed, the scheduler's). Completes and fails when the source
  /// does. Disposing before the scheduled subscription runs cancels it; disposing afterwards, or
  /// a terminal event, schedules the disposal of the source subscription on `scheduler`. (An
  /// `Observable` source, like RxSwift's, has already disposed itself at its terminal event; an
  /// `ObservableType` of your own, or a test observable, is subscribed as it is and disposed on
  /// `scheduler`: on a `TestScheduler` its subscription ends one tick after the event, as in
  /// RxSwift.)
  ///
  /// - Parameters:
  ///   - scheduler: Where the subscription and its disposal happen.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func subscribe(
    on scheduler: any ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    // Another `ObservableType` is subscribed as it is, as RxSwift does, not through the wrapper
    // of `asObservable()`, which would dispose it at its terminal event on the emitting thread:
    // its subscription ends on `scheduler`, like a disposal. The sink below keeps the grammar.
    let source =
      self as? Observable<Element>
      ?? Observable(kind: "asObservable", upstreams: [], file: file, line: line) { observer in
        self.subscribe(observer)
      }
    return Observable(
      kind: "subscribe(on:)", upstreams: [source.traceID], file: file, line: line
    ) { observer in
      let output = GuardedSink(observer)
      let recipe = SourceBox(source)
      let everything = SerialDisposable()
      let cancelSchedule = SingleAssignmentDisposable()
      everything.disposable = cancelSchedule
      output.setUpstream(everything)
      cancelSchedule.setDisposable(
        scheduler.schedule(()) { _ in
          let subscription = recipe.source.subscribeAny(AnyObserver(eventHandler: output.on))
          everything.disposable = ScheduledDisposable(
            scheduler: scheduler, disposable: subscription)
          return Disposables.create()
        })
      return output
    }
  }

  /// Deprecated RxSwift 5 name of ``subscribe(on:file:line:)``.
  @available(*, deprecated, renamed: "subscribe(on:)")
  public func subscribeOn(
    _ scheduler: any ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    subscribe(on: scheduler, file: file, line: line)
  }
}
