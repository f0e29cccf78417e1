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
