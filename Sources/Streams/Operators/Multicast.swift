/// An observable that shares one subscription to its source, made when ``connect()`` is called.
public protocol ConnectableObservableType: ObservableType {
  /// Subscribes the shared subject to the source, unless it is already connected.
  ///
  /// - Returns: The connection; disposing it disconnects the source.
  func connect() -> any Disposable
}

/// An observable whose subscribers share one subscription to a source, made by ``connect()``: what
/// ``ObservableType/publish(file:line:)``, ``ObservableType/replay(_:file:line:)`` and the
/// `multicast` operators return.
///
/// ```swift
/// let published = Observable.of(1, 2).publish()
/// _ = published.subscribe(onNext: { print("A \($0)") })
/// _ = published.subscribe(onNext: { print("B \($0)") })
/// _ = published.connect()
/// // Prints "A 1", "B 1", "A 2", "B 2"
/// ```
///
/// Subscribing registers with the subject and does not touch the source. ``connect()`` subscribes
/// the subject to the source; calling it again while connected returns the same connection.
/// Disposing the connection disposes the source subscription; subscribers stay registered with the
/// subject but receive nothing more from that connection.
public final class ConnectableObservable<Element>: Observable<Element>, ConnectableObservableType {
  @usableFromInline let connector: () -> any Disposable

  @inlinable
  init(
    kind: StaticString, upstreams: [UInt64], file: StaticString, line: UInt,
    subscribe: @escaping (AnyObserver<Element>) -> any Disposable,
    connect: @escaping () -> any Disposable
  ) {
    connector = connect
    super.init(kind: kind, upstreams: upstreams, file: file, line: line, producer: subscribe)
  }

  /// Subscribes the shared subject to the source, unless it is already connected.
  ///
  /// Calling it again while connected returns the same connection. After the connection was
  /// disposed or the source terminated, a call connects again.
  ///
  /// - Returns: The connection; disposing it disconnects the source (idempotent).
  public func connect() -> any Disposable { connector() }
}

