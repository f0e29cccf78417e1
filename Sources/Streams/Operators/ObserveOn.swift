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
  /// - Parameter scheduler: Where the observer is called.
  public func observe(
    on scheduler: any ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(kind: "observe(on:)", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = ObserveOnSink(observer, scheduler: scheduler)
      sink.output.setUpstream(
        Disposables.create(
          source.subscribeNested(AnyObserver(eventHandler: sink.on)), sink.scheduled))
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

/// `@unchecked Sendable`: the queue and the running flag are behind `state`'s lock; `output`
/// guards the downstream; `scheduler` and `scheduled` are `Sendable`.
private final class ObserveOnSink<Element: Sendable>: @unchecked Sendable {
  struct State {
    var queue: [Event<Element>] = []
    var head = 0
    var running = false

    mutating func pop() -> Event<Element>? {
      guard head < queue.count else {
        queue = []
        head = 0
        running = false
        return nil
      }
      defer { head += 1 }
      return queue[head]
    }
  }

  let output: GuardedSink<Element>
  let scheduled = SerialDisposable()
  private let state = Locked(State())
  private let scheduler: any ImmediateSchedulerType

  init(_ observer: AnyObserver<Element>, scheduler: any ImmediateSchedulerType) {
    output = GuardedSink(observer)
    self.scheduler = scheduler
  }

  func on(_ event: Event<Element>) {
    if output.isDisposed { return }
    let start = state.withLock { s -> Bool in
      s.queue.append(event)
      if s.running { return false }
      s.running = true
      return true
    }
    if start {
      scheduled.disposable = scheduler.scheduleRecursive(()) { [self] _, recurse in
        if step() { recurse(()) }
      }
    }
  }

  /// Delivers one queued event; returns `true` when more are waiting.
  private func step() -> Bool {
    guard let event = state.withLock({ $0.pop() }) else { return false }
    if output.isDisposed { return false }
    output.on(event)
    if event.isStopEvent { return false }
    return state.withLock { s -> Bool in
      if s.head < s.queue.count { return true }
      s.queue = []
      s.head = 0
      s.running = false
      return false
    }
  }
}
