/// Runs one subscription of `window(timeSpan:count:scheduler:)`: performs what
/// ``WindowStateMachine`` decides, after unlocking.
///
/// `@unchecked Sendable`: mutable state is the state machine behind `state`'s lock; `output`
/// guards the downstream; the other properties are immutable, and the scheduler and disposables
/// are `Sendable`.
final class WindowSink<Element: Sendable>: SerialOutboxOwner, @unchecked Sendable {
  typealias Payload = WindowStep<Element>

  let output: GuardedSink<Observable<Element>>
  let state: Locked<WindowStateMachine<Element>>
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

  /// Emits the first window, starts its timer, then subscribes to `source`.
  func run(_ source: Observable<Element>) {
    output.setUpstream(refCount)
    perform(state.withLock { $0.start(makeWindow: window) })
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
    switch event {
    case .next(let element):
      perform(state.withLock { $0.received(element, makeWindow: window) })
    case .error(let error):
      perform(state.withLock { $0.failed(error) })
    case .completed:
      perform(state.withLock { $0.completed() })
    }
  }

  /// Drains a step the machine accepted, then starts the timer of a window that opened.
  private func perform(_ action: WindowStateMachine<Element>.StepAction) {
    switch action {
    case .none:
      break
    case .drain(let step):
      drain(step)
    case .drainAndStartTimer(let step, let window):
      drain(step)
      startTimer(window: window)
    }
  }

  private func startTimer(window id: Int) {
    switch state.withLock({ $0.timerWillStart() }) {
    case .schedule: break
    case .skip: return
    }
    let scheduled = scheduler.scheduleRelative(id, dueTime: timeSpan) { [self] id in
      perform(state.withLock { $0.timerFired(id, makeWindow: window) })
      return Disposables.create()
    }
    switch state.withLock({ $0.timerScheduled(id, scheduled) }) {
    case .none: break
    case .dispose(let timer): timer.dispose()
    }
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

  /// The sequence ended: the source and the timers go now, whoever still holds a window.
  func dispose() {
    subscription.dispose()
    StopTimers(state: state).run()
  }
}

/// Stops the window timers: cancels the installed one and every later one.
private struct StopTimers<Element>: @unchecked Sendable {
  // `@unchecked Sendable`: `state` is a lock-guarded box, touched only under its lock.
  let state: Locked<WindowStateMachine<Element>>

  func run() {
    switch state.withLock({ $0.stopTimers() }) {
    case .none: break
    case .dispose(let timer): timer.dispose()
    }
  }
}
