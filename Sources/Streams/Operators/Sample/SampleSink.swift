/// Runs one `sample` subscription: performs what ``SampleStateMachine`` decides, after
/// unlocking.
///
/// Not `Sendable`: source and sampler may emit on different threads, which is why the state is
/// behind a lock and the downstream is reached through the outbox.
final class SampleSink<Element> {
  let output: GuardedSink<Element>
  private let sourceSubscription: SingleAssignmentDisposable
  private let state: Locked<SampleStateMachine<Element>>

  init(
    _ observer: AnyObserver<Element>, defaultValue: Element?,
    sourceSubscription: SingleAssignmentDisposable
  ) {
    output = GuardedSink(observer)
    state = Locked(SampleStateMachine(defaultValue: defaultValue))
    self.sourceSubscription = sourceSubscription
  }

  func onSource(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      switch state.withLock({ $0.sourceSent(element) }) {
      case .none: break
      case .release(let replaced): withExtendedLifetime(replaced) {}
      }
    case .error(let error):
      perform(state.withLock { $0.failed(error) })
    case .completed:
      switch state.withLock({ $0.sourceCompleted() }) {
      case .none: break
      case .disposeSource: sourceSubscription.dispose()
      }
    }
  }

  /// A sampler event: an element or a completion (`failure == nil`), or an error.
  func onSampler(failure: (any Error)?) {
    if let failure {
      perform(state.withLock { $0.failed(failure) })
      return
    }
    switch state.withLock({ $0.ticked() }) {
    case .none: break
    case .drain(let first): state.drain(first, into: output)
    }
  }

  private func perform(_ action: SampleStateMachine<Element>.FailedAction) {
    switch action {
    case .none:
      break
    case .drain(let first, let dropped):
      state.drain(first, into: output)
      withExtendedLifetime(dropped) {}
    }
  }
}
