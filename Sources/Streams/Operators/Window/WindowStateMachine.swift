/// The state of one `window(timeSpan:count:scheduler:)` subscription: the open window, how many
/// elements it received, the timer of its time span, and the outbox.
///
/// Windows are numbered from 0. Every transition runs under the sink's lock and returns what the
/// sink must do once the lock is released (drain a step, start the timer of a window that
/// opened, dispose a timer); the machine never calls out. Nothing is released here either: a
/// replaced window leaves in the step that completes it, and a replaced timer is handed back.
///
/// ```
///            start            count elements, or the time span ended: the next window opens
///   idle ───────────▶ open(n) ──────────────────────────────────────────▶ open(n+1)
///                        │
///                        │ the source completes or fails
///                        ▼
///                     ended(n)   (the open window ends with it, then the outer sequence)
/// ```
///
/// The timers have a slot of their own beside the state, because they outlive the source: they
/// run until the sink stops them (``stopTimers()``), once the sequence ended or nobody holds the
/// outer subscription or a window any longer. The source may still emit meanwhile (disposal
/// races with it), and windows still roll over, without timers.
struct WindowStateMachine<Element>: OutboxState {
  /// Where the source stands.
  private enum State {
    /// The first window has not been emitted yet (the source is subscribed after it is).
    case idle
    /// The source runs; window `window` is open and holds `count` elements.
    case open(window: Int, count: Int)
    /// The source ended: its terminal event was accepted (it may still be queued for the
    /// deliverer) and nothing more is delivered; `window` was the last window.
    case ended(window: Int)
  }

  /// The timer of the open window.
  private enum Timer {
    /// None is installed: the first one is being scheduled.
    case idle
    /// `timer` is installed; it belongs to the open window, or to a window that ended, whose
    /// timer firing changes nothing.
    case running(any Disposable)
    /// The timers are stopped: a timer scheduled later is disposed at once.
    case stopped
  }

  /// What to do with a step the machine accepted: the first window, an element, the end of a
  /// window.
  enum StepAction {
    /// Nothing: the sequence ended, or a timer fired for a window that already ended.
    case none
    /// Drain `step`: deliver it now, or, when `nil`, let the drain wait for this sender's turn
    /// (the outbox queued it for the deliverer).
    case drain(Event<WindowStep<Element>>?)
    /// Drain `step`, as ``drain(_:)``, then start the timer of window `window`, which opened.
    case drainAndStartTimer(Event<WindowStep<Element>>?, window: Int)
  }

  /// Whether to schedule a window's timer.
  enum TimerStartAction {
    /// Schedule it, then hand it to ``timerScheduled(_:_:)``.
    case schedule
    /// Do not: the timers are stopped.
    case skip
  }

  /// What to do with a timer that was scheduled, or stopped.
  enum TimerAction {
    /// Nothing.
    case none
    /// Dispose `timer`: the one it replaced, or itself, when its window already ended or the
    /// timers are stopped.
    case dispose(any Disposable)
  }

  private var state = State.idle
  private var timer = Timer.idle
  private var outbox = SerialOutbox<WindowStep<Element>>()
  /// The open window's elements go to it.
  private var subject: PublishSubject<Element>
  /// The most elements a window holds.
  private let limit: Int

  /// A machine for windows of at most `limit` elements; `subject` is the first window's.
  init(limit: Int, subject: PublishSubject<Element>) {
    self.limit = limit
    self.subject = subject
  }

  /// The subscription starts: the first window is emitted, as the sequence `makeWindow` makes
  /// of its subject.
  mutating func start(makeWindow: (PublishSubject<Element>) -> Observable<Element>) -> StepAction {
    guard case .idle = state else {
      preconditionFailure("Streams internal error: window: started in state \(state)")
    }
    state = .open(window: 0, count: 0)
    return .drain(outbox.send(.next(.open(makeWindow(subject)))))
  }

