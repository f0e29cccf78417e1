/// The state of one `buffer(timeSpan:count:scheduler:)` subscription: the open window, the
/// elements it collected, the timer of its time span, and the outbox that serializes the
/// timer's emissions with the source's.
///
/// Windows are numbered from 0. Every transition runs under the sink's lock and returns what the
/// sink must do once the lock is released (drain a buffer, start the timer of a window that
/// opened, dispose a timer); the machine never calls out, and the sink never reads its storage.
/// Nothing is released here either: a dropped buffer and a replaced timer are handed back.
///
/// ```
///             count elements, or the time span ended: the buffer is emitted
///   open(n) ──────────────────────────────────────────────────────────────▶ open(n+1)
///      │
///      │ the source completes (the buffer is emitted, then the completion) or fails
///      ▼
///   ended(n)
/// ```
///
/// The timers have a slot of their own beside the state: the first window's timer is started
/// before the source is subscribed, and a full buffer (on the source's thread) and a time
/// span's end (on the timer's) may each start the next window's timer, in either order; only the
/// open window's is installed. They run until the sink stops them (``stopTimers()``), at
/// disposal.
struct BufferStateMachine<Element> {
  /// Where the source stands.
  private enum State {
    /// The source runs; window `window` collects the elements.
    case open(window: Int)
    /// The source ended: its terminal event was accepted (it may still be queued for the
    /// deliverer) and nothing more is emitted; `window` was the last window.
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

  /// What to do with an element, a timer's firing, or the completion.
  enum StepAction {
    /// Nothing: the element joined the buffer, the timer is stale, or the sequence ended.
    case none
    /// Drain `event`: deliver it now, or, when `nil`, let the drain wait for this sender's turn
    /// (the outbox queued it for the deliverer).
    case drain(Event<[Element]>?)
    /// Drain `event`, the buffer of a window that ended, as ``drain(_:)``, then start the
    /// timer of window `window`, which opened.
    case drainAndStartTimer(Event<[Element]>?, window: Int)
  }

  /// What to do when the source failed.
  enum FailedAction {
    /// Nothing: the sequence already ended.
    case none
    /// Drain `event` (as ``StepAction/drain(_:)``), then release `dropped`, the buffer.
    case drain(Event<[Element]>?, dropping: [Element])
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

  private var state = State.open(window: 0)
  private var timer = Timer.idle
  /// The open window's elements.
  private var buffer: [Element] = []
  private var outbox = SerialOutbox<[Element]>()
  /// The most elements a buffer holds.
  private let limit: Int

  /// A machine for buffers of at most `limit` elements.
  init(limit: Int) {
    self.limit = limit
  }

  /// The source sent `element`: it joins the buffer; a buffer that is now full is emitted and
  /// the next window opens.
  mutating func received(_ element: Element) -> StepAction {
    switch state {
    case .open(let window):
      buffer.append(element)
      guard buffer.count == limit else { return .none }
      return rollover(after: window)
    case .ended:
      return .none
    }
  }

  /// The timer of window `id` fired: the buffer is emitted and the next window opens, unless
  /// the window already ended (it filled up).
  mutating func timerFired(_ id: Int) -> StepAction {
    let open: Int
    switch state {
    case .open(let window), .ended(let window): open = window
    }
    guard id <= open else {
      preconditionFailure(
        "Streams internal error: buffer: timer of window \(id) fired, the last window is \(open)")
    }
    guard case .open = state, id == open else { return .none }
    return rollover(after: open)
  }

  /// The source completed: the buffer is emitted, even when empty, then the completion.
  mutating func completed() -> StepAction {
    guard case .open(let window) = state else { return .none }
    state = .ended(window: window)
    let first = outbox.send(.next(takeBuffer()))
    let completed = outbox.send(.completed)
    return .drain(first ?? completed)
  }

  /// The source failed with `error`: it is emitted at once, and the buffer is dropped.
  mutating func failed(_ error: any Error) -> FailedAction {
    guard case .open(let window) = state else { return .none }
    state = .ended(window: window)
    return .drain(outbox.send(.error(error)), dropping: takeBuffer())
  }

  /// The timer of a window that opened is about to be scheduled.
  func timerWillStart() -> TimerStartAction {
    if case .stopped = timer { return .skip }
    return .schedule
  }

  /// The timer of window `id` was scheduled: it is installed, unless its window already ended
  /// (a full buffer and a time span's end may start the next timer from two threads in either
  /// order: a stale timer must not replace the newer window's, or no window would ever end by
  /// time again) or the timers are stopped.
  mutating func timerScheduled(_ id: Int, _ scheduled: any Disposable) -> TimerAction {
    let open: Int
    switch state {
    case .open(let window), .ended(let window): open = window
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

  /// Window `window` ends: its buffer is emitted and the next window opens.
  private mutating func rollover(after window: Int) -> StepAction {
    let next = window &+ 1
    state = .open(window: next)
    return .drainAndStartTimer(outbox.send(.next(takeBuffer())), window: next)
  }

  /// The buffer, moved out; an empty one takes its place.
  private mutating func takeBuffer() -> [Element] {
    var taken: [Element] = []
    swap(&taken, &buffer)
    return taken
  }
}

extension BufferStateMachine: OutboxState {
  /// The next event queued for the delivering thread, if any (``SerialOutbox/next()``).
  mutating func nextPending() -> Event<[Element]>? {
    outbox.next()
  }

  /// The delivery rank of this subscription's outbox (see ``DeliveryTurns``).
  var turnRank: Int { outbox.turns.rank }
}
