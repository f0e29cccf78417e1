/// Runs one subscription of `combineLatest` or `zip` over any number of sources: performs what
/// ``CombineStateMachine`` decides, after unlocking.
///
/// `@unchecked Sendable`: `flags` is only accessed atomically after `init`; all other mutable
/// state is the state machine behind `state`'s lock;
/// `downstream` and `resultSelector` are only called by the holder of the outbox's delivery claim.
final class CombineSink<Value, Result>: MultiSourceSink, @unchecked Sendable {
  typealias Payload = ContiguousArray<Value>
  /// Subscribes one source, sending its events to the given observer.
  typealias Subscriber = (AnyObserver<Value>) -> any Disposable

  /// The lifecycle word: the first stored property (``MultiSourceSink``).
  var flags: Int

  private let downstream: AnyObserver<Result>
  private let resultSelector: (ContiguousArray<Value>) throws -> Result
  let state: Locked<CombineStateMachine<Value>>

  private init(
    downstream: AnyObserver<Result>, count: Int, mode: CombineMode,
    resultSelector: @escaping (ContiguousArray<Value>) throws -> Result
  ) {
    self.flags = 0
    self.downstream = downstream
    self.resultSelector = resultSelector
    self.state = Locked(CombineStateMachine(count: count, mode: mode))
    Resources.track(self)
  }

  deinit { Resources.untrack(self) }

  /// An observable that combines the sources `subscribers` subscribe to.
  static func observable(
    kind: StaticString, mode: CombineMode, upstreams: [UInt64], subscribers: [Subscriber],
    file: StaticString, line: UInt,
    resultSelector: @escaping (ContiguousArray<Value>) throws -> Result
  ) -> Observable<Result> {
    Observable(kind: kind, upstreams: upstreams, file: file, line: line) { observer in
      let sink = CombineSink(
        downstream: observer, count: subscribers.count, mode: mode,
        resultSelector: resultSelector)
      sink.start(subscribers)
      return sink
    }
  }

  /// Subscribes the sources in order, each after the previous one's `subscribe` returned (or
  /// ends a combination of none at once).
  private func start(_ subscribers: [Subscriber]) {
    switch state.withLock({ $0.start() }) {
    case .subscribe: break
    case .drain(let event): drain(event)
    }
    for (index, subscribe) in subscribers.enumerated() {
      let subscription = subscribe(AnyObserver { [self] event in on(index, event) })
      switch state.withLock({ $0.subscribed(index, subscription) }) {
      case .keep: break
      case .dispose(let disposable): disposable.dispose()
      }
    }
  }

  private func on(_ index: Int, _ event: Event<Value>) {
    switch event {
    case .next(let value):
      switch state.withLock({ $0.received(index, value) }) {
      case .drop:
        break
      case .drain(let event, let replaced):
        drain(event)
        withExtendedLifetime(replaced) {}
      }
    case .error(let error):
      switch state.withLock({ $0.failed(error) }) {
      case .drop: break
      case .drain(let event): drain(event)
      }
    case .completed:
      switch state.withLock({ $0.completed(index) }) {
      case .none:
        break
      case .dispose(let disposable):
        disposable.dispose()
      case .complete(let completion, let disposable):
        // The completion is delivered before the source that completed last is disposed, as
        // RxSwift's collection forms do.
        drain(completion)
        disposable?.dispose()
      }
    }
  }

  func deliver(_ event: Event<ContiguousArray<Value>>) -> Bool {
    deliverSelecting(event, to: downstream, resultSelector) {
      state.withLock { $0.selectorFailed() }
    }
  }

  func tearDown() {
    switch state.withLock({ $0.dispose() }) {
    case .dispose(let subscriptions, let queued, let latest, let buffers):
      for subscription in subscriptions { subscription.dispose() }
      withExtendedLifetime((queued, latest, buffers)) {}
    }
  }
}