  /// The source sent an element: it goes to the open window; a window that is now full ends and
  /// the next one opens, as the sequence `makeWindow` makes of its subject.
  mutating func received(
    _ element: Element, makeWindow: (PublishSubject<Element>) -> Observable<Element>
  ) -> StepAction {
    switch state {
    case .open(let window, let count):
      let first = outbox.send(.next(.element(element, to: subject)))
      guard count + 1 == limit else {
        state = .open(window: window, count: count + 1)
        return .drain(first)
      }
      return rollover(after: window, first: first, makeWindow: makeWindow)
    case .ended:
      return .none
    case .idle:
      preconditionFailure("Streams internal error: window: element received in state \(state)")
    }
  }

  /// The timer of window `id` fired: the window ends, unless it already did (it filled up), and
  /// the next one opens.
  mutating func timerFired(
    _ id: Int, makeWindow: (PublishSubject<Element>) -> Observable<Element>
  ) -> StepAction {
    switch state {
    case .open(let window, _):
      guard id == window else { return .none }
      return rollover(after: window, first: nil, makeWindow: makeWindow)
    case .ended:
      return .none
    case .idle:
      preconditionFailure(
        "Streams internal error: window: timer of window \(id) fired in state \(state)")
    }
  }

  /// The source completed: the open window completes, then the outer sequence.
  mutating func completed() -> StepAction {
    end(with: nil)
  }

  /// The source failed: the open window fails, then the outer sequence.
  mutating func failed(_ error: any Error) -> StepAction {
    end(with: error)
  }

  /// The timer of a window that opened is about to be scheduled.
  func timerWillStart() -> TimerStartAction {
    if case .stopped = timer { return .skip }
    return .schedule
  }

  /// The timer of window `id` was scheduled: it is installed, unless its window already ended (a
  /// full window and a time span's end may start the next timer from two threads in either
  /// order) or the timers are stopped.
  mutating func timerScheduled(_ id: Int, _ scheduled: any Disposable) -> TimerAction {
    let open: Int
    switch state {
    case .open(let window, _), .ended(let window):
      open = window
    case .idle:
      preconditionFailure(
        "Streams internal error: window: timer of window \(id) scheduled in state \(state)")
    }
    switch timer {
    case .stopped:
      return .dispose(scheduled)
    case .idle:
      guard id == open else { return .dispose(scheduled) }
      timer = .running(scheduled)
      return .none
    case .running(let previous):
      guard id == open else { return .dispose(scheduled) }
      timer = .running(scheduled)
      return .dispose(previous)
    }
  }

  /// The timers stop: the installed one is handed back, and later ones are disposed at once.
  mutating func stopTimers() -> TimerAction {
    let installed = timer
    timer = .stopped
    guard case .running(let running) = installed else { return .none }
    return .dispose(running)
  }

  /// The next step queued for the delivering thread, if any (``SerialOutbox/next()``).
  mutating func nextPending() -> Event<WindowStep<Element>>? {
    outbox.next()
  }

  /// The delivery rank of this subscription's outbox (see ``DeliveryTurns``).
  var turnRank: Int { outbox.turns.rank }

  /// The source ended (`error` is `nil` for its completion): the open window ends with it, then
  /// the outer sequence.
  private mutating func end(with error: (any Error)?) -> StepAction {
    switch state {
    case .open(let window, _):
      state = .ended(window: window)
      let first = outbox.send(.next(.close(subject, error: error)))
      let second = outbox.send(error.map { .error($0) } ?? .completed)
      return .drain(first ?? second)
    case .ended:
      return .none
    case .idle:
      preconditionFailure("Streams internal error: window: source ended in state \(state)")
    }
  }

  /// Window `window` ends and the next one opens; `first` is what an earlier send of the same
  /// critical section handed back.
  private mutating func rollover(
    after window: Int, first: Event<WindowStep<Element>>?,
    makeWindow: (PublishSubject<Element>) -> Observable<Element>
  ) -> StepAction {
    let fresh = PublishSubject<Element>()
    let closing = subject
    subject = fresh
    let next = window &+ 1
    state = .open(window: next, count: 0)
    let second = outbox.send(.next(.rollover(closing: closing, opening: makeWindow(fresh))))
    return .drainAndStartTimer(first ?? second, window: next)
  }
}
