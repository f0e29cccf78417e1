/// The state of `withLatestFrom`: the latest element of the second source, and the two
/// subscriptions.
///
/// An element of the first source is queued together with the second source's latest element;
/// the sink runs the result selector while delivering, outside the lock.
struct WithLatestFromStateMachine<First, Second> {
  var outbox = SerialOutbox<(First, Second)>()
  private var latest: Second?
  private var first = UpstreamDisposable.pending
  private var second = UpstreamDisposable.pending

  /// The second source's subscription returned; returns it back if it must be disposed at once.
  mutating func secondSubscribed(_ disposable: any Disposable) -> (any Disposable)? {
    if outbox.isClosed { _ = second.release() }
    return second.store(disposable)
  }

  /// The first source's subscription returned; returns it back if it must be disposed at once.
  mutating func firstSubscribed(_ disposable: any Disposable) -> (any Disposable)? {
    if outbox.isClosed { _ = first.release() }
    return first.store(disposable)
  }

  /// The first source emitted: pairs `element` with the latest second element, if there is one.
  mutating func firstNext(_ element: First) -> Event<(First, Second)>? {
    guard let latest else { return nil }
    return outbox.send(.next((element, latest)))
  }

  /// The second source emitted: returns the element it replaced, which the caller releases
  /// after unlocking.
  mutating func secondNext(_ element: Second) -> Second? {
    if outbox.isClosed { return nil }
    return latest.replace(with: element)
  }

  /// The second source completed: returns its subscription to dispose. The operator goes on with
  /// the last element it had.
  mutating func secondCompleted() -> (any Disposable)? {
    second.release()
  }

  /// The subscription ends: returns both subscriptions to dispose, and the queued events and the
  /// latest element, which the caller releases after unlocking.
  mutating func dispose() -> (
    subscriptions: [any Disposable], released: (RingQueue<Event<(First, Second)>>, Second?)
  ) {
    let pending = outbox.dispose()
    return ([first.release(), second.release()].compactMap { $0 }, (pending, latest.take()))
  }
}

/// Runs one subscription of `withLatestFrom`.
///
/// `@unchecked Sendable`: all mutable state is the state machine behind `state`'s lock;
/// `downstream` and `resultSelector` are only called by the holder of the outbox's delivery claim.
final class WithLatestFromSink<First, Second, Result>: SerialOutboxOwner, Disposable,
  @unchecked Sendable
{
  typealias Payload = (First, Second)

  private let downstream: AnyObserver<Result>
  private let resultSelector: (First, Second) throws -> Result
  private let state = Locked(WithLatestFromStateMachine<First, Second>())

  private init(
    downstream: AnyObserver<Result>, resultSelector: @escaping (First, Second) throws -> Result
  ) {
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
    sink.state.withLock { $0.secondSubscribed(secondSubscription) }?.dispose()
    let firstSubscription = first.subscribeNested(AnyObserver { event in sink.firstOn(event) })
    sink.state.withLock { $0.firstSubscribed(firstSubscription) }?.dispose()
    return sink
  }

  private func firstOn(_ event: Event<First>) {
    switch event {
    case .next(let element):
      drain(state.withLock { $0.firstNext(element) })
    case .error(let error):
      drain(state.withLock { $0.outbox.send(.error(error)) })
    case .completed:
      drain(state.withLock { $0.outbox.send(.completed) })
    }
  }

  private func secondOn(_ event: Event<Second>) {
    switch event {
    case .next(let element):
      let replaced = state.withLock { $0.secondNext(element) }
      withExtendedLifetime(replaced) {}
    case .error(let error):
      drain(state.withLock { $0.outbox.send(.error(error)) })
    case .completed:
      state.withLock { $0.secondCompleted() }?.dispose()
    }
  }

  func deliver(_ event: Event<(First, Second)>) -> Bool {
    switch event {
    case .next(let (element, latest)):
      let result: Result
      do {
        result = try resultSelector(element, latest)
      } catch {
        let dropped = state.withLock { $0.outbox.fail() }
        downstream.on(.error(error))
        withExtendedLifetime(dropped) {}
        return true
      }
      downstream.on(.next(result))
      return false
    case .error(let error):
      downstream.on(.error(error))
      return true
    case .completed:
      downstream.on(.completed)
      return true
    }
  }

  func nextPending() -> Event<(First, Second)>? {
    state.withLock { $0.outbox.next() }
  }

  var turnRank: Int {
    state.withLock { $0.outbox.turns.rank }
  }

  func dispose() {
    let (subscriptions, released) = state.withLock { $0.dispose() }
    for subscription in subscriptions { subscription.dispose() }
    withExtendedLifetime(released) {}
  }
}
