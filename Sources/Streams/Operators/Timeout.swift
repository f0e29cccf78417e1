extension ObservableType {
  /// Fails with ``RxError/timeout`` when an element does not arrive within `dueTime` of the
  /// subscription or of the previous element, as RxSwift's `timeout`.
  ///
  /// ```swift
  /// // source:        -a-b-------c-|
  /// // timeout(3):    -a-b--#          (# = RxError.timeout)
  /// _ = response.timeout(.seconds(10), scheduler: MainScheduler.instance)
  ///   .subscribe(onError: { print($0) })
  /// // Prints "Sequence timeout." when no response arrives in time
  /// ```
  ///
  /// Completes and fails when the source does, if that happens in time. On a timeout the source
  /// subscription is disposed and the error is emitted on `scheduler`. Disposal disposes the
  /// source and cancels the timer.
  ///
  /// Elements are not required to be `Sendable`: they are not stored for the timer, and they
  /// reach the observer on the source's thread (only when the source and the timer race does the
  /// thread that is already delivering deliver both, one after the other).
  ///
  /// - Parameters:
  ///   - dueTime: The longest wait allowed for each element (and for the terminal event).
  ///   - scheduler: Runs the timer.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func timeout(
    _ dueTime: RxTimeInterval, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let failure = Observable<Element>(kind: "error", upstreams: []) { observer in
      observer.on(.error(RxError.timeout))
      return Disposables.create()
    }
    return makeTimeout(dueTime, other: failure, scheduler: scheduler, file: file, line: line)
  }

  /// Switches to `other` when an element does not arrive within `dueTime` of the subscription or
  /// of the previous element, as RxSwift's `timeout(_:other:scheduler:)`.
  ///
  /// ```swift
  /// // source:                 -a-b-------c-|
  /// // other (cold):                 -x-|     (subscribed at the timeout)
  /// // timeout(3, other:):     -a-b---x-|
  /// _ = live.timeout(.seconds(5), other: cached, scheduler: MainScheduler.instance)
  ///   .subscribe(onNext: { print($0) })
  /// ```
  ///
  /// Until the timeout the result is the source; at the timeout the source subscription is
  /// disposed and `other` is subscribed on `scheduler`, and from then on the result is `other`
  /// (it completes and fails as `other` does). Disposal disposes whichever is subscribed and
  /// cancels the timer.
  ///
  /// - Parameters:
  ///   - dueTime: The longest wait allowed for each element (and for the terminal event).
  ///   - other: The sequence to continue with after a timeout.
  ///   - scheduler: Runs the timer and the subscription to `other`.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func timeout<Other: ObservableConvertibleType>(
    _ dueTime: RxTimeInterval, other: Other, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Other.Element == Element {
    makeTimeout(
      dueTime, other: other.asObservable(), scheduler: scheduler, file: file, line: line)
  }

  private func makeTimeout(
    _ dueTime: RxTimeInterval, other: Observable<Element>, scheduler: any SchedulerType,
    file: StaticString, line: UInt
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(
      kind: "timeout", upstreams: [source.traceID, other.traceID], file: file, line: line
    ) { observer in
      let sink = TimeoutSink(observer, dueTime: dueTime, other: other, scheduler: scheduler)
      sink.output.setUpstream(Disposables.create(sink.subscription, sink.timer))
      let original = SingleAssignmentDisposable()
      sink.subscription.disposable = original
      sink.startTimer(id: 0)
      original.setDisposable(source.subscribeAny(AnyObserver(eventHandler: sink.onSource)))
      return sink.output
    }
  }
}

/// `@unchecked Sendable`: mutable state is in `state` (its lock); `output` guards the downstream;
/// `other` is an immutable recipe (see ``SourceBox``); the rest is immutable and `Sendable`.
private final class TimeoutSink<Element>: @unchecked Sendable {
  struct State: OutboxState {
    var id = 0
    var switched = false
    var outbox = SerialOutbox<Element>()

    mutating func nextPending() -> Event<Element>? { outbox.next() }

    var turnRank: Int { outbox.turns.rank }
  }

  let output: GuardedSink<Element>
  let timer = SerialDisposable()
  /// The source subscription, replaced by the subscription to `other` on a timeout.
  let subscription = SerialDisposable()
  private let state = Locked(State())
  private let dueTime: RxTimeInterval
  private let other: Observable<Element>
  private let scheduler: any SchedulerType

  init(
    _ observer: AnyObserver<Element>, dueTime: RxTimeInterval, other: Observable<Element>,
    scheduler: any SchedulerType
  ) {
    output = GuardedSink(observer)
    self.dueTime = dueTime
    self.other = other
    self.scheduler = scheduler
  }

  func startTimer(id: Int) {
    if timer.isDisposed { return }
    timer.disposable = scheduler.scheduleRelative(id, dueTime: dueTime) { [self] id in
      fire(id)
      return Disposables.create()
    }
  }

  func onSource(_ event: Event<Element>) {
    let restart = state.update(into: output) { s -> (result: Int?, deliver: Event<Element>?) in
      if s.switched { return (nil, nil) }
      s.id &+= 1
      return (event.isStopEvent ? nil : s.id, s.outbox.send(event))
    }
    if let restart { startTimer(id: restart) }
  }

  private func onOther(_ event: Event<Element>) {
    state.update(into: output) { ((), $0.outbox.send(event)) }
  }

  private func fire(_ id: Int) {
    let wins = state.withLock { s -> Bool in
      if s.switched || s.id != id { return false }
      s.switched = true
      return true
    }
    if wins {
      subscription.disposable = other.subscribeAny(AnyObserver { [self] in onOther($0) })
    }
  }
}
