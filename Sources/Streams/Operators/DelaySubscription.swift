extension ObservableType {
  /// Subscribes to the source only after `dueTime`, as RxSwift's `delaySubscription`.
  ///
  /// ```swift
  /// // source (cold):          -a-b-|
  /// // delaySubscription(3):   ----a-b-|
  /// _ = Observable.of(1).delaySubscription(.seconds(1), scheduler: MainScheduler.instance)
  ///   .subscribe(onNext: { print($0) })
  /// // Prints "1" after a second
  /// ```
  ///
  /// The subscription to the source happens on `scheduler`, and the source's events then pass
  /// through unchanged: the result completes and fails when the source does. Disposing before
  /// `dueTime` cancels the subscription; disposing later disposes the source subscription.
  ///
  /// - Parameters:
  ///   - dueTime: How long to wait before subscribing.
  ///   - scheduler: Runs the timer and the subscription.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func delaySubscription(
    _ dueTime: RxTimeInterval, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(
      kind: "delaySubscription", upstreams: [source.traceID], file: file, line: line
    ) { observer in
      let output = GuardedSink(observer)
      let recipe = SourceBox(source)
      output.setUpstream(
        scheduler.scheduleRelative((), dueTime: dueTime) { _ in
          recipe.source.subscribeAny(AnyObserver(eventHandler: output.on))
        })
      return output
    }
  }
}

/// Carries an observable (a recipe) into a scheduler's `@Sendable` action.
///
/// `@unchecked Sendable`: an `Observable` is immutable once built; its producer runs on the thread
/// that subscribes, which is the documented effect of operators that subscribe on a scheduler
/// (``ObservableType/subscribe(on:)``, ``ObservableType/delaySubscription(_:scheduler:file:line:)``,
/// the fallback of ``ObservableType/timeout(_:other:scheduler:file:line:)``), as in RxSwift.
struct SourceBox<Element>: @unchecked Sendable {
  let source: Observable<Element>

  init(_ source: Observable<Element>) {
    self.source = source
  }
}
