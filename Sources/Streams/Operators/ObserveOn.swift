extension ObservableType where Element: Sendable {
  /// Delivers the source's events on `scheduler`, in order, one at a time, as RxSwift's
  /// `observe(on:)`.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3)
  ///   .observe(on: MainScheduler.instance)
  ///   .subscribe(onNext: { print($0) })
  /// // Prints "1", "2", "3" on the main thread
  /// ```
  ///
  /// Events are queued as they arrive and delivered FIFO by one scheduled action at a time, so
  /// the observer is called serially even on a concurrent scheduler. Completes and fails when the
  /// source does, after the elements before the terminal event. Disposal disposes the source and
  /// stops delivery: events still queued are dropped. Elements cross to the scheduler's thread,
  /// hence `Element: Sendable`.
  ///
  /// - Parameters:
  ///   - scheduler: Where the observer is called.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func observe(
    on scheduler: any ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(kind: "observe(on:)", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = ObserveOnSink(observer, scheduler: scheduler)
      sink.output.setUpstream(
        Disposables.create(source.subscribeNested(AnyObserver(eventHandler: sink.on)), sink))
      return sink.output
    }
  }

  /// Deprecated RxSwift 5 name of ``observe(on:file:line:)``.
  @available(*, deprecated, renamed: "observe(on:)")
  public func observeOn(
    _ scheduler: any ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    observe(on: scheduler, file: file, line: line)
  }
}

/// Queues the source's events in a ``SerialOutbox``; the event that claims delivery starts a
/// recursive action on the scheduler, which delivers it and then, one action per event, whatever
/// was queued meanwhile, until the outbox is empty.
///
/// `@unchecked Sendable`: the outbox is behind `state`'s lock; `output` guards the downstream;
/// `scheduler` and `scheduled` are `Sendable`.
private final class ObserveOnSink<Element: Sendable>: Disposable, @unchecked Sendable {
  let output: GuardedSink<Element>
  private let scheduled = SerialDisposable()
  private let state = Locked(SerialOutbox<Element>(sendersWait: false))
  private let scheduler: any ImmediateSchedulerType

  init(_ observer: AnyObserver<Element>, scheduler: any ImmediateSchedulerType) {
    output = GuardedSink(observer)
    self.scheduler = scheduler
  }

  func on(_ event: Event<Element>) {
    if output.isDisposed { return }
    guard let first = state.withLock({ $0.send(event) }) else { return }
    scheduled.disposable = scheduler.scheduleRecursive(first) { [self] event, recurse in
      if let next = deliver(event) { recurse(next) }
    }
  }

  /// Delivers `event`; returns the next queued event, or `nil` when delivery stops: the queue is
  /// empty (the delivery claim is released), the sequence ended, or the subscription was
  /// disposed (``dispose()`` released the queue).
  private func deliver(_ event: Event<Element>) -> Event<Element>? {
    if output.isDisposed { return nil }
    output.on(event)
    if event.isStopEvent { return nil }
    return state.withLock { $0.next() }
  }

  /// Part of the subscription's disposal: cancels the scheduled delivery and releases the queued
  /// events, after the lock.
  func dispose() {
    scheduled.dispose()
    let dropped = state.withLock { $0.dispose() }
    withExtendedLifetime(dropped) {}
  }
}
