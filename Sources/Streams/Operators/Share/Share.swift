/// How long the subject behind ``ObservableType/share(replay:scope:file:line:)`` lives.
///
/// ```swift
/// let work = Observable<Int>.create { observer in
///   print("work")
///   observer.onNext(42)
///   observer.onCompleted()
///   return Disposables.create()
/// }
/// let perConnection = work.share(replay: 1, scope: .whileConnected)
/// _ = perConnection.subscribe(onNext: { print($0) })
/// _ = perConnection.subscribe(onNext: { print($0) })
/// // Prints "work", "42", "work", "42"
/// let once = work.share(replay: 1, scope: .forever)
/// _ = once.subscribe(onNext: { print($0) })
/// _ = once.subscribe(onNext: { print($0) })
/// // Prints "work", "42", "42"
/// ```
public enum SubjectLifetimeScope: Sendable, Hashable {
  /// Each connection to the source has its own replay buffer; the buffer is dropped when the
  /// subscriber count falls to zero or the source terminates, and the next subscriber connects
  /// again. `retry` and `repeat` downstream work as expected. The recommended default.
  ///
  /// Equivalent to `source.multicast(makeSubject: { ReplaySubject.create(bufferSize: n) })
  /// .refCount()`.
  case whileConnected

  /// One replay buffer for ever. When the subscriber count falls to zero the source is
  /// disconnected but the buffer stays, so a later subscriber first receives stale elements. Once
  /// the source terminates, every later subscriber receives the buffer and the terminal event and
  /// the source is never subscribed again.
  ///
  /// Equivalent to `source.multicast(ReplaySubject.create(bufferSize: n)).refCount()`.
  case forever
}

extension ObservableType {
  /// Shares one subscription to the source among all subscribers, replaying up to `replay` latest
  /// elements to each new subscriber.
  ///
  /// ```swift
  /// let shared = source.share(replay: 1)
  /// // source:        -1-2-----3-|
  /// // subscriber A:  -1-2-----3-|   (subscribes at frame 0)
  /// // subscriber B:  ------2--3-|   (subscribes at frame 6: 2 is replayed at once)
  /// ```
  ///
  /// The first subscriber connects to the source (after it is registered, so a synchronous source
  /// reaches it); later subscribers receive the replay buffer and then the live events. When the
  /// last subscriber disposes, the source subscription is disposed. With `.whileConnected` (the
  /// default) a terminal event is forwarded to everyone subscribed and the next subscriber
  /// connects again with an empty buffer; with `.forever` see ``SubjectLifetimeScope/forever``.
  ///
  /// Completes and fails when the source does. Events reach subscribers serialized and never
  /// under a lock; a new subscriber receives its replay inside `subscribe`, also from inside an
  /// observer, as in RxSwift; subscribers are called in subscription order, even after an
  /// earlier one left (not always so in RxSwift); see ``PublishSubject``.
  ///
  /// - Parameters:
  ///   - replay: How many latest elements a new subscriber receives; 0 or more. A negative count
  ///     is a programming error and stops the program.
  ///   - scope: The lifetime of the replay buffer; `.whileConnected` by default.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: The shared sequence.
  @inlinable
  public func share(
    replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    if replay < 0 {
      streamsStop("share(replay:scope:) needs a replay count of 0 or more, got \(replay)")
    }
    let source = asObservable()
    let shared = SharedSource(source: source, replay: replay, scope: scope)
    return Observable(kind: "share", upstreams: [source.traceID], file: file, line: line) {
      observer in
      shared.subscribe(observer)
    }
  }
}

/// One connection of a shared source to its subscribers: the subject that multicasts (and
/// buffers) the source's events, and the source subscription.
///
/// `@unchecked Sendable`: `id` and `core` are immutable, `core` guards itself, and `subscription`
/// is a thread-safe disposable.
@usableFromInline
final class ShareConnection<Element>: @unchecked Sendable {
  @usableFromInline let id: Int
  @usableFromInline let core: SubjectCore<Element>
  @usableFromInline let subscription: SingleAssignmentDisposable
  /// Whether `core` is this connection's own (`.whileConnected`) rather than the operator's.
  @usableFromInline let ownsCore: Bool

  @inlinable
  init(id: Int, core: SubjectCore<Element>, ownsCore: Bool) {
    self.id = id
    self.core = core
    self.subscription = SingleAssignmentDisposable()
    self.ownsCore = ownsCore
    Resources.track(self)
  }

