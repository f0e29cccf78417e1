/// The state of one subscription of `retry(when:)`: the trigger, subscribed first, then one
/// attempt at a time, the next one subscribed when the trigger emits after a failure.
///
/// A `Failure` from the source makes it wait (the sink reports it to the handler's errors
/// observable); the trigger's next element, if a failure waits, starts the next attempt, and is
/// ignored otherwise. A trigger that ends while a failure waits ends the sequence at once;
/// otherwise its end is kept and ends the sequence at the next failure (RxSwift routes the trigger
/// through a subject that the sink only listens to while a failure waits).
///
/// The attempts are subscribed by a loop (``RetryWhenSink``'s `runLoop()`), which one thread at a
/// time owns. A trigger element that comes while the loop subscribes an attempt that already
/// failed (inside its own `subscribe`, or on another thread) does not start the loop a second
/// time: it marks the loop `advancing`, and the loop subscribes the next attempt when the
/// `subscribe` returns, so attempts that fail synchronously do not grow the stack. Every
/// transition runs under the sink's lock and returns what the sink must do once the lock is
/// released; the machine never calls out.
///
/// ```
///   subscribingTrigger
///          │ its subscribe returned
///          ▼                       its subscribe returned
///   ┌──▶ looping ─────────────────────────────────────────▶ running
///   │       │                                                  │
///   │       │ the attempt fails before its subscribe returned  │ the attempt fails
///   │       ▼                 its subscribe returned           ▼
///   │  waitingInLoop ────────────────────────────────────▶ waiting
///   │       │ a trigger element                                │ a trigger element
///   │       ▼                                                  │
///   │   advancing                                              │
///   │       │ its subscribe returned                           │
///   └───────┴──────────────────────────────────────────────────┘
///
///   a failure after the trigger ended, or the trigger's end while a failure waits: the sequence
///   ends, and the subscription is disposed; disposal, in any state ──▶ ended
/// ```
struct RetryWhenStateMachine {
  /// How the trigger ended: how the sequence ends.
  enum TriggerEnd {
    /// The trigger completed: the sequence completes.
    case completed
    /// The trigger failed: the sequence fails with its error.
    case failed(any Error)
  }

  /// Where the subscription stands. `attempt` is the subscription of the attempt being subscribed
  /// or running, or of the last one, which failed and was disposed; `trigger` is the trigger's
  /// subscription; `triggerEnd` is how the trigger ended, kept for the next failure (`nil` while
  /// it runs). A failure waits in `waitingInLoop` and `waiting` only: the trigger ending then
  /// ends the sequence at once, so those states keep no end.
  private enum State {
    /// The trigger is being subscribed; the source is not yet.
    case subscribingTrigger(triggerEnd: TriggerEnd?)
    /// The loop runs and no failure waits: it is about to subscribe the next attempt (`attempt`
    /// is then the failed one, `nil` before the first) or subscribes `attempt`.
    case looping(
      attempt: SingleAssignmentDisposable?, trigger: any Disposable, triggerEnd: TriggerEnd?)
    /// The loop runs and `attempt` failed before its `subscribe` returned: its failure waits for
    /// the trigger.
    case waitingInLoop(attempt: SingleAssignmentDisposable, trigger: any Disposable)
    /// The loop runs, `attempt` failed before its `subscribe` returned and the trigger emitted
    /// since: once the `subscribe` returns, the loop subscribes the next attempt.
    case advancing(
      attempt: SingleAssignmentDisposable, trigger: any Disposable, triggerEnd: TriggerEnd?)
    /// `attempt` runs; nobody runs the loop.
    case running(
      attempt: SingleAssignmentDisposable, trigger: any Disposable, triggerEnd: TriggerEnd?)
    /// `attempt` failed and its failure waits for the trigger; nobody runs the loop: the
    /// trigger's next element starts it.
    case waiting(attempt: SingleAssignmentDisposable, trigger: any Disposable)
    /// The subscription was disposed (the sequence ended): nothing more is subscribed. A loop
    /// still running stops at its next step.
    case ended
  }

