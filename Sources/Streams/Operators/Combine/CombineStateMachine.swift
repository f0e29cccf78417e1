/// How a combining operator pairs its sources' elements.
enum CombineMode {
  /// `combineLatest`: every element of any source emits the latest element of each source.
  case latest
  /// `zip`: the n-th elements of all sources are emitted together. With
  /// `completesWhenOthersDone`, an element that cannot be paired because every other source
  /// completed ends the sequence (RxSwift's `zip` over a collection; its fixed-arity `zip` waits
  /// for every source to complete).
  case zip(completesWhenOthersDone: Bool)
}

/// The state shared by `combineLatest` and `zip`, for any number of sources: one slot of values
/// per source, which sources completed, and their subscriptions.
///
/// Emissions are snapshots of the values, queued in the outbox; the sink runs the result selector
/// while delivering them, outside the lock, one at a time and in order.
///
/// The completion rules are ``CombineSources``' (RxSwift's).
struct CombineStateMachine<Value> {
  typealias Snapshot = ContiguousArray<Value>

  var sources: CombineSources<Snapshot>
  private let mode: CombineMode
  private let count: Int
  private var latest: [Value?]
  private var queues: [RingQueue<Value>]
  /// Sources with a latest value (`latest`) or with a queued value (`zip`).
  private var withValue = 0

  init(count: Int, mode: CombineMode) {
    self.mode = mode
    self.count = count
    switch mode {
    case .latest:
      latest = Array(repeating: nil, count: count)
      queues = []
    case .zip:
      latest = []
      queues = Array(repeating: RingQueue(), count: count)
    }
    sources = CombineSources(count: count)
  }

  /// Ends a combination of no sources at once, as RxSwift does: `combineLatest` first emits the
  /// empty combination (its result selector applied to `[]`), `zip` only completes.
  mutating func start() -> Event<Snapshot>? {
    guard count == 0 else { return nil }
    guard case .latest = mode else { return sources.outbox.send(.completed) }
    let first = sources.outbox.send(.next(Snapshot()))
    let second = sources.outbox.send(.completed)
    return first ?? second
  }

  /// Source `index`'s subscription returned; returns it back if it must be disposed at once.
  mutating func subscribed(_ index: Int, _ disposable: any Disposable) -> (any Disposable)? {
    sources.subscribed(index, disposable)
  }

  /// Source `index` emitted `value`: returns an event to deliver and, for `combineLatest`, the
  /// latest value `value` replaced, which the caller releases after unlocking.
  mutating func next(_ index: Int, _ value: Value) -> (deliver: Event<Snapshot>?, replaced: Value?)
  {
    if sources.outbox.isClosed { return (nil, nil) }
    switch mode {
    case .latest:
      let replaced = latest[index].replace(with: value)
      if replaced == nil { withValue += 1 }
      if withValue == count {
        return (sources.outbox.send(.next(Snapshot(latest.lazy.map { $0! }))), replaced)
      }
      return (sources.completeIfOthersDone(index), replaced)
    case .zip(let completesWhenOthersDone):
      queues[index].append(value)
      if queues[index].count == 1 { withValue += 1 }
      if withValue == count {
        var values = Snapshot()
        values.reserveCapacity(count)
        withValue = 0
        for slot in 0..<count {
          values.append(queues[slot].popFirst()!)
          if !queues[slot].isEmpty { withValue += 1 }
        }
        return (sources.outbox.send(.next(values)), nil)
      }
      return (completesWhenOthersDone ? sources.completeIfOthersDone(index) : nil, nil)
    }
  }

  /// Source `index` completed: returns its subscription to dispose and an event to deliver.
  mutating func completed(_ index: Int) -> (dispose: (any Disposable)?, deliver: Event<Snapshot>?) {
    sources.completed(index)
  }

  /// What ``dispose()`` takes out of the state: the queued snapshots, the latest values
  /// (`combineLatest`) and the buffered ones (`zip`).
  typealias Released = (
    pending: RingQueue<Event<Snapshot>>, latest: [Value?], queues: [RingQueue<Value>]
  )