extension ObservableType {
  /// Multicasts the source through `subject`: subscribers subscribe to `subject`, and
  /// ``ConnectableObservable/connect()`` subscribes `subject` to the source.
  ///
  /// ```swift
  /// let subject = ReplaySubject<Int>.create(bufferSize: 1)
  /// let connectable = Observable.of(1, 2).multicast(subject)
  /// _ = connectable.connect()
  /// _ = connectable.subscribe(onNext: { print($0) })
  /// // Prints "2"
  /// ```
  ///
  /// The same subject serves every connection: once the source terminates, the subject stays
  /// terminated (a later subscriber gets its replay and the terminal event), and a reconnect
  /// subscribes the source again into the terminated subject.
  ///
  /// - Parameters:
  ///   - subject: Receives the source's events and serves the subscribers.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: A connectable observable.
  public func multicast<Subject: SubjectType>(
    _ subject: Subject, file: StaticString = #fileID, line: UInt = #line
  ) -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
    Multicaster(source: asObservable(), makeSubject: { subject })
      .connectable(kind: "multicast", file: file, line: line)
  }

  /// Multicasts the source through a subject made by `makeSubject` for each connection.
  ///
  /// ```swift
  /// let connectable = source.multicast(makeSubject: { PublishSubject<Int>() })
  /// ```
  ///
  /// The subject is made lazily, by the first subscription or ``ConnectableObservable/connect()``,
  /// and dropped when the connection is disposed or the source terminates (before the terminal
  /// event is forwarded), so that the next subscriber and connection use a new one. Subscribers of
  /// a dropped subject receive nothing more. `makeSubject` is never called under a lock; when two
  /// threads race, it may be called once more than needed and the extra subject is discarded.
  ///
  /// - Parameters:
  ///   - makeSubject: Makes one subject per connection.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: A connectable observable.
  public func multicast<Subject: SubjectType>(
    makeSubject: @escaping () -> Subject, file: StaticString = #fileID, line: UInt = #line
  ) -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
    Multicaster(source: asObservable(), makeSubject: makeSubject)
      .connectable(kind: "multicast", file: file, line: line)
  }

  /// Multicasts the source through a subject made per subscription, inside `selector`: each
  /// subscription makes a subject, passes the multicast sequence to `selector`, subscribes to the
  /// result and then connects the source.
  ///
  /// ```swift
  /// let doubled = source.multicast({ PublishSubject<Int>() }) { shared in
  ///   shared.map { $0 * 2 }
  /// }
  /// // source:  -1-2-|
  /// // doubled: -2-4-|
  /// ```
  ///
  /// Completes and fails when the selected sequence does; a throw from `subjectSelector` or
  /// `selector` becomes `.error` and the source is not subscribed. Disposal disposes the selected
  /// sequence's subscription and the connection.
  ///
  /// - Parameters:
  ///   - subjectSelector: Makes the subject of one subscription.
  ///   - selector: Builds the result from the multicast sequence; may subscribe to it many times
  ///     while the source is subscribed once.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func multicast<Subject: SubjectType, Result>(
    _ subjectSelector: @escaping () throws -> Subject,
    selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Result> where Subject.Observer.Element == Element {
    let source = asObservable()
    return Observable(kind: "multicast", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      do {
        let subject = try subjectSelector()
        let connectable = Multicaster(source: source, makeSubject: { subject })
          .connectable(kind: "multicast", file: file, line: line)
        let selected = try selector(connectable)
        let subscription = selected.subscribeAny(AnyObserver(eventHandler: sink.on))
        let connection = connectable.connect()
        sink.setUpstream(Disposables.create(subscription, connection))
      } catch {
        sink.on(.error(error))
        sink.setUpstream(Disposables.create())
      }
      return sink
    }
  }

  /// A connectable observable that multicasts the source through a ``PublishSubject``: subscribers
  /// receive the elements emitted while they are subscribed and the source is connected.
  ///
  /// ```swift
  /// let published = source.publish()
  /// _ = published.subscribe(onNext: { print($0) })
  /// let connection = published.connect()
  /// // source:     -1-2-3-|
  /// // connect:    --^
  /// // subscriber: ---2-3-|
  /// ```
  ///
  /// Equivalent to `multicast(makeSubject: { PublishSubject() })`: each connection has its own
  /// subject. Completes and fails when the source does; disposing the connection disconnects the
  /// source.
  public func publish(file: StaticString = #fileID, line: UInt = #line)
    -> ConnectableObservable<Element>
  {
    Multicaster(source: asObservable(), makeSubject: { PublishSubject<Element>() })
      .connectable(kind: "publish", file: file, line: line)
  }

  /// A connectable observable that multicasts the source through a ``ReplaySubject`` replaying up
  /// to `bufferSize` latest elements to each new subscriber.
  ///
  /// ```swift
  /// let replayed = Observable.of(1, 2, 3).replay(2)
  /// _ = replayed.connect()
  /// _ = replayed.subscribe(onNext: { print($0) })
  /// // Prints "2", "3"
  /// ```
  ///
  /// Equivalent to `multicast(makeSubject: { ReplaySubject.create(bufferSize: bufferSize) })`:
  /// each connection has its own buffer, dropped when the connection is disposed or the source
  /// terminates. Completes and fails when the source does.
  ///
  /// - Parameters:
  ///   - bufferSize: The replay buffer's size; 0 or more. A negative size is a
  ///     programming error and stops the program.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func replay(_ bufferSize: Int, file: StaticString = #fileID, line: UInt = #line)
    -> ConnectableObservable<Element>
  {
    if bufferSize < 0 {
      streamsStop("replay(_:) needs a buffer size of 0 or more, got \(bufferSize)")
    }
    return Multicaster(
      source: asObservable(),
      makeSubject: { ReplaySubject<Element>.create(bufferSize: bufferSize) }
    )
    .connectable(kind: "replay", file: file, line: line)
  }

  /// A connectable observable that multicasts the source through an unbounded ``ReplaySubject``:
  /// each new subscriber receives every element of the current connection.
  ///
  /// ```swift
  /// let replayed = Observable.of(1, 2, 3).replayAll()
  /// _ = replayed.connect()
  /// _ = replayed.subscribe(onNext: { print($0) })
  /// // Prints "1", "2", "3"
  /// ```
  ///
  /// Equivalent to `multicast(makeSubject: { ReplaySubject.createUnbounded() })`. Completes and
  /// fails when the source does; the buffer grows without limit while connected.
  public func replayAll(file: StaticString = #fileID, line: UInt = #line)
    -> ConnectableObservable<Element>
  {
    Multicaster(source: asObservable(), makeSubject: { ReplaySubject<Element>.createUnbounded() })
      .connectable(kind: "replay", file: file, line: line)
  }
}

/// The shared state behind a ``ConnectableObservable``: the current subject (made lazily) and the
/// current connection.
///
/// `@unchecked Sendable`: mutable state is in `state`, guarded by its lock; `source` and
/// `makeSubject` are immutable. Subjects are subscribed to and fed from any thread, as the Rx
/// contract allows. No lock is held while `makeSubject`, a subject, the source or a disposable
/// runs.
private final class Multicaster<Subject: SubjectType>: @unchecked Sendable {
  typealias Input = Subject.Observer.Element
  typealias Connection = MulticastConnection<Subject>

  private struct Current {
    let subject: Subject
    let observer: Subject.Observer
  }

  private struct State {
    var current: Current?
    var connection: Connection?
  }

  private enum ConnectAction {
    case existing(Connection)
    case connect(Connection)
    case needSubject
  }

  private let source: Observable<Input>
  private let makeSubject: () -> Subject
  private let state = Locked(State())

  init(source: Observable<Input>, makeSubject: @escaping () -> Subject) {
    self.source = source
    self.makeSubject = makeSubject
  }

  func connectable(kind: StaticString, file: StaticString, line: UInt)
    -> ConnectableObservable<Subject.Element>
  {
    ConnectableObservable(
      kind: kind, upstreams: [source.traceID], file: file, line: line,
      subscribe: { [self] observer in
        current().subject.asObservable().subscribeAny(observer)
      },
      connect: { [self] in connect() })
  }

  /// The current subject, made (outside the lock) if there is none.
  private func current() -> Current {
    if let current = state.withLock({ $0.current }) { return current }
    let subject = makeSubject()
    let made = Current(subject: subject, observer: subject.asObserver())
    return state.withLock { state in
      if let current = state.current { return current }
      state.current = made
      return made
    }
  }

  private func connect() -> any Disposable {
    while true {
      let action = state.withLock { state -> ConnectAction in
        if let connection = state.connection { return .existing(connection) }
        guard let current = state.current else { return .needSubject }
        let connection = Connection(observer: current.observer) { [self] in detach($0) }
        state.connection = connection
        return .connect(connection)
      }
      switch action {
      case .existing(let connection):
        return connection
      case .needSubject:
        _ = current()
      case .connect(let connection):
        connection.subscription.setDisposable(
          source.subscribeAny(AnyObserver(eventHandler: connection.on)))
        return connection
      }
    }
  }

  /// Forgets `connection` and its subject if it is the current one.
  private func detach(_ connection: Connection) {
    let released = state.withLock { state -> Current? in
      guard state.connection === connection else { return nil }
      state.connection = nil
      defer { state.current = nil }
      return state.current
    }
    // The subject may be released here; never under the lock.
    withExtendedLifetime(released) {}
  }
}

/// One connection of a ``ConnectableObservable`` to its source: forwards the source's events to
/// the subject and disposes the source subscription when disposed or on a terminal event.
///
/// `@unchecked Sendable`: the disposed flag is an atomic word; `observer` and `detach` are
/// immutable, and the source calls ``on(_:)`` serially; `subscription` is thread-safe.
private final class MulticastConnection<Subject: SubjectType>: Cancelable, @unchecked Sendable {
  private let observer: Subject.Observer
  private let detach: (MulticastConnection<Subject>) -> Void
  private let flag = Locked(())
  let subscription = SingleAssignmentDisposable()

  init(observer: Subject.Observer, detach: @escaping (MulticastConnection<Subject>) -> Void) {
    self.observer = observer
    self.detach = detach
    Resources.track(self)
  }

  deinit { Resources.untrack(self) }

  var isDisposed: Bool { flag.loadWord() != 0 }

  func on(_ event: Event<Subject.Observer.Element>) {
    switch event {
    case .next:
      if flag.loadWord() != 0 { return }
      observer.on(event)
    case .error, .completed:
      // Detach before forwarding, so that a subscriber reacting to the terminal event gets a new
      // subject and can connect again.
      guard release() else { return }
      observer.on(event)
    }
  }

  func dispose() {
    _ = release()
  }

  /// Marks the connection disposed, detaches it and disposes the source subscription; `false` if
  /// that already happened.
  private func release() -> Bool {
    if flag.fetchOrWord(1) != 0 { return false }
    detach(self)
    subscription.dispose()
    return true
  }
}
