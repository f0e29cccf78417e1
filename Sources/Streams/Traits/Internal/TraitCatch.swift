/// Error recovery for the traits: `catch`, `retry(_:)` and `retry(when:)` on the raw observable
/// of a trait. The `Observable` operators of the same names live elsewhere; these are the small
/// versions the traits need, kept private to them.
enum TraitCatch {
  /// On `.error`, subscribes to `handler(error)` and continues with it; a throw becomes `.error`.
  ///
  /// The source's subscription is disposed right after the handler's sequence is subscribed.
  static func catchError<Element>(
    _ source: Observable<Element>, file: StaticString, line: UInt,
    _ handler: @escaping (any Error) throws -> Observable<Element>
  ) -> Observable<Element> {
    Observable(kind: "catch", upstreams: [source.traceID], file: file, line: line) { observer in
      let sink = GuardedSink(observer)
      let serial = SerialDisposable()
      sink.setUpstream(serial)
      let first = SingleAssignmentDisposable()
      serial.disposable = first
      first.setDisposable(
        source.subscribeAny(
          AnyObserver { event in
            guard case .error(let error) = event else { return sink.on(event) }
            guard sink.isActive else { return }
            do {
              let next = try handler(error)
              serial.disposable = next.subscribeAny(AnyObserver(eventHandler: sink.on))
            } catch {
              sink.on(.error(error))
            }
          }))
      return sink
    }
  }

  /// Subscribes to `source` up to `maxAttemptCount` times in all, until one attempt does not
  /// fail; the last attempt's error is forwarded. `0` attempts complete at once, as in RxSwift.
  static func retry<Element>(
    _ source: Observable<Element>, maxAttemptCount: Int, file: StaticString, line: UInt
  ) -> Observable<Element> {
    precondition(
      maxAttemptCount >= 0,
      "retry(_:) needs a maximum attempt count of 0 or more, got \(maxAttemptCount)")
    return Observable(kind: "retry", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      guard maxAttemptCount > 0 else {
        sink.on(.completed)
        return sink
      }
      let run = RetryRun(source: source, sink: sink)
      sink.setUpstream(run.serial)
      run.start { error in
        let retry = run.attempts.withLock { attempts -> Bool in
          guard attempts < maxAttemptCount else { return false }
          attempts += 1
          return true
        }
        if retry { run.subscribeAgain() } else { sink.on(.error(error)) }
      }
      return sink
    }
  }

  /// Resubscribes to `source` after an error when the sequence `handler` builds from the errors
  /// emits an element; that sequence's `.completed` or `.error` ends the result the same way.
  ///
  /// As in RxSwift, the trigger is only listened to after an error: an element it emits while an
  /// attempt is running is ignored, and its termination takes effect at the next error. An error
  /// that is not an `ErrorType` is forwarded as it is.
  static func retryWhen<Element, ErrorType: Error, Trigger: ObservableType>(
    _ source: Observable<Element>, file: StaticString, line: UInt,
    _ handler: @escaping (Observable<ErrorType>) -> Trigger
  ) -> Observable<Element> {
    Observable(kind: "retryWhen", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      let run = RetryRun(source: source, sink: sink)
      let errors = PublishSubject<ErrorType>()
      let triggerSubscription = SingleAssignmentDisposable()
      sink.setUpstream(Disposables.create(run.serial, triggerSubscription))
      let trigger = RetryTrigger()
      triggerSubscription.setDisposable(
        handler(errors.asObservable()).asObservable().subscribeAny(
          AnyObserver { event in
            switch trigger.triggered(event.map { _ in () }) {
            case .resubscribe: run.subscribeAgain()
            case .forward(let terminal): sink.on(terminal.terminal())
            case .none: break
            }
          }))
      run.start { error in
        guard let typed = error as? ErrorType else { return sink.on(.error(error)) }
        run.serial.disposable = Disposables.create()
        if case .forward(let terminal) = trigger.failed() {
          return sink.on(terminal.terminal())
        }
        errors.on(.next(typed))
      }
      return sink
    }
  }
}

/// One subscription after another to the same source, with a trampoline: an attempt that fails
/// while it is being subscribed starts the next one from the loop, not from a nested call, so
/// synchronous failures do not grow the stack.
private final class RetryRun<Element>: @unchecked Sendable {
  // `@unchecked Sendable`: `trampoline` and `attempts` are lock-guarded; `source` and `sink` are
  // immutable; `onError` is set once in `start` before the first subscription.
  let source: Observable<Element>
  let sink: GuardedSink<Element>
  let serial = SerialDisposable()
  let attempts = Locked(1)
  private let trampoline = Locked((running: false, pending: false))
  private var onError: (any Error) -> Void = { _ in }

  init(source: Observable<Element>, sink: GuardedSink<Element>) {
    self.source = source
    self.sink = sink
  }

  func start(onError: @escaping (any Error) -> Void) {
    self.onError = onError
    subscribeAgain()
  }

  func subscribeAgain() {
    let claimed = trampoline.withLock { state -> Bool in
      if state.running {
        state.pending = true
        return false
      }
      state.running = true
      return true
    }
    guard claimed else { return }
    var again = true
    while again {
      if sink.isActive {
        let attempt = SingleAssignmentDisposable()
        serial.disposable = attempt
        attempt.setDisposable(
          source.subscribeAny(
            AnyObserver { [self] event in
              guard case .error(let error) = event else { return sink.on(event) }
              guard sink.isActive else { return }
              onError(error)
            }))
      }
      again = trampoline.withLock { state -> Bool in
        if state.pending {
          state.pending = false
          return true
        }
        state.running = false
        return false
      }
    }
  }
}

/// What `retry(when:)` does with the trigger: resubscribe only while an error is waiting for it.
private final class RetryTrigger: Sendable {
  enum Action {
    case none
    case resubscribe
    case forward(Event<Void>)
  }

  private struct State {
    var waiting = false
    var terminal: Event<Void>?
  }

  private let state = Locked(State())

  /// The source failed; returns `.forward` if the trigger has already terminated.
  func failed() -> Action {
    state.withLock { state in
      if let terminal = state.terminal { return .forward(terminal) }
      state.waiting = true
      return .none
    }
  }

  /// The trigger sent `event` (`.next(())` for an element).
  func triggered(_ event: Event<Void>) -> Action {
    state.withLock { state in
      switch event {
      case .next:
        guard state.waiting else { return .none }
        state.waiting = false
        return .resubscribe
      case .error, .completed:
        guard state.waiting else {
          if state.terminal == nil { state.terminal = event }
          return .none
        }
        state.waiting = false
        return .forward(event)
      }
    }
  }
}

extension Event {
  /// This terminal event retyped; `.next` is an internal error.
  func terminal<Other>() -> Event<Other> {
    switch self {
    case .next: preconditionFailure("Streams internal error: expected a terminal event")
    case .error(let error): return .error(error)
    case .completed: return .completed
    }
  }
}
