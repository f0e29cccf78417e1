/// The sharing behind `Driver` (replay 1) and `Signal` (replay 0): RxSwift's
/// `share(replay:scope: .whileConnected)`, private to the shared sequences.
///
/// The first subscriber connects to the source through a fresh subject; later subscribers join
/// that subject (and receive its replay buffer). When the last subscriber leaves, the source
/// subscription is disposed and the buffer is dropped; when the source terminates, the connection
/// is dropped too. Either way the next subscriber starts a new connection with an empty buffer.
///
/// No lock is held while the source is subscribed, an observer runs or anything is disposed:
/// the replay happens in the subject, outside its lock (RxSwift replays under its lock, the
/// deadlock class of its issues #2653 and #2703).
final class ShareWhileConnected<Element>: @unchecked Sendable {
  // `@unchecked Sendable`: `state` is lock-guarded; `source` and `replay` are immutable and only
  // used to start a connection.

  private struct Connection: Sendable {
    let id: Int
    let subject: SubjectCore<Element>
    let upstream: SingleAssignmentDisposable
  }

  private struct State {
    var connection: Connection?
    var subscribers = 0
    var nextID = 0
  }

  private let source: Observable<Element>
  private let replay: Int
  private let state = Locked(State())

  init(source: Observable<Element>, replay: Int) {
    self.source = source
    self.replay = replay
  }

  /// The shared node as an observable.
  static func share(
    _ source: Observable<Element>, replay: Int, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let shared = ShareWhileConnected(source: source, replay: replay)
    return Observable(kind: "share", upstreams: [source.traceID], file: file, line: line) {
      shared.subscribe($0)
    }
  }

  func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
    let (connection, isNew) = state.withLock { state -> (Connection, Bool) in
      state.subscribers += 1
      if let connection = state.connection { return (connection, false) }
      let connection = Connection(
        id: state.nextID,
        subject: SubjectCore(policy: replay == 0 ? .none : .buffer(replay), name: "share"),
        upstream: SingleAssignmentDisposable())
      state.nextID += 1
      state.connection = connection
      return (connection, true)
    }
    let subscription = connection.subject.subscribe(observer)
    if isNew {
      connection.upstream.setDisposable(
        source.subscribeAny(
          AnyObserver { [self] event in
            if event.isStopEvent { detach(connection.id) }
            connection.subject.on(event)
            if event.isStopEvent { connection.upstream.dispose() }
          }))
    }
    let id = connection.id
    return Disposables.create(with: { [self] in
      subscription.dispose()
      release(id)
    })
  }

  /// A subscriber of connection `id` left; the last one disconnects it.
  private func release(_ id: Int) {
    let disconnect = state.withLock { state -> SingleAssignmentDisposable? in
      guard let connection = state.connection, connection.id == id else { return nil }
      state.subscribers -= 1
      guard state.subscribers == 0 else { return nil }
      state.connection = nil
      return connection.upstream
    }
    disconnect?.dispose()
  }

  /// Connection `id`'s source terminated: later subscribers start a new connection.
  private func detach(_ id: Int) {
    state.withLock { state in
      guard state.connection?.id == id else { return }
      state.connection = nil
      state.subscribers = 0
    }
  }
}
