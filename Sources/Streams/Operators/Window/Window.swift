extension ObservableType where Element: Sendable {
  /// Splits the elements into windows, each an `Observable`, as RxSwift's
  /// `window(timeSpan:count:scheduler:)`: a window ends when it holds `count` elements or when
  /// `timeSpan` has passed since it opened, and the next one opens at once.
  ///
  /// ```swift
  /// // source:                         -1-23---4------|
  /// // window(timeSpan: 5, count: 3):  a---b----c----d|
  /// // a:                              -1-2(3|)           (full)
  /// // b:                                  ----4|         (time span ended)
  /// // c:                                       -----|    (time span ended)
  /// // d:                                            -|   (ended with the source)
  /// _ = events.window(timeSpan: .seconds(1), count: 10, scheduler: MainScheduler.instance)
  ///   .flatMap { $0.toArray().asObservable() }
  ///   .subscribe(onNext: { print($0) })
  /// // Prints each second's elements, at most 10 at a time
  /// ```
  ///
  /// The first window is emitted at subscription, before the timer is scheduled and the source
  /// is subscribed, as in RxSwift. A window that fills up completes right after its last element
  /// and restarts the time span; a window whose time span ends completes on `scheduler`, even
  /// when it is empty. Each window is hot (a ``PublishSubject``): subscribe while receiving it
  /// to see all of its elements.
  ///
  /// Completes and fails when the source does: the open window first, then the outer sequence.
  /// Disposing the outer subscription stops the emission of windows, but the source and the
  /// timer keep running while any window has a subscriber; they are disposed once the outer
  /// subscription and every window subscription are gone. A terminal event disposes them at once.
  ///
  /// - Parameters:
  ///   - timeSpan: The longest time a window lasts.
  ///   - count: The most elements a window holds; must be positive.
  ///   - scheduler: Runs the window timers; windows that end by time end on it (hence
  ///     `Element: Sendable`).
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func window(
    timeSpan: RxTimeInterval, count: Int, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Observable<Element>> {
    if count <= 0 {
      streamsStop("window(timeSpan:count:scheduler:) needs a positive count, got \(count)")
    }
    let source = asObservable()
    return Observable(kind: "window", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = WindowSink<Element>(
        observer, timeSpan: timeSpan, count: count, scheduler: scheduler,
        sourceID: source.traceID, file: file, line: line)
      sink.run(source)
      return sink.output
    }
  }
}

/// `@unchecked Sendable`: mutable state is in `state` (its lock); `output` guards the downstream;
/// the other properties are immutable, and the scheduler and disposables are `Sendable`.
private final class WindowSink<Element: Sendable>: SerialOutboxOwner, @unchecked Sendable {
  let output: GuardedSink<Observable<Element>>
  private let state: Locked<WindowStateMachine<Element>>
  private let timeSpan: RxTimeInterval
  private let scheduler: any SchedulerType
  private let subscription = SingleAssignmentDisposable()
  private let refCount: RefCountDisposable
  private let sourceID: UInt64
  private let file: StaticString
  private let line: UInt

  init(
    _ observer: AnyObserver<Observable<Element>>, timeSpan: RxTimeInterval, count: Int,
    scheduler: any SchedulerType, sourceID: UInt64, file: StaticString, line: UInt
  ) {
    output = GuardedSink(observer)
    state = Locked(WindowStateMachine(limit: count, subject: PublishSubject()))
    self.timeSpan = timeSpan
    self.scheduler = scheduler
    self.sourceID = sourceID
    self.file = file
    self.line = line
    let subscription = self.subscription
    let stop = StopTimers(state: state)
    refCount = RefCountDisposable(
      disposable: Disposables.create(subscription, Disposables.create(with: stop.run)))
  }

  func run(_ source: Observable<Element>) {
    output.setUpstream(refCount)
    let first = state.withLock { $0.start(window(for: $0.subject)) }
    drain(first.deliver)
    startTimer(window: 0)
    subscription.setDisposable(source.subscribeNested(AnyObserver(eventHandler: on)))
  }

  /// A window's sequence: each subscription keeps the source and the timer running until it is
  /// disposed.
  private func window(for subject: PublishSubject<Element>) -> Observable<Element> {
    let refCount = self.refCount
    let elements = subject.asObservable()
    return Observable(kind: "window.window", upstreams: [sourceID], file: file, line: line) {
      observer in
      let handle = refCount.retain()
      return Disposables.create(handle, elements.subscribeNested(observer))
    }
  }

  private func on(_ event: Event<Element>) {
    let action: WindowStateMachine<Element>.Action
    switch event {
    case .next(let element):
      action = state.withLock { $0.element(element, makeWindow: window) }
    case .error(let error):
      action = state.withLock { $0.terminate(error) }
    case .completed:
      action = state.withLock { $0.terminate(nil) }
    }
    drain(action.deliver)
    if let next = action.startTimer { startTimer(window: next) }
  }

  private func startTimer(window id: Int) {
    if state.withLock({ $0.timersStopped }) { return }
    let scheduled = scheduler.scheduleRelative(id, dueTime: timeSpan) { [self] id in
      let action = state.withLock { $0.timerFired(id, makeWindow: window) }
      drain(action.deliver)
      if let next = action.startTimer { startTimer(window: next) }
      return Disposables.create()
    }
    // Install the timer only if its window is still the open one (see `buffer`'s sink: a full
    // window and a time span's end may start the next timer from two threads in either order).
    let replaced = state.withLock { s -> (any Disposable)? in
      if s.timersStopped || s.windowID != id { return scheduled }
      defer { s.timer = scheduled }
      return s.timer
    }
    replaced?.dispose()
  }

  func deliver(_ event: Event<WindowStep<Element>>) -> Bool {
    switch event {
    case .next(.open(let window)):
      output.on(.next(window))
    case .next(.element(let element, let subject)):
      subject.on(.next(element))
    case .next(.rollover(let closing, let opening)):
      closing.on(.completed)
      output.on(.next(opening))
    case .next(.close(let subject, let error)):
      subject.on(error.map { .error($0) } ?? .completed)
    case .error(let error):
      output.on(.error(error))
      return true
    case .completed:
      output.on(.completed)
      return true
    }
    return false
  }

  func nextPending() -> Event<WindowStep<Element>>? {
    state.withLock { $0.outbox.next() }
  }

  var turnRank: Int {
    state.withLock { $0.outbox.turns.rank }
  }

  /// The sequence ended: the source and the timers go now, whoever still holds a window.
  func dispose() {
    subscription.dispose()
    StopTimers(state: state).run()
  }
}

/// Cancels the current window timer and every later one.
private struct StopTimers<Element>: @unchecked Sendable {
  // `@unchecked Sendable`: `state` is a lock-guarded box, touched only under its lock.
  let state: Locked<WindowStateMachine<Element>>

  func run() {
    let timer = state.withLock { s -> (any Disposable)? in
      s.timersStopped = true
      defer { s.timer = nil }
      return s.timer
    }
    timer?.dispose()
  }
}
