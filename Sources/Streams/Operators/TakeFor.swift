extension ObservableType {
  /// Emits the source's elements for `duration`, then completes, as RxSwift's
  /// `take(for:scheduler:)`.
  ///
  /// ```swift
  /// // source:          -a-b-c-d-e-|
  /// // take(for: 4):    -a-b|
  /// _ = Observable<Int>.interval(.seconds(1), scheduler: MainScheduler.instance)
  ///   .take(for: .milliseconds(3500), scheduler: MainScheduler.instance)
  ///   .subscribe(onNext: { print($0) })
  /// // Prints "0", "1", "2", then completes
  /// ```
  ///
  /// Completes on `scheduler` when `duration` has passed since the subscription, or earlier when
  /// the source completes; fails when the source fails within `duration`. Completion, failure
  /// and disposal dispose the source and cancel the timer.
  ///
  /// Elements are not required to be `Sendable`: they reach the observer on the source's thread
  /// (only when an element races the timer does the thread that is already delivering deliver
  /// both, one after the other).
  ///
  /// - Parameters:
  ///   - duration: How long to let elements through.
  ///   - scheduler: Runs the timer.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func take(
    for duration: RxTimeInterval, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(kind: "take(for:)", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = TakeForSink(observer)
      let timer = SingleAssignmentDisposable()
      let subscription = SingleAssignmentDisposable()
      sink.output.setUpstream(Disposables.create(timer, subscription))
      timer.setDisposable(
        scheduler.scheduleRelative((), dueTime: duration) { _ in
          sink.on(.completed)
          return Disposables.create()
        })
      subscription.setDisposable(source.subscribeAny(AnyObserver(eventHandler: sink.on)))
      return sink.output
    }
  }

  /// Deprecated RxSwift 5 name of ``take(for:scheduler:file:line:)``.
  @available(*, deprecated, renamed: "take(for:scheduler:)")
  public func take(
    _ duration: RxTimeInterval, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    take(for: duration, scheduler: scheduler, file: file, line: line)
  }
}

/// `@unchecked Sendable`: the only state is the outbox behind `state`'s lock; `output` guards the
/// downstream.
private final class TakeForSink<Element>: @unchecked Sendable {
  struct State: OutboxState {
    var outbox = SerialOutbox<Element>()

    mutating func nextPending() -> Event<Element>? { outbox.next() }

    var turnRank: Int { outbox.turns.rank }
  }

  let output: GuardedSink<Element>
  private let state = Locked(State())

  init(_ observer: AnyObserver<Element>) {
    output = GuardedSink(observer)
  }

  func on(_ event: Event<Element>) {
    state.update(into: output) { ((), $0.outbox.send(event)) }
  }
}
