/// The state of one subscription of `catch(sequence:)`, `retry` and `retry(_:)`: one source at a
/// time, the next one subscribed when the current one fails.
///
/// The sources are subscribed by a loop (``CatchSequenceSink``'s `run(after:)`), which one thread
/// at a time owns (it alone advances the iterator). A source that fails while the loop is
/// subscribing it, inside its own `subscribe` or on another thread, does not start the loop a
/// second time: it marks the loop `advancing`, and the loop goes on with the next source when the
/// `subscribe` returns, so many sources that fail synchronously do not grow the stack. The last
/// error is kept for the end: when the sources run out, the sequence fails with it, or completes
/// when no source failed. Every transition runs under the sink's lock and returns what the sink
/// must do once the lock is released, including the error or subscription it let go of; the
/// machine never calls out.
///
/// ```
///               a next source                      its subscribe returned
///   ┌──▶ fetching ─────────▶ subscribing ──────────────────────────────────▶ running
///   │        │                    │                                            │
///   │        │ no more sources    │ it fails before its subscribe returned     │ it fails
///   │        ▼                    ▼                                            │
///   │      ended             advancing                                         │
///   │                             │ its subscribe returned                     │
///   └─────────────────────────────┴────────────────────────────────────────────┘
///
///   disposal, in any state ──▶ ended
/// ```
///
/// A source's elements and completion go straight to the downstream observer, past the machine:
/// the completion ends the subscription, which disposes it.
struct CatchSequenceStateMachine {
  /// Where the sequence of sources stands. `lastError` is the error of the source that failed
  /// last (`nil` while none has), which the sequence fails with if it is the last source.
  private enum State {
    /// The loop runs: it fetches the next source from the iterator and disposes the failed one
    /// (the loop holds its subscription).
    case fetching(lastError: (any Error)?)
    /// The loop runs and subscribes the source it fetched.
    case subscribing(lastError: (any Error)?)
    /// The loop runs and the source it subscribes failed before its `subscribe` returned, with
    /// `lastError`: once the `subscribe` returns, the loop goes on with the next source.
    case advancing(lastError: any Error)
    /// The current source is subscribed and runs; nobody runs the loop: its failure starts it
    /// again.
    case running(subscription: any Disposable, lastError: (any Error)?)
    /// The sources ran out, or the subscription was disposed (a source that completed disposes
    /// it): nothing more is subscribed. A loop still running stops at its next step.
    case ended
  }

  /// What the loop does at its start.
  enum FetchAction {
    /// Stop: the subscription ended. The loop disposes the failed source it holds, if any.
    case stop
    /// Fetch the next source from the iterator (or, when it has none, call ``exhausted()``).
    case fetch
  }

  /// What to do when the iterator has no more sources.
  enum ExhaustedAction {
    /// Nothing: the subscription ended.
    case none
    /// Complete: no source failed (there was none).
    case complete
    /// Fail with the last source's error.
    case fail(any Error)
  }

  /// What the loop does once the failed source is disposed.
  enum SubscribeAction {
    /// Stop: the subscription ended (the failed source's disposal may have ended it).
    case stop
    /// Subscribe to the source fetched, then call ``subscribed(_:)``.
    case subscribe
  }

  /// What the loop does once a source's `subscribe` returned.
  enum SubscribedAction {
    /// Keep the subscription and stop looping: the source runs.
    case keep
    /// Dispose the subscription now, as the subscription ended, and stop looping.
    case dispose(any Disposable)
    /// Go on with the next source, then dispose this subscription, as the source failed (after
    /// fetching the next source, before subscribing to it).
    case advance(after: any Disposable)
  }

  /// What to do when the current source failed.
  enum FailedAction {
    /// Nothing: the subscription ended.
    case drop
    /// Release `releasing`, the error this one replaced, after unlocking: the loop subscribing
    /// the source goes on with the next one once the `subscribe` returns.
    case advanceLater(releasing: (any Error)?)
    /// Run the loop after `after`, the failed source's subscription, then release `releasing`,
    /// the error this one replaced.
    case runLoop(after: any Disposable, releasing: (any Error)?)
  }

  /// What to do when the subscription ends.
  enum DisposeAction {
    /// Dispose `current`, the running source's subscription (`nil` when none runs or the loop
    /// holds it), then release `releasing`, the last error, which will not be delivered.
    case dispose(current: (any Disposable)?, releasing: (any Error)?)
  }

  /// The subscriber owns the loop first: it fetches the first source.
  private var state = State.fetching(lastError: nil)

  /// The loop starts or goes on: it is about to fetch the next source.
  mutating func willFetch() -> FetchAction {
    switch state {
    case .fetching:
      return .fetch
    case .ended:
      return .stop
    case .subscribing, .advancing, .running:
      preconditionFailure(
        "Streams internal error: catch(sequence:): next source fetched in state \(state)")
    }
  }

  /// The iterator has no more sources: the sequence ends with the last error, or completes.
  mutating func exhausted() -> ExhaustedAction {
    switch state {
    case .fetching(let lastError):
      state = .ended
      return lastError.map(ExhaustedAction.fail) ?? .complete
    case .ended:
      return .none
    case .subscribing, .advancing, .running:
      preconditionFailure(
        "Streams internal error: catch(sequence:): sources exhausted in state \(state)")
    }
  }

  /// The loop fetched a source and disposed the failed one: it is about to subscribe.
  mutating func willSubscribe() -> SubscribeAction {
    switch state {
    case .fetching(let lastError):
      state = .subscribing(lastError: lastError)
      return .subscribe
    case .ended:
      return .stop
    case .subscribing, .advancing, .running:
      preconditionFailure(
        "Streams internal error: catch(sequence:): source subscribed in state \(state)")
    }
  }

  /// The source's `subscribe` returned `subscription`.
  mutating func subscribed(_ subscription: any Disposable) -> SubscribedAction {
    switch state {
    case .subscribing(let lastError):
      state = .running(subscription: subscription, lastError: lastError)
      return .keep
    case .advancing(let lastError):
      state = .fetching(lastError: lastError)
      return .advance(after: subscription)
    case .ended:
      return .dispose(subscription)
    case .fetching, .running:
      preconditionFailure(
        "Streams internal error: catch(sequence:): subscribe returned in state \(state)")
    }
  }

  /// The current source failed with `error`: the loop goes on with the next source, run by the
  /// caller unless the loop is subscribing this source.
  mutating func failed(_ error: any Error) -> FailedAction {
    switch state {
    case .running(let subscription, let lastError):
      state = .fetching(lastError: error)
      return .runLoop(after: subscription, releasing: lastError)
    case .subscribing(let lastError):
      state = .advancing(lastError: error)
      return .advanceLater(releasing: lastError)
    case .ended:
      return .drop
    case .fetching, .advancing:
      preconditionFailure(
        "Streams internal error: catch(sequence:): a source failed in state \(state)")
    }
  }

  /// The subscription ends: the running source's subscription and the last error are handed
  /// back.
  mutating func dispose() -> DisposeAction {
    let action: DisposeAction
    switch state {
    case .fetching(let lastError), .subscribing(let lastError):
      action = .dispose(current: nil, releasing: lastError)
    case .advancing(let lastError):
      action = .dispose(current: nil, releasing: lastError)
    case .running(let subscription, let lastError):
      action = .dispose(current: subscription, releasing: lastError)
    case .ended:
      action = .dispose(current: nil, releasing: nil)
    }
    state = .ended
    return action
  }
}
