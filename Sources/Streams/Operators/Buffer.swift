extension ObservableType where Element: Sendable {
  /// Collects elements into arrays, emitting one when it holds `count` elements or when
  /// `timeSpan` has passed since the previous one, as RxSwift's `buffer(timeSpan:count:scheduler:)`.
  ///
  /// ```swift
  /// // source:                         -1-23---4------|
  /// // buffer(timeSpan: 5, count: 3):  ----a----b----c(d|)
  /// // a = [1, 2, 3] (full), b = [4], c = [] (time span ended), d = [] (at completion)
  /// _ = events.buffer(timeSpan: .seconds(1), count: 50, scheduler: MainScheduler.instance)
  ///   .subscribe(onNext: { print($0.count) })
  /// ```
  ///
  /// A full buffer is emitted at once and restarts the time window; a window that ends emits its
  /// buffer on `scheduler`, even when it is empty. The first window starts before the source is
  /// subscribed (as in RxSwift), so an element that arrives at the instant a window ends goes into
  /// the next buffer. Completes when the source completes, first
  /// emitting the current buffer (even when empty); fails at once when the source fails, dropping
  /// the buffer. Disposal disposes the source and cancels the timer.
  ///
  /// - Parameters:
  ///   - timeSpan: The longest time a window lasts.
  ///   - count: The most elements a buffer holds; must be positive.
  ///   - scheduler: Runs the window timers; buffers are emitted on it (hence `Element: Sendable`).
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func buffer(
    timeSpan: RxTimeInterval, count: Int, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<[Element]> {
    if count <= 0 {
      streamsStop("buffer(timeSpan:count:scheduler:) needs a positive count, got \(count)")
    }
    let source = asObservable()
    return Observable(kind: "buffer", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = BufferSink<Element>(
        observer, timeSpan: timeSpan, count: count, scheduler: scheduler)
      // The first window is scheduled before the source is subscribed, as in RxSwift: a source
      // element due at the instant the window ends then arrives after the window closed.
      sink.startTimer(window: 0)
      sink.output.setUpstream(
        Disposables.create(
          source.subscribeNested(AnyObserver(eventHandler: sink.on)),
          Disposables.create(with: { sink.stopTimers() })))
      return sink.output
    }
  }
}

/// `@unchecked Sendable`: mutable state is in `state` (its lock); `output` guards the downstream;
/// the other properties are immutable and `Sendable`.
private final class BufferSink<Element: Sendable>: @unchecked Sendable {
  struct State: OutboxState {
    var buffer: [Element] = []
    var window = 0
    /// The timer of the open window; `nil` once the timers are stopped.
    var timer: (any Disposable)?
    var timersStopped = false
    var outbox = SerialOutbox<[Element]>()

    mutating func nextPending() -> Event<[Element]>? { outbox.next() }

    var turnRank: Int { outbox.turns.rank }

    /// Emits the buffer and starts the next window: returns the new window's id (`nil` once the
    /// sequence ended) and the event to deliver.
    mutating func closeWindow() -> (result: Int?, deliver: Event<[Element]>?) {
      if outbox.isClosed { return (nil, nil) }
      window &+= 1
      var full: [Element] = []
      swap(&full, &buffer)
      return (window, outbox.send(.next(full)))
    }
  }

  let output: GuardedSink<[Element]>
  private let state = Locked(State())
  private let timeSpan: RxTimeInterval
  private let count: Int
  private let scheduler: any SchedulerType

  init(
    _ observer: AnyObserver<[Element]>, timeSpan: RxTimeInterval, count: Int,
    scheduler: any SchedulerType
  ) {
    output = GuardedSink(observer)
    self.timeSpan = timeSpan
    self.count = count
    self.scheduler = scheduler
  }

  func startTimer(window: Int) {
    if state.withLock({ $0.timersStopped }) { return }
    let scheduled = scheduler.scheduleRelative(window, dueTime: timeSpan) { [self] window in
      let next = state.update(into: output) { s -> (result: Int?, deliver: Event<[Element]>?) in
        s.window == window ? s.closeWindow() : (nil, nil)
      }
      if let next { startTimer(window: next) }
      return Disposables.create()
    }
    // Install the timer only if its window is still the open one. A full buffer (source thread)
    // and a window's end (timer thread) each start the next window's timer, and the two threads
    // may get here in either order: a stale timer must not replace the newer window's, or no
    // window would ever end by time again.
    let replaced = state.withLock { s -> (any Disposable)? in
      if s.timersStopped || s.window != window { return scheduled }
      defer { s.timer = scheduled }
      return s.timer
    }
    replaced?.dispose()
  }

  /// Cancels the current timer and every later one; part of the subscription's disposal.
  func stopTimers() {
    let timer = state.withLock { s -> (any Disposable)? in
      s.timersStopped = true
      defer { s.timer = nil }
      return s.timer
    }
    timer?.dispose()
  }

  func on(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      guard output.isActive else { return }
      let next = state.update(into: output) { s -> (result: Int?, deliver: Event<[Element]>?) in
        if s.outbox.isClosed { return (nil, nil) }
        s.buffer.append(element)
        return s.buffer.count == count ? s.closeWindow() : (nil, nil)
      }
      if let next { startTimer(window: next) }
    case .error(let error):
      // The buffered elements leave the lock and are released after it.
      let dropped = state.update(into: output) { s in
        var dropped: [Element] = []
        swap(&dropped, &s.buffer)
        return (dropped, s.outbox.send(.error(error)))
      }
      withExtendedLifetime(dropped) {}
    case .completed:
      state.update(into: output) { s in
        if s.outbox.isClosed { return ((), nil) }
        var last: [Element] = []
        swap(&last, &s.buffer)
        let first = s.outbox.send(.next(last))
        let completed = s.outbox.send(.completed)
        return ((), first ?? completed)
      }
    }
  }
}