  /// The subscription ends: returns every subscription to dispose, and the values the state held,
  /// which the caller releases after unlocking.
  mutating func dispose() -> (subscriptions: [any Disposable], released: Released) {
    let (subscriptions, pending) = sources.dispose()
    var values: [Value?] = []
    swap(&values, &latest)
    var buffers: [RingQueue<Value>] = []
    swap(&buffers, &queues)
    return (subscriptions, (pending, values, buffers))
  }
}

/// Runs one subscription of `combineLatest` or `zip` over any number of sources.
///
/// `@unchecked Sendable`: all mutable state is the state machine behind `state`'s lock;
/// `downstream` and `resultSelector` are only called by the holder of the outbox's delivery claim.
final class CombineSink<Value, Result>: SerialOutboxOwner, Disposable, @unchecked Sendable {
  typealias Payload = ContiguousArray<Value>
  /// Subscribes one source, sending its events to the given observer.
  typealias Subscriber = (AnyObserver<Value>) -> any Disposable

  private let downstream: AnyObserver<Result>
  private let resultSelector: (ContiguousArray<Value>) throws -> Result
  private let state: Locked<CombineStateMachine<Value>>

  private init(
    downstream: AnyObserver<Result>, count: Int, mode: CombineMode,
    resultSelector: @escaping (ContiguousArray<Value>) throws -> Result
  ) {
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
      sink.drain(sink.state.withLock { $0.start() })
      for (index, subscribe) in subscribers.enumerated() {
        let subscription = subscribe(AnyObserver { event in sink.on(index, event) })
        sink.state.withLock { $0.subscribed(index, subscription) }?.dispose()
      }
      return sink
    }
  }

  private func on(_ index: Int, _ event: Event<Value>) {
    switch event {
    case .next(let value):
      let (event, replaced) = state.withLock { $0.next(index, value) }
      drain(event)
      withExtendedLifetime(replaced) {}
    case .error(let error):
      drain(state.withLock { $0.sources.outbox.send(.error(error)) })
    case .completed:
      // The completion (when this was the last source) is delivered before the source that
      // completed is disposed, as RxSwift's collection forms do.
      let (disposable, event) = state.withLock { $0.completed(index) }
      drain(event)
      disposable?.dispose()
    }
  }

  func deliver(_ event: Event<ContiguousArray<Value>>) -> Bool {
    switch event {
    case .next(let values):
      let result: Result
      do {
        result = try resultSelector(values)
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

  func nextPending() -> Event<ContiguousArray<Value>>? {
    state.withLock { $0.sources.outbox.next() }
  }

  var turnRank: Int {
    state.withLock { $0.sources.outbox.turns.rank }
  }

  func dispose() {
    let (subscriptions, released) = state.withLock { $0.dispose() }
    for subscription in subscriptions { subscription.dispose() }
    withExtendedLifetime(released) {}
  }
}

/// Erased access to heterogeneous sources (the parameter packs of `combineLatest` and `zip`).
enum PackSupport {
  /// A source of any element type, its elements boxed as `Any`.
  struct Erased {
    /// Subscribes the source.
    let subscribe: CombineSink<Any, Never>.Subscriber
    /// The source's trace id.
    let traceID: UInt64
  }

  /// Erases `source`'s element type.
  static func erase<Source: ObservableType>(_ source: Source) -> Erased {
    let observable = source.asObservable()
    return Erased(
      subscribe: { observer in
        observable.subscribeAny(AnyObserver { event in observer.on(event.map { $0 as Any }) })
      }, traceID: observable.traceID)
  }
}

/// Reads boxed values back in order with their static types (the combinations of `combineLatest`
/// and `zip` over parameter packs, and of `Maybe.zip`).
struct PackReader<Values: RandomAccessCollection<Any>> where Values.Index == Int {
  private let values: Values
  private var index: Int

  init(_ values: Values) {
    self.values = values
    self.index = values.startIndex
  }

  /// The next value, which the combining operator stored from a source of element type `type`.
  mutating func take<Value>(_ type: Value.Type) -> Value {
    defer { index += 1 }
    guard let value = values[index] as? Value else {
      preconditionFailure("Streams internal error: combined value \(index) has the wrong type")
    }
    return value
  }
}