  /// What to do once the trigger's `subscribe` returned.
  enum TriggerSubscribedAction {
    /// Run the loop: subscribe the first attempt.
    case runLoop
    /// Dispose the trigger's subscription now: the subscription ended.
    case dispose(any Disposable)
  }

  /// What the loop does at each step.
  enum NextAttemptAction {
    /// Stop: the subscription ended.
    case stop
    /// Dispose `previous`, the failed attempt (`nil` before the first), then subscribe the new
    /// attempt.
    case subscribe(disposingPrevious: SingleAssignmentDisposable?)
  }

  /// What the loop does once an attempt's `subscribe` returned.
  enum SubscribedAction {
    /// Stop looping: the attempt runs, its failure waits for the trigger, or the subscription
    /// ended.
    case stop
    /// Subscribe the next attempt: the trigger emitted after this one failed.
    case advance
  }

  /// What to do when the source fails with a `Failure`.
  enum FailedAction {
    /// Nothing: the subscription ended.
    case drop
    /// Send the failure to the handler's errors observable; the trigger decides what follows.
    case notify
    /// End the sequence as the trigger did (it ended before this failure).
    case end(TriggerEnd)
  }

  /// What to do when the trigger emits an element.
  enum TriggeredAction {
    /// Nothing: no failure waits, or the loop that runs subscribes the next attempt.
    case none
    /// Run the loop: subscribe the next attempt.
    case runLoop
  }

  /// What to do when the trigger ends.
  enum TriggerEndedAction {
    /// Nothing: no failure waits, so its end is kept for the next one; or the subscription ended.
    case none
    /// End the sequence as the trigger did: a failure waits.
    case end
  }

  /// What to do when the subscription ends.
  enum DisposeAction {
    /// Dispose `attempt`, then `trigger` (each `nil` when not subscribed yet), then release
    /// `releasing`, the trigger's kept end, after unlocking.
    case dispose(
      attempt: SingleAssignmentDisposable?, trigger: (any Disposable)?, releasing: TriggerEnd?)
  }

  /// The trigger is subscribed first, by the subscriber.
  private var state = State.subscribingTrigger(triggerEnd: nil)

  /// The trigger's `subscribe` returned `subscription`.
  mutating func triggerSubscribed(_ subscription: any Disposable) -> TriggerSubscribedAction {
    switch state {
    case .subscribingTrigger(let triggerEnd):
      state = .looping(attempt: nil, trigger: subscription, triggerEnd: triggerEnd)
      return .runLoop
    case .ended:
      return .dispose(subscription)
    case .looping, .waitingInLoop, .advancing, .running, .waiting:
      preconditionFailure(
        "Streams internal error: retry(when:): trigger subscribed in state \(state)")
    }
  }

  /// The loop is about to subscribe `attempt`, which the machine keeps from now on.
  mutating func willSubscribe(_ attempt: SingleAssignmentDisposable) -> NextAttemptAction {
    switch state {
    case .looping(let previous, let trigger, let triggerEnd):
      state = .looping(attempt: attempt, trigger: trigger, triggerEnd: triggerEnd)
      return .subscribe(disposingPrevious: previous)
    case .ended:
      // A disposal that came in since the loop started has already taken the last attempt:
      // keeping a new one now would subscribe to the source after disposal and keep that
      // subscription (and the sink) alive for good.
      return .stop
    case .subscribingTrigger, .waitingInLoop, .advancing, .running, .waiting:
      preconditionFailure(
        "Streams internal error: retry(when:): attempt subscribed in state \(state)")
    }
  }

