extension ObservableType where Element: Sendable {
  /// Emits the first element and then at most one element per `dueTime`: the latest one when
  /// `latest` is `true`, as RxSwift's `throttle`.
  ///
  /// ```swift
  /// // source:                       -a-b-c-----d-|
  /// // throttle(5):                  -a----c----d-|   (latest: true)
  /// // throttle(5, latest: false):   -a---------d-|
  /// _ = button.taps.throttle(.seconds(1), scheduler: MainScheduler.instance)
  ///   .subscribe(onNext: { print("tap") })
  /// // Prints "tap" at most once a second
  /// ```
  ///
  /// An element that arrives `dueTime` or more after the last emitted one is emitted at once.
  /// With `latest: true`, an element that arrives sooner is kept (replacing any kept one) and
  /// emitted on `scheduler` when `dueTime` has passed since the last emission; with
  /// `latest: false` it is dropped. Completes when the source completes, after emitting a kept
  /// element when its time comes; fails at once when the source fails, dropping a kept element.
  /// Disposal disposes the source and cancels the timer.
  ///
  /// - Parameters:
  ///   - dueTime: The minimum time between two emitted elements.
  ///   - latest: Whether the latest element of a window is emitted at its end.
  ///   - scheduler: Supplies the clock and runs the timers (hence `Element: Sendable`).
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func throttle(
    _ dueTime: RxTimeInterval, latest: Bool = true, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(kind: "throttle", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = ThrottleSink(observer, dueTime: dueTime, latest: latest, scheduler: scheduler)
      sink.output.setUpstream(
        Disposables.create(source.subscribeNested(AnyObserver(eventHandler: sink.on)), sink.timer))
      return sink.output
    }
  }
}

/// `@unchecked Sendable`: mutable state is in `state` (its lock); `output` guards the downstream;
/// the other properties are immutable and `Sendable`.
private final class ThrottleSink<Element: Sendable>: @unchecked Sendable {
  struct State: OutboxState {
    /// The element kept for the end of the window (`latest: true`).
    var lastUnsent: Element?
    /// When the last element was sent, in nanoseconds on the sink's `clock`.
    var lastSentTime: Int64?
    /// The source completed while an element was kept: completes after emitting it.
    var completed = false
    var outbox = SerialOutbox<Element>()

    mutating func nextPending() -> Event<Element>? { outbox.next() }

    var turnRank: Int { outbox.turns.rank }

    /// Emits `element` now; returns the event to deliver.
    mutating func sendNow(_ element: Element, at now: Int64) -> Event<Element>? {
      lastSentTime = now
      return outbox.send(.next(element))
    }
  }

  let output: GuardedSink<Element>
  let timer = SerialDisposable()
  private let state = Locked(State())
  private let dueTime: RxTimeInterval
  private let latest: Bool
  private let scheduler: any SchedulerType
  private let clock: SchedulerClock

  init(
    _ observer: AnyObserver<Element>, dueTime: RxTimeInterval, latest: Bool,
    scheduler: any SchedulerType
  ) {
    output = GuardedSink(observer)
    self.dueTime = dueTime
    self.latest = latest
    self.scheduler = scheduler
    clock = SchedulerClock(scheduler)
  }

  func on(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      guard output.isActive else { return }
      let now = clock.nanoseconds
      // `replaced`: a kept element this one supersedes, released after the lock.
      let (wait, replaced) = state.update(into: output) {
        s -> (result: (wait: Int64?, replaced: Element?), deliver: Event<Element>?) in
        if s.outbox.isClosed { return ((nil, nil), nil) }
        let remaining: Int64
        if let last = s.lastSentTime {
          let elapsed = now &- last
          remaining = dueTime.nanoseconds &- elapsed
        } else {
          remaining = 0
        }
        if remaining <= 0 {
          let replaced = s.lastUnsent.take()
          return ((nil, replaced), s.sendNow(element, at: now))
        }
        guard latest else { return ((nil, nil), nil) }
        let inFlight = s.lastUnsent != nil
        let replaced = s.lastUnsent.replace(with: element)
        return ((inFlight ? nil : remaining, replaced), nil)
      }
      if let wait {
        timer.disposable = scheduler.scheduleRelative((), dueTime: .nanoseconds(Int(wait))) {
          [self] _ in
          propagate()
          return Disposables.create()
        }
      }
      withExtendedLifetime(replaced) {}
    case .error:
      let dropped = state.update(into: output) { s in
        (s.lastUnsent.take(), s.outbox.send(event))
      }
      withExtendedLifetime(dropped) {}
    case .completed:
      state.update(into: output) { s in
        if s.lastUnsent != nil {
          s.completed = true
          return ((), nil)
        }
        return ((), s.outbox.send(.completed))
      }
    }
  }

  private func propagate() {
    let now = clock.nanoseconds
    state.update(into: output) { s in
      var first: Event<Element>?
      if !s.outbox.isClosed, let element = s.lastUnsent.take() {
        first = s.sendNow(element, at: now)
      }
      if s.completed {
        let completed = s.outbox.send(.completed)
        first = first ?? completed
      }
      return ((), first)
    }
  }
}
