/// The connection bookkeeping of one ``ObservableType/share(replay:scope:)`` operator: whether
/// the source is subscribed, through which connection, and how many subscriptions count on it.
///
/// Every transition runs under the operator's lock and returns what the caller must do once the
/// lock is released (subscribe to the source, dispose the source subscription, forward a terminal
/// event). The machine never calls out.
///
/// ```
///            subscribe                 last release / terminal (.whileConnected)
///   idle ─────────────────▶ connected ──────────────────────────────────────────▶ idle
///                              │ terminal (.forever)
///                              ▼
///                          terminated  (subscribers get replay + terminal, no reconnect)
/// ```
@usableFromInline
struct ShareStateMachine<Connection: AnyObject> {
  @usableFromInline
  enum State {
    /// Nobody is subscribed; the source is not subscribed.
    case idle
    /// The source is subscribed through `connection`; `subscribers` subscriptions count on it.
    case connected(Connection, subscribers: Int)
    /// `.forever` only: the source terminated and is never subscribed again.
    case terminated
  }

  /// What a new subscription must do after the lock is released.
  @usableFromInline
  enum SubscribeAction {
    /// Subscribe to the connection's subject, then connect it to the source.
    case connect(Connection)
    /// Subscribe to the connection's subject; the source is already subscribed.
    case join(Connection)
    /// Subscribe to the (terminated) shared subject: replay and terminal event, nothing else.
    case replayTerminal
  }

  @usableFromInline var state: State = .idle
  @usableFromInline var lastID = 0
  /// `true` for `.forever`: a terminal event is kept, instead of allowing a reconnect.
  @usableFromInline let keepsTerminal: Bool

  @inlinable
  init(keepsTerminal: Bool) {
    self.keepsTerminal = keepsTerminal
  }

  /// A subscription arrives; `makeConnection` builds a connection with a fresh, non-zero id.
  @inlinable
  mutating func subscribe(_ makeConnection: (Int) -> Connection) -> SubscribeAction {
    switch state {
    case .idle:
      lastID += 1
      let connection = makeConnection(lastID)
      state = .connected(connection, subscribers: 1)
      return .connect(connection)
    case .connected(let connection, let subscribers):
      state = .connected(connection, subscribers: subscribers + 1)
      return .join(connection)
    case .terminated:
      return .replayTerminal
    }
  }

  /// A subscription counted on `connection` ends. Returns the connection to disconnect when it was
  /// the last one; a subscription of an earlier connection changes nothing.
  @inlinable
  mutating func release(_ connection: Connection) -> Connection? {
    guard case .connected(let current, let subscribers) = state, current === connection else {
      return nil
    }
    if subscribers > 1 {
      state = .connected(current, subscribers: subscribers - 1)
      return nil
    }
    state = .idle
    return current
  }

  /// The source of `connection` sent a terminal event. Returns `true` when the event must be
  /// forwarded (the connection is the current one); a stale connection's event is dropped.
  @inlinable
  mutating func terminate(_ connection: Connection) -> Bool {
    guard case .connected(let current, _) = state, current === connection else { return false }
    state = keepsTerminal ? .terminated : .idle
    return true
  }
}