  /// The current attempt's `subscribe` returned.
  mutating func subscribed() -> SubscribedAction {
    switch state {
    case .looping(let attempt?, let trigger, let triggerEnd):
      state = .running(attempt: attempt, trigger: trigger, triggerEnd: triggerEnd)
      return .stop
    case .waitingInLoop(let attempt, let trigger):
      state = .waiting(attempt: attempt, trigger: trigger)
      return .stop
    case .advancing(let attempt, let trigger, let triggerEnd):
      state = .looping(attempt: attempt, trigger: trigger, triggerEnd: triggerEnd)
      return .advance
    case .ended:
      return .stop
    case .subscribingTrigger, .looping(.none, _, _), .running, .waiting:
      preconditionFailure(
        "Streams internal error: retry(when:): attempt's subscribe returned in state \(state)")
    }
  }

  /// The current attempt failed with a `Failure` (its subscription is disposed already).
  mutating func failed() -> FailedAction {
    switch state {
    case .running(_, _, let triggerEnd?), .looping(_?, _, let triggerEnd?):
      return .end(triggerEnd)
    case .running(let attempt, let trigger, .none):
      state = .waiting(attempt: attempt, trigger: trigger)
      return .notify
    case .looping(let attempt?, let trigger, .none):
      state = .waitingInLoop(attempt: attempt, trigger: trigger)
      return .notify
    case .ended:
      return .drop
    case .subscribingTrigger, .looping(.none, _, _), .waitingInLoop, .advancing, .waiting:
      preconditionFailure(
        "Streams internal error: retry(when:): the source failed in state \(state)")
    }
  }

  /// The trigger emitted an element: the next attempt starts if a failure waits.
  mutating func triggered() -> TriggeredAction {
    switch state {
    case .waiting(let attempt, let trigger):
      state = .looping(attempt: attempt, trigger: trigger, triggerEnd: nil)
      return .runLoop
    case .waitingInLoop(let attempt, let trigger):
      state = .advancing(attempt: attempt, trigger: trigger, triggerEnd: nil)
      return .none
    case .subscribingTrigger, .looping, .advancing, .running, .ended:
      return .none
    }
  }

  /// The trigger ended with `end`: the sequence ends now if a failure waits, otherwise at the
  /// next failure.
  mutating func triggerEnded(_ end: TriggerEnd) -> TriggerEndedAction {
    switch state {
    case .subscribingTrigger(.none):
      state = .subscribingTrigger(triggerEnd: end)
    case .looping(let attempt, let trigger, .none):
      state = .looping(attempt: attempt, trigger: trigger, triggerEnd: end)
    case .advancing(let attempt, let trigger, .none):
      state = .advancing(attempt: attempt, trigger: trigger, triggerEnd: end)
    case .running(let attempt, let trigger, .none):
      state = .running(attempt: attempt, trigger: trigger, triggerEnd: end)
    case .waitingInLoop, .waiting:
      return .end
    case .ended:
      break
    case .subscribingTrigger(_?), .looping(_, _, _?), .advancing(_, _, _?), .running(_, _, _?):
      preconditionFailure("Streams internal error: retry(when:): the trigger ended twice")
    }
    return .none
  }

  /// The subscription ends: the attempt's and the trigger's subscriptions and the trigger's kept
  /// end are handed back.
  mutating func dispose() -> DisposeAction {
    let action: DisposeAction
    switch state {
    case .subscribingTrigger(let triggerEnd):
      action = .dispose(attempt: nil, trigger: nil, releasing: triggerEnd)
    case .looping(let attempt, let trigger, let triggerEnd):
      action = .dispose(attempt: attempt, trigger: trigger, releasing: triggerEnd)
    case .advancing(let attempt, let trigger, let triggerEnd),
      .running(let attempt, let trigger, let triggerEnd):
      action = .dispose(attempt: attempt, trigger: trigger, releasing: triggerEnd)
    case .waitingInLoop(let attempt, let trigger), .waiting(let attempt, let trigger):
      action = .dispose(attempt: attempt, trigger: trigger, releasing: nil)
    case .ended:
      action = .dispose(attempt: nil, trigger: nil, releasing: nil)
    }
    state = .ended
    return action
  }
}
