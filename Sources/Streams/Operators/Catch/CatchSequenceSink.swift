/// Runs one subscription of ``ObservableType/catch(sequence:file:line:)``, `retry` and
/// `retry(_:)`: subscribes to sources one after another as ``CatchSequenceStateMachine`` decides,
/// performing what it decides after unlocking. An error moves to the next source, completion ends
/// the sequence, and running out of sources ends it with the last error (or completion if there
/// was none).
///
/// Moving to the next source is a trampoline: a source that fails while it is being subscribed
/// only marks the machine `advancing`, and the loop in `run(after:)` goes on once `subscribe`
/// returns, so the stack stays flat however many sources fail synchronously.
///
/// `@unchecked Sendable`: the state machine is guarded by `state`'s lock; `nextSource` is only
/// called by the thread that owns the subscribe loop (the machine's `fetching` state);
/// `downstream` guards itself.
final class CatchSequenceSink<Element>: Disposable, @unchecked Sendable {
  private let downstream: GuardedSink<Element>
  private let nextSource: () -> Observable<Element>?
  private let state = Locked(CatchSequenceStateMachine())

  private init(downstream: GuardedSink<Element>, nextSource: @escaping () -> Observable<Element>?) {
    self.downstream = downstream
    self.nextSource = nextSource
  }

  /// Subscribes `observer` to the sources `nextSource` hands out, in turn; returns the
  /// subscription.
  static func run(
    _ observer: AnyObserver<Element>, nextSource: @escaping () -> Observable<Element>?
  ) -> any Disposable {
    let downstream = GuardedSink(observer)
    let sink = CatchSequenceSink(downstream: downstream, nextSource: nextSource)
    downstream.setUpstream(sink)
    sink.run(after: nil)
    return downstream
  }

  private func on(_ event: Event<Element>) {
    switch event {
    case .next, .completed:
      downstream.on(event)
    case .error(let error):
      // The error this one replaces is released last (its deinit may re-enter).
      switch state.withLock({ $0.failed(error) }) {
      case .drop:
        break
      case .advanceLater(let replaced):
        withExtendedLifetime(replaced) {}
      case .runLoop(let failed, let replaced):
        run(after: failed)
        withExtendedLifetime(replaced) {}
      }
    }
  }

  /// The subscribe loop: subscribes the next source for as long as sources fail synchronously.
  ///
  /// `failed` is the subscription of the source that just failed: it is disposed after the next
  /// source is fetched, before that source is subscribed, or, when there is none, before the
  /// last error is delivered.
  private func run(after failed: (any Disposable)?) {
    var failed = failed
    while true {
      switch state.withLock({ $0.willFetch() }) {
      case .stop:
        failed?.dispose()
        return
      case .fetch:
        break
      }
      guard let source = nextSource() else {
        failed?.dispose()
        switch state.withLock({ $0.exhausted() }) {
        case .none: break
        case .complete: downstream.on(.completed)
        case .fail(let error): downstream.on(.error(error))
        }
        return
      }
      // The failed source's `do(onDispose:)` runs before the next source is subscribed; if it
      // disposed this subscription, the next source is not subscribed at all.
      DoLifecycle.disposeFully(failed.take())
      switch state.withLock({ $0.willSubscribe() }) {
      case .stop: return
      case .subscribe: break
      }
      let subscription = source.subscribeAny(AnyObserver(eventHandler: self.on))
      switch state.withLock({ $0.subscribed(subscription) }) {
      case .keep:
        return
      case .dispose(let subscription):
        subscription.dispose()
        return
      case .advance(let subscription):
        failed = subscription
      }
    }
  }

  func dispose() {
    switch state.withLock({ $0.dispose() }) {
    case .dispose(let current, let lastError):
      current?.dispose()
      withExtendedLifetime(lastError) {}
    }
  }
}
