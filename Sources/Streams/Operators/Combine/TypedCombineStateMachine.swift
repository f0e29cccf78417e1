/// The state of a fixed-arity `combineLatest` or `zip` (two or three sources), typed over its
/// sources' elements: nothing is boxed to `Any` and an update allocates nothing.
///
/// `Storage` holds what each source delivered, one slot per source: its latest element as an
/// optional for `combineLatest` (`(Int?, String?)`), a queue of its unpaired elements for `zip`
/// (`(RingQueue<Int>, RingQueue<String>)`). A source's element is written into its slot by a
/// closure the entry point makes (`{ $0.1.replace(with: $1) }`), which hands back what it replaced
/// for the sink to release after unlocking, and `take` reads one combination out of a full
/// storage (`(Int, String)`, popping the queues for `zip`). Combinations are queued in the outbox
/// as values; the sink runs the result selector while delivering them, outside the lock, one at a
/// time and in order.
///
/// The completion rules are ``CombineSources``' (RxSwift's); the fixed-arity `zip` waits for every
/// source (`completesWhenOthersDone` is `false`).
@usableFromInline
struct TypedCombineStateMachine<Storage, Snapshot> {
  @usableFromInline var sources: CombineSources<Snapshot>
  @usableFromInline var storage: Storage
  /// `storage` with nothing in it, restored on disposal to release the elements.
  @usableFromInline let empty: Storage
  /// Reads one combination out of a full storage; returns it with the bits of the slots that
  /// still hold a value afterwards.
  @usableFromInline let take: (inout Storage) -> (snapshot: Snapshot, filled: Int)
  /// `combineLatest`: an element that arrives when every other source completed ends the
  /// sequence.
  @usableFromInline let completesWhenOthersDone: Bool
  /// Bit `i` is set while slot `i` holds a value.
  @usableFromInline var filled = 0
  /// Every source's bit.
  @usableFromInline let all: Int

  /// A state for `count` sources, with nothing stored yet (`empty`).
  @inlinable
  init(
    empty: Storage, count: Int, completesWhenOthersDone: Bool,
    take: @escaping (inout Storage) -> (snapshot: Snapshot, filled: Int)
  ) {
    if !(count > 1 && count < Int.bitWidth) {
      streamsStop("Streams internal error: combining \(count) sources")
    }
    self.storage = empty
    self.empty = empty
    self.take = take
    self.completesWhenOthersDone = completesWhenOthersDone
    self.all = (1 << count) - 1
    self.sources = CombineSources(count: count)
  }

  /// Source `index`'s subscription returned; returns it back if it must be disposed at once.
  @inlinable
  mutating func subscribed(_ index: Int, _ disposable: any Disposable) -> (any Disposable)? {
    sources.subscribed(index, disposable)
  }

  /// Source `index` emitted; `write` stores its element in `storage` and returns what it
  /// replaced (`combineLatest`'s previous latest element; nothing for `zip`). Returns an event to
  /// deliver and the replaced value, which the caller releases after unlocking.
  @inlinable
  mutating func next<Replaced>(_ index: Int, _ write: (inout Storage) -> Replaced) -> (
    deliver: Event<Snapshot>?, replaced: Replaced?
  ) {
    if sources.outbox.isClosed { return (nil, nil) }
    let replaced = write(&storage)
    filled |= 1 << index
    if filled == all {
      let (snapshot, stillFilled) = take(&storage)
      filled = stillFilled
      return (sources.outbox.send(.next(snapshot)), replaced)
    }
    guard completesWhenOthersDone else { return (nil, replaced) }
    return (sources.completeIfOthersDone(index), replaced)
  }

  /// Source `index` completed: returns its subscription to dispose and an event to deliver.
  @inlinable
  mutating func completed(_ index: Int) -> (dispose: (any Disposable)?, deliver: Event<Snapshot>?) {
    sources.completed(index)
  }

  /// The subscription ends: returns every subscription to dispose, in subscription order, and
  /// what the state held (the queued combinations and the storage), which the caller releases
  /// after unlocking.
  @inlinable
  mutating func dispose() -> (
    subscriptions: [any Disposable], released: (RingQueue<Event<Snapshot>>, Storage)
  ) {
    let (subscriptions, pending) = sources.dispose()
    var stored = empty
    swap(&stored, &storage)
    return (subscriptions, (pending, stored))
  }
}

/// Runs one subscription of a fixed-arity `combineLatest` or `zip`, specialized in the caller's
/// module.
///
/// `@unchecked Sendable`: all mutable state is the state machine behind `state`'s lock;
/// `downstream` and `resultSelector` are immutable and only called by the thread that holds the
/// outbox's delivery claim.
@usableFromInline
final class TypedCombineSink<Storage, Snapshot, Result>: SerialOutboxOwner, Disposable,
  @unchecked Sendable
{
  @usableFromInline typealias Payload = Snapshot

  @usableFromInline let downstream: AnyObserver<Result>
  @usableFromInline let resultSelector: (Snapshot) throws -> Result
  @usableFromInline let state: Locked<TypedCombineStateMachine<Storage, Snapshot>>

  @inlinable
  init(
    downstream: AnyObserver<Result>, state: TypedCombineStateMachine<Storage, Snapshot>,
    resultSelector: @escaping (Snapshot) throws -> Result
  ) {
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
          let (event, replaced) = state.withLock { $0.next(index) { write(&$0, element) } }
          drain(event)
          withExtendedLifetime(replaced) {}
        case .error(let error):
          drain(state.withLock { $0.sources.outbox.send(.error(error)) })
        case .completed:
          let (disposable, event) = state.withLock { $0.completed(index) }
          disposable?.dispose()
          drain(event)
        }
      })
    state.withLock { $0.subscribed(index, subscription) }?.dispose()
  }

  @inlinable
  func deliver(_ event: Event<Snapshot>) -> Bool {
    switch event {
    case .next(let snapshot):
      let result: Result
      do {
        result = try resultSelector(snapshot)
      } catch {
        let dropped = state.withLock { $0.sources.outbox.fail() }
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

  @inlinable
  func nextPending() -> Event<Snapshot>? {
    state.withLock { $0.sources.outbox.next() }
  }

  @inlinable
  var turnRank: Int {
    state.withLock { $0.sources.outbox.turns.rank }
  }

  @inlinable
  func dispose() {
    let (subscriptions, released) = state.withLock { $0.dispose() }
    for subscription in subscriptions { subscription.dispose() }
    withExtendedLifetime(released) {}
  }
}
