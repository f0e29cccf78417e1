/// One thing the deliverer of a `window` subscription does, in the order the state machine
/// accepted it.
enum WindowStep<Element> {
  /// Emit the first window.
  case open(Observable<Element>)
  /// Send an element to the open window.
  case element(Element, to: PublishSubject<Element>)
  /// Complete the window that ends and emit the next one.
  case rollover(closing: PublishSubject<Element>, opening: Observable<Element>)
  /// End the open window with the source's terminal event (`nil`: completion).
  case close(PublishSubject<Element>, error: (any Error)?)
}

/// The state of one `window(timeSpan:count:scheduler:)` subscription: the open window, how many
/// elements it received, which window the pending timer belongs to, and the outbox.
///
/// Every transition runs under the sink's lock and returns the step to deliver (if this thread
/// must deliver) and the id of a window whose timer the caller must start; the sink delivers and
/// schedules after releasing the lock. Nothing is released here: a replaced window leaves in the
/// step that completes it, and transitions are refused once the outbox is closed.
struct WindowStateMachine<Element> {
  /// What a transition leaves to do.
  struct Action {
    /// The step this thread must deliver (and then drain), if any.
    var deliver: Event<WindowStep<Element>>?
    /// A new window opened: start its timer.
    var startTimer: Int?
  }

  var outbox = SerialOutbox<WindowStep<Element>>()
  private(set) var subject: PublishSubject<Element>
  private var count = 0
  private(set) var windowID = 0
  /// The timer of the open window; `nil` once the timers are stopped.
  var timer: (any Disposable)?
  var timersStopped = false
  let limit: Int

  init(limit: Int, subject: PublishSubject<Element>) {
    self.limit = limit
    self.subject = subject
  }

  /// The subscription starts: emit the first window.
  mutating func start(_ window: Observable<Element>) -> Action {
    Action(deliver: outbox.send(.next(.open(window))), startTimer: nil)
  }

  /// A source element: to the open window; a window that is now full rolls over.
  mutating func element(
    _ element: Element, makeWindow: (PublishSubject<Element>) -> Observable<Element>
  ) -> Action {
    if outbox.isClosed { return Action() }
    count += 1
    let first = outbox.send(.next(.element(element, to: subject)))
    guard count == limit else { return Action(deliver: first) }
    var rolled = rollover(makeWindow: makeWindow)
    rolled.deliver = first ?? rolled.deliver
    return rolled
  }

  /// The timer of window `id` fired: the window ends unless it already did (it filled up).
  mutating func timerFired(
    _ id: Int, makeWindow: (PublishSubject<Element>) -> Observable<Element>
  ) -> Action {
    if outbox.isClosed || id != windowID { return Action() }
    return rollover(makeWindow: makeWindow)
  }

  /// The source ended: the open window ends with it, then the outer sequence.
  mutating func terminate(_ error: (any Error)?) -> Action {
    if outbox.isClosed { return Action() }
    let first = outbox.send(.next(.close(subject, error: error)))
    let second = outbox.send(error.map { .error($0) } ?? .completed)
    return Action(deliver: first ?? second)
  }

  private mutating func rollover(
    makeWindow: (PublishSubject<Element>) -> Observable<Element>
  ) -> Action {
    let fresh = PublishSubject<Element>()
    let closing = subject
    subject = fresh
    count = 0
    windowID &+= 1
    let deliver = outbox.send(.next(.rollover(closing: closing, opening: makeWindow(fresh))))
    return Action(deliver: deliver, startTimer: windowID)
  }
}
