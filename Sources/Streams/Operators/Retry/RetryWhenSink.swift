/// Runs one subscription of `retry(when:)`: subscribes the trigger, then the attempts, as
/// ``RetryWhenStateMachine`` decides, performing what it decides after unlocking.
///
/// The trigger is subscribed first. A `Failure` from the source disposes that attempt (its
/// `do(onDispose:)` included) and is sent to `errors`; the trigger's next element, if a failure
/// waits, starts the next attempt. An error that is not a `Failure` fails the sequence at once.
/// Starting attempts is a trampoline, as in ``CatchSequenceSink``: a trigger element that comes
/// while an attempt is being subscribed is taken by the loop in `runLoop()` once `subscribe`
/// returns.
///
/// `@unchecked Sendable`: the state machine is guarded by `state`'s lock; `downstream` and
/// `errors` guard themselves; `source` is immutable.
final class RetryWhenSink<Element, Failure: Error>: Disposable, @unchecked Sendable {
  private let downstream: GuardedSink<Element>
  private let source: Observable<Element>
  private let errors = PublishSubject<Failure>()
  private let state = Locked(RetryWhenStateMachine())

  private init(downstream: GuardedSink<Element>, source: Observable<Element>) {
    self.downstream = downstream
    self.source = source
  }

  /// Subscribes `observer` to `source`, retried as the trigger `makeTrigger` builds from the
  /// errors decides; returns the subscription.
  static func run(
    _ observer: AnyObserver<Element>, source: Observable<Element>,
    makeTrigger: (Observable<Failure>) -> Observable<Void>
  ) -> any Disposable {
    let downstream = GuardedSink(observer)
    let sink = RetryWhenSink(downstream: downstream, source: source)
    downstream.setUpstream(sink)
    let trigger = makeTrigger(sink.errors.asObservable())
    let subscription = trigger.subscribeAny(AnyObserver(eventHandler: sink.onTrigger))
    switch sink.state.withLock({ $0.triggerSubscribed(subscription) }) {
    case .runLoop: sink.runLoop()
    case .dispose(let subscription): subscription.dispose()
    }
    return downstream
  }

  private func onSource(_ event: Event<Element>, attempt: SingleAssignmentDisposable) {
    switch event {
    case .next, .completed:
      downstream.on(event)
    case .error(let error):
      guard let failure = error as? Failure else {
        downstream.on(event)
        return
      }
      // The failed attempt's `do(onDispose:)` runs before anything subscribes again.
      DoLifecycle.disposeFully(attempt)
      switch state.withLock({ $0.failed() }) {
      case .drop: break
      case .notify: errors.onNext(failure)
      case .end(let end): self.end(end)
      }
    }
  }

  private func onTrigger(_ event: Event<Void>) {
    let end: RetryWhenStateMachine.TriggerEnd
    switch event {
    case .next:
      switch state.withLock({ $0.triggered() }) {
      case .none: break
      case .runLoop: runLoop()
      }
      return
    case .error(let error):
      end = .failed(error)
    case .completed:
      end = .completed
    }
    switch state.withLock({ $0.triggerEnded(end) }) {
    case .none: break
    case .end: self.end(end)
    }
  }

  /// Ends the sequence as the trigger ended.
  private func end(_ end: RetryWhenStateMachine.TriggerEnd) {
    switch end {
    case .completed: downstream.on(.completed)
    case .failed(let error): downstream.on(.error(error))
    }
  }

  /// The subscribe loop: subscribes a new attempt for as long as attempts fail and the trigger
  /// emits while they are being subscribed.
  private func runLoop() {
    while true {
      let attempt = SingleAssignmentDisposable()
      switch state.withLock({ $0.willSubscribe(attempt) }) {
      case .stop: return
      case .subscribe(let previous): previous?.dispose()
      }
      attempt.setDisposable(
        source.subscribeAny(AnyObserver { [self] event in onSource(event, attempt: attempt) }))
      switch state.withLock({ $0.subscribed() }) {
      case .stop: return
      case .advance: continue
      }
    }
  }

  func dispose() {
    switch state.withLock({ $0.dispose() }) {
    case .dispose(let attempt, let trigger, let triggerEnd):
      attempt?.dispose()
      trigger?.dispose()
      withExtendedLifetime(triggerEnd) {}
    }
  }
}
