/// Runs one subscription of a fixed-arity `combineLatest` or `zip`, specialized in the caller's
/// module: performs what ``TypedCombineStateMachine`` decides, after unlocking.
///
/// `@unchecked Sendable`: `flags` is only accessed atomically after `init`; all other mutable
/// state is the state machine behind `state`'s lock;
/// `downstream` and `resultSelector` are immutable and only called by the thread that holds the
/// outbox's delivery claim.
@usableFromInline
final class TypedCombineSink<Storage, Snapshot, Result>: MultiSourceSink,
  @unchecked Sendable
{
  @usableFromInline typealias Payload = Snapshot

  /// The lifecycle word: the first stored property (``MultiSourceSink``).
  @usableFromInline var flags: Int

  @usableFromInline let downstream: AnyObserver<Result>
  @usableFromInline let resultSelector: (Snapshot) throws -> Result
  @usableFromInline let state: Locked<TypedCombineStateMachine<Storage, Snapshot>>

  @inlinable
  init(
    downstream: AnyObserver<Result>, state: TypedCombineStateMachine<Storage, Snapshot>,
    resultSelector: @escaping (Snapshot) throws -> Result
  ) {
    self.flags = 0
    self.downstream = downstream
    self.resultSelector = resultSelector
    self.state = Locked(state)
    Resources.track(self)
  }

  deinit { Resources.untrack(self) }

  /// Subscribes source `index`; `write` stores one of its elements in the storage and returns
  /// what it replaced, released here after the lock and after delivery. Sources are subscribed
  /// in order, each after the previous one's `subscribe` returned.
  @inlinable
  func subscribe<Element, Replaced>(
    _ index: Int, to source: Observable<Element>,
    write: @escaping (inout Storage, Element) -> Replaced
  ) {
    let subscription = source.subscribeNested(
      AnyObserver { [self] event in
        switch event {
        case .next(let element):
          switch state.withLock({ $0.received(index) { write(&$0, element) } }) {
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
          case .complete(let disposable, let completion):
            disposable?.dispose()
            drain(completion)
          }
        }
      })
    switch state.withLock({ $0.subscribed(index, subscription) }) {
    case .keep: break
    case .dispose(let disposable): disposable.dispose()
    }
  }

  @inlinable
  func deliver(_ event: Event<Snapshot>) -> Bool {
    deliverSelecting(event, to: downstream, resultSelector) {
      state.withLock { $0.selectorFailed() }
    }
  }

  @inlinable
  func tearDown() {
    switch state.withLock({ $0.dispose() }) {
    case .dispose(let subscriptions, let queued, let stored):
      for subscription in subscriptions { subscription.dispose() }
      withExtendedLifetime((queued, stored)) {}
    }
  }
}
