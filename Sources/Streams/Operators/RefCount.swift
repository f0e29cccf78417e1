extension ConnectableObservableType {
  /// An observable that connects the source when its first subscriber arrives and disconnects it
  /// when the last one leaves.
  ///
  /// ```swift
  /// let shared = source.publish().refCount()
  /// // source:       -1-2-3-4-|
  /// // subscriber A: ^-1-2-!          (disposed after 2: B still counts)
  /// // subscriber B:    ^2-3-4-|
  /// ```
  ///
  /// Each subscriber first subscribes to the connectable observable, then, if it is the first,
  /// connects it. A subscriber that receives a terminal event while subscribing (a terminated
  /// subject replays it) does not count and does not connect. A terminal event from the source
  /// resets the count, so that the next subscriber connects again. `connect()` and the disposal of
  /// the connection never run under a lock.
  ///
  /// Completes and fails when the connectable observable does; disposing the last subscription
  /// disposes the connection.
  public func refCount(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
    let source = asObservable()
    let counter = RefCounter(connectable: self)
    return Observable(kind: "refCount", upstreams: [source.traceID], file: file, line: line) {
      observer in
      counter.subscribe(observer, to: source)
    }
  }
}

/// The subscriber count and connection of one `refCount()` operator.
///
/// A state machine: every transition runs under the lock and returns the disposable to dispose,
/// or whether to connect, once the lock is released. The count belongs to a generation that ends
/// with a terminal event, so that subscriptions of an ended connection do not touch the next one.
private struct RefCountState {
  enum Connection {
    case none
    /// `connect()` is running outside the lock; `disconnect` is set when the count fell back to
    /// zero meanwhile.
    case connecting(disconnect: Bool)
    case connected(any Disposable)
  }

  var subscribers = 0
  var generation = 0
  var connection = Connection.none

  /// A subscriber counts; returns `true` when the caller must connect.
  mutating func add() -> Bool {
    subscribers += 1
    guard subscribers == 1 else { return false }
    switch connection {
    case .none:
      connection = .connecting(disconnect: false)
      return true
    case .connecting:
      // Still connecting for a subscriber that already left: keep that connection.
      connection = .connecting(disconnect: false)
      return false
    case .connected:
      return false
    }
  }

  /// `connect()` of `generation` returned `disposable`; returns it if it must be disposed now.
  mutating func connected(_ disposable: any Disposable, generation: Int) -> (any Disposable)? {
    guard generation == self.generation, case .connecting(let disconnect) = connection else {
      return disposable
    }
    if disconnect {
      connection = .none
      return disposable
    }
    connection = .connected(disposable)
    return nil
  }

  /// A subscriber of `generation` leaves; returns the connection to dispose after the last one.
  mutating func remove(generation: Int) -> (any Disposable)? {
    guard generation == self.generation, subscribers > 0 else { return nil }
    subscribers -= 1
    guard subscribers == 0 else { return nil }
    switch connection {
    case .connected(let disposable):
      connection = .none
      return disposable
    case .connecting:
      connection = .connecting(disconnect: true)
      return nil
    case .none:
      return nil
    }
  }

  /// A subscriber of `generation` received a terminal event; ends the generation and returns the
  /// connection to dispose.
  mutating func terminate(generation: Int) -> (any Disposable)? {
    guard generation == self.generation else { return nil }
    self.generation += 1
    subscribers = 0
    defer { connection = .none }
    if case .connected(let disposable) = connection { return disposable }
    // A `connect()` still running sees the new generation and disposes what it returns.
    return nil
  }
}

/// Shared by all subscriptions of one `refCount()` operator.
///
/// `@unchecked Sendable`: mutable state is in `state`, guarded by its lock; `connectable` is
/// immutable and connecting from any thread is part of its contract.
private final class RefCounter<Connectable: ConnectableObservableType>: @unchecked Sendable {
  typealias Element = Connectable.Element

  let connectable: Connectable
  let state = Locked(RefCountState())

  init(connectable: Connectable) {
    self.connectable = connectable
  }

  func subscribe(_ observer: AnyObserver<Element>, to source: Observable<Element>)
    -> any Disposable
  {
    let sink = GuardedSink(observer)
    let ticket = RefCountTicket(counter: self)
    let subscription = source.subscribeAny(
      AnyObserver { event in
        if event.isStopEvent { ticket.terminate() }
        sink.on(event)
      })
    // Runs the ticket's release at once if the sink already terminated while subscribing.
    sink.setUpstream(Disposables.create(subscription, ticket))
    let mustConnect = state.withLock { state -> Int? in
      guard ticket.count(in: state.generation) else { return nil }
      return state.add() ? state.generation : nil
    }
    if let generation = mustConnect {
      let connection = connectable.connect()
      let dispose = state.withLock { $0.connected(connection, generation: generation) }
      dispose?.dispose()
    }
    return sink
  }
}

/// One subscription's place in the count. Its `phase` is guarded by the counter's lock.
///
/// `@unchecked Sendable`: `phase` is only read and written inside `counter.state.withLock`.
private final class RefCountTicket<Connectable: ConnectableObservableType>: Disposable,
  @unchecked Sendable
{
  enum Phase {
    /// Subscribed, not counted yet.
    case pending
    /// Counted in a generation.
    case counted(Int)
    /// Released: never counts again.
    case released
  }

  let counter: RefCounter<Connectable>
  var phase = Phase.pending

  init(counter: RefCounter<Connectable>) {
    self.counter = counter
  }

  /// Counts the ticket in `generation` unless it was already released. Call under the lock.
  func count(in generation: Int) -> Bool {
    guard case .pending = phase else { return false }
    phase = .counted(generation)
    return true
  }

  /// The subscriber received a terminal event: ends the generation it counts in.
  func terminate() {
    let disconnect = counter.state.withLock { state -> (any Disposable)? in
      guard case .counted(let generation) = phase else { return nil }
      return state.terminate(generation: generation)
    }
    disconnect?.dispose()
  }

  /// The subscription ended: uncounts it, disconnecting after the last subscriber.
  func dispose() {
    let disconnect = counter.state.withLock { state -> (any Disposable)? in
      defer { phase = .released }
      guard case .counted(let generation) = phase else { return nil }
      return state.remove(generation: generation)
    }
    disconnect?.dispose()
  }
}
