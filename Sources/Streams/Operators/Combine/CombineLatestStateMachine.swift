/// The state of a fixed-arity `combineLatest` (two or three sources), typed over its sources'
/// elements: the latest element of each source is a stored optional, never boxed to `Any`.
///
/// `Latest` is the tuple of optionals, one per source (`(Int?, String?)`); a source's element is
/// written into its slot by a closure the entry point makes (`{ $0.1 = $1 }`). Emissions are
/// copies of that tuple queued in the outbox, so an update allocates nothing; the sink runs the
/// result selector while delivering them, outside the lock, one at a time and in order.
///
/// The rules are those of ``CombineStateMachine`` in `.latest` mode (RxSwift's): completes when
/// every source completed, or when a source emits while every other source completed; fails with
/// the first error; a completed source's subscription is disposed at once.
@usableFromInline
struct CombineLatestStateMachine<Latest> {
  @usableFromInline var outbox = SerialOutbox<Latest>()
  /// The latest element of each source; `nil` until that source emitted.
  @usableFromInline var latest: Latest
  /// `latest` with no element, restored on disposal to release the elements.
  @usableFromInline let empty: Latest
  /// Bit `i` is set once source `i` emitted.
  @usableFromInline var withValue = 0
  /// Bit `i` is set once source `i` completed.
  @usableFromInline var done = 0
  /// Every source's bit.
  @usableFromInline let all: Int
  @usableFromInline var subscriptions: [UpstreamDisposable]

  /// A state for `count` sources, none of which has emitted (`empty` is all `nil`s).
  @inlinable
  init(empty: Latest, count: Int) {
    precondition(
      count > 0 && count < Int.bitWidth, "Streams internal error: combineLatest arity \(count)")
    self.latest = empty
    self.empty = empty
    self.all = (1 << count) - 1
    self.subscriptions = Array(repeating: .pending, count: count)
  }

  /// Source `index`'s subscription returned; returns it back if it must be disposed at once.
  @inlinable
  mutating func subscribed(_ index: Int, _ disposable: any Disposable) -> (any Disposable)? {
    if outbox.isClosed {
      _ = subscriptions[index].release()
      return disposable
    }
    return subscriptions[index].store(disposable)
  }

  /// Source `index` emitted; `write` stores its element in `latest`.
  @inlinable
  mutating func next(_ index: Int, _ write: (inout Latest) -> Void) -> Event<Latest>? {
    if outbox.isClosed { return nil }
    write(&latest)
    withValue |= 1 << index
    if withValue == all { return outbox.send(.next(latest)) }
    // Every other source completed (without an element, or all would have one): nothing more
    // can be combined.
    let others = all & ~(1 << index)
    return done & others == others ? outbox.send(.completed) : nil
  }

  /// Source `index` completed: returns its subscription to dispose and an event to deliver.
  @inlinable
  mutating func completed(_ index: Int) -> (dispose: (any Disposable)?, deliver: Event<Latest>?) {
    let disposable = subscriptions[index].release()
    let bit = 1 << index
    if outbox.isClosed || done & bit != 0 { return (disposable, nil) }
    done |= bit
    return (disposable, done == all ? outbox.send(.completed) : nil)
  }

  /// The subscription ends: returns every subscription to dispose, in subscription order.
  @inlinable
  mutating func dispose() -> [any Disposable] {
    outbox.dispose()
    latest = empty
    var all: [any Disposable] = []
    for index in subscriptions.indices {
      if let disposable = subscriptions[index].release() { all.append(disposable) }
    }
    return all
  }
}

/// Runs one subscription of a fixed-arity `combineLatest`, specialized in the caller's module.
///
/// `@unchecked Sendable`: all mutable state is the state machine behind `state`'s lock;
/// `downstream` and `resultSelector` are immutable and only called by the thread that holds the
/// outbox's delivery claim.
@usableFromInline
final class CombineLatestSink<Latest, Result>: SerialOutboxOwner, Disposable,
  @unchecked Sendable
{
  @usableFromInline typealias Payload = Latest

  @usableFromInline let downstream: AnyObserver<Result>
  /// Combines a full `latest` (every slot set).
  @usableFromInline let resultSelector: (Latest) throws -> Result
  @usableFromInline let state: Locked<CombineLatestStateMachine<Latest>>

  @inlinable
  init(
    downstream: AnyObserver<Result>, empty: Latest, count: Int,
    resultSelector: @escaping (Latest) throws -> Result
  ) {
    self.downstream = downstream
    self.resultSelector = resultSelector
    self.state = Locked(CombineLatestStateMachine(empty: empty, count: count))
    Resources.track(self)
  }

  deinit { Resources.untrack(self) }

  /// Subscribes source `index`; `write` stores one of its elements in `latest`. Sources are
  /// subscribed in order, each after the previous one's `subscribe` returned.
  @inlinable
  func subscribe<Element>(
    _ index: Int, to source: Observable<Element>,
    write: @escaping (inout Latest, Element) -> Void
  ) {
    let subscription = source.subscribeAny(
      AnyObserver { [self] event in
        switch event {
        case .next(let element):
          drain(state.withLock { $0.next(index) { write(&$0, element) } })
        case .error(let error):
          drain(state.withLock { $0.outbox.send(.error(error)) })
        case .completed:
          let (disposable, event) = state.withLock { $0.completed(index) }
          disposable?.dispose()
          drain(event)
        }
      })
    state.withLock { $0.subscribed(index, subscription) }?.dispose()
  }

  @inlinable
  func deliver(_ event: Event<Latest>) -> Bool {
    switch event {
    case .next(let latest):
      let result: Result
      do {
        result = try resultSelector(latest)
      } catch {
        state.withLock { $0.outbox.fail() }
        downstream.on(.error(error))
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

  @inlinable
  func nextPending() -> Event<Latest>? {
    state.withLock { $0.outbox.next() }
  }

  @inlinable
  func dispose() {
    let subscriptions = state.withLock { $0.dispose() }
    for subscription in subscriptions { subscription.dispose() }
  }
}
