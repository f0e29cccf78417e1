/// Runs one subscription of `withLatestFrom`.
///
/// `@unchecked Sendable`: `flags` is only accessed atomically after `init`; all other mutable
/// state is the state machine behind `state`'s lock;
/// `downstream` and `resultSelector` are only called by the holder of the outbox's delivery claim.
final class WithLatestFromSink<First, Second, Result>: MultiSourceSink,
  @unchecked Sendable
{
  typealias Payload = (First, Second)

  /// The lifecycle word: the first stored property (``MultiSourceSink``).
  var flags: Int

  private let downstream: AnyObserver<Result>
  private let resultSelector: (First, Second) throws -> Result
  let state = Locked(WithLatestFromStateMachine<First, Second>())

  private init(
    downstream: AnyObserver<Result>, resultSelector: @escaping (First, Second) throws -> Result
  ) {
    self.flags = 0
    self.downstream = downstream
    self.resultSelector = resultSelector
    Resources.track(self)
  }

  deinit { Resources.untrack(self) }

  /// Subscribes to `second`, then to `first`, as RxSwift does.
  static func subscribe(
    _ first: Observable<First>, _ second: Observable<Second>, observer: AnyObserver<Result>,
    resultSelector: @escaping (First, Second) throws -> Result
  ) -> any Disposable {
    let sink = WithLatestFromSink(downstream: observer, resultSelector: resultSelector)
    let secondSubscription = second.subscribeNested(AnyObserver { event in sink.secondOn(event) })
    sink.perform(sink.state.withLock { $0.secondSubscribed(secondSubscription) })
    let firstSubscription = first.subscribeNested(AnyObserver { event in sink.firstOn(event) })
    sink.perform(sink.state.withLock { $0.firstSubscribed(firstSubscription) })
    return sink
  }

  private func firstOn(_ event: Event<First>) {
    switch event {
    case .next(let element):
      switch state.withLock({ $0.firstNext(element) }) {
      case .drop: break
      case .drain(let first): drain(first)
      }
    case .error(let error):
      perform(state.withLock { $0.end(with: .error(error)) })
    case .completed:
      perform(state.withLock { $0.end(with: .completed) })
    }
  }

  private func secondOn(_ event: Event<Second>) {
    switch event {
    case .next(let element):
      switch state.withLock({ $0.secondNext(element) }) {
      case .none: break
      case .release(let replaced): withExtendedLifetime(replaced) {}
      }
    case .error(let error):
      perform(state.withLock { $0.end(with: .error(error)) })
    case .completed:
      switch state.withLock({ $0.secondCompleted() }) {
      case .none: break
      case .dispose(let subscription): subscription.dispose()
      }
    }
  }

  private func perform(_ action: WithLatestFromStateMachine<First, Second>.SubscribedAction) {
    switch action {
    case .keep: break
    case .dispose(let subscription): subscription.dispose()
    }
  }

  private func perform(_ action: WithLatestFromStateMachine<First, Second>.EndAction) {
    switch action {
    case .none:
      break
    case .drain(let first, let latest):
      drain(first)
      withExtendedLifetime(latest) {}
    }
  }

  func deliver(_ event: Event<(First, Second)>) -> Bool {
    deliverSelecting(
      event, to: downstream, { try resultSelector($0.0, $0.1) },
      selectorFailed: {
        switch state.withLock({ $0.selectorFailed() }) {
        case .release(let queued, let latest): (queued, latest)
        }
      })
  }

  func tearDown() {
    switch state.withLock({ $0.dispose() }) {
    case .dispose(let first, let second, let queued, let latest):
      first?.dispose()
      second?.dispose()
      withExtendedLifetime((queued, latest)) {}
    }
  }
}