  /// Disposes its own core, releasing subscribers nobody can dispose any more (their disposables
  /// hold this connection; see `SubjectSubscription`).
  @inlinable
  deinit {
    if ownsCore { core.dispose() }
    Resources.untrack(self)
  }
}

/// The shared state of one `share(replay:scope:)` operator.
///
/// Subscribers register with a ``SubjectCore`` (a subject's serialized, lock-free delivery); the
/// ``ShareStateMachine`` decides when the source is connected and disconnected. The lock's side
/// word holds the id of the live connection (0 when none), so that forwarding an element costs one
/// atomic load on top of the subject's delivery.
///
/// `@unchecked Sendable`: mutable state is in `state`, guarded by its lock; `source`, `policy` and
/// `sharedCore` are immutable (`sharedCore` guards itself). Subscribing to `source` from any
/// thread is part of the Rx contract.
@usableFromInline
final class SharedSource<Element>: @unchecked Sendable {
  @usableFromInline typealias Connection = ShareConnection<Element>

  @usableFromInline let source: Observable<Element>
  @usableFromInline let policy: ReplayPolicy
  /// `.forever`: the one subject all connections feed. `nil` for `.whileConnected`.
  @usableFromInline let sharedCore: SubjectCore<Element>?
  @usableFromInline let state: Locked<ShareStateMachine<Connection>>

  @inlinable
  init(source: Observable<Element>, replay: Int, scope: SubjectLifetimeScope) {
    self.source = source
    self.policy = replay == 0 ? .none : .buffer(replay)
    switch scope {
    case .whileConnected:
      sharedCore = nil
      state = Locked(ShareStateMachine(keepsTerminal: false))
    case .forever:
      sharedCore = SubjectCore(policy: policy, name: "share", order: .operator)
      state = Locked(ShareStateMachine(keepsTerminal: true))
    }
  }

  /// Disposes the `.forever` core, releasing subscribers nobody can dispose any more (their
  /// disposables hold this object; see `SubjectSubscription`).
  @inlinable
  deinit { sharedCore?.dispose() }

  @inlinable
  func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
    let sharedCore = sharedCore
    let policy = policy
    let state = state
    let action = state.withLock { machine in
      let action = machine.subscribe { id in
        if let sharedCore { return Connection(id: id, core: sharedCore, ownsCore: false) }
        return Connection(
          id: id, core: SubjectCore(policy: policy, name: "share", order: .operator), ownsCore: true
        )
      }
      if case .connect(let connection) = action { state.storeWord(connection.id) }
      return action
    }
    let connection: Connection
    switch action {
    case .replayTerminal:
      guard let sharedCore else {
        streamsStop("Streams internal error: share(.whileConnected) never terminates")
      }
      return sharedCore.subscribe(observer)
    case .join(let joined):
      connection = joined
    case .connect(let fresh):
      connection = fresh
    }
    // Register first, so that a source that emits while being subscribed reaches this observer.
    let registration = connection.core.subscribe(observer)
    if case .connect = action { connect(connection) }
    return Disposables.create(with: { [self] in
      registration.dispose()
      release(connection)
    })
  }

  /// Subscribes `connection` to the source.
  @inlinable
  func connect(_ connection: Connection) {
    let state = state
    let id = connection.id
    let disposable = source.subscribeAny(
      AnyObserver { [self] event in
        switch event {
        case .next:
          if state.loadWord() == id { connection.core.on(event) }
        case .error, .completed:
          terminate(connection, with: event)
        }
      })
    connection.subscription.setDisposable(disposable)
  }

  /// A subscription counted on `connection` ended; disconnects the source after the last one.
  @inlinable
  func release(_ connection: Connection) {
    let state = state
    let disconnect = state.withLock { machine -> Connection? in
      let disconnect = machine.release(connection)
      if disconnect != nil { state.storeWord(0) }
      return disconnect
    }
    disconnect?.subscription.dispose()
  }

  /// The source of `connection` terminated: detach the connection (so that a subscriber arriving
  /// now connects again, or replays the terminal event with `.forever`), then forward the event.
  @inlinable
  func terminate(_ connection: Connection, with event: Event<Element>) {
    let state = state
    let forward = state.withLock { machine -> Bool in
      let forward = machine.terminate(connection)
      if forward { state.storeWord(0) }
      return forward
    }
    guard forward else { return }
    connection.subscription.dispose()
    connection.core.on(event)
  }
}
