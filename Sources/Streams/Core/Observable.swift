/// A type that can be converted to an ``Observable``.
public protocol ObservableConvertibleType {
  /// The type of the sequence's elements.
  associatedtype Element

  /// The observable this value stands for.
  func asObservable() -> Observable<Element>
}

/// A push-based sequence that observers subscribe to.
public protocol ObservableType: ObservableConvertibleType {
  /// Subscribes `observer`; the returned disposable ends the subscription.
  func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element
}

extension ObservableType {
  /// Wraps this value in an ``Observable`` that subscribes to it.
  ///
  /// The wrapper enforces the event grammar, as ``Observable/create(file:line:_:)`` does: a
  /// terminal event disposes the subscription to `self`.
  public func asObservable() -> Observable<Element> {
    Observable.create { observer in self.subscribe(observer) }
  }
}

/// A push-based sequence of elements: Streams' counterpart of RxSwift's `Observable`.
///
/// An observable is a recipe: nothing happens until something subscribes, and every subscription
/// runs the recipe again (unless the sequence is shared, see
/// ``ObservableType/share(replay:scope:file:line:)``).
///
/// ```swift
/// let numbers = Observable.of(1, 2, 3).map { $0 * 10 }
/// _ = numbers.subscribe(onNext: { print($0) })
/// // Prints "10", "20", "30"
/// ```
///
/// An `Observable` is not `Sendable`: it holds the closures of its operators, which are not
/// required to be `Sendable` so that code written for RxSwift keeps compiling. Subjects and relays,
/// which guard their own state, are `Sendable` when their element is.
public class Observable<Element>: ObservableType {
  /// Runs one subscription: receives the observer and returns what disposes the subscription.
  @usableFromInline let producer: (AnyObserver<Element>) -> any Disposable
  @usableFromInline let traceID: UInt64
  @usableFromInline let traceKind: StaticString
  @usableFromInline let traceUpstreams: [UInt64]
  @usableFromInline let traceFile: StaticString
  @usableFromInline let traceLine: UInt
  /// `true` when the disposable a subscription returns lets go of the observer once the
  /// subscription ends, by disposal or by a terminal event: a subject's subscription, `just`'s
  /// empty disposable, and element-wise stages over such a source, which hand that same
  /// disposable on. The public subscribe paths return it to the caller as it is; for any other
  /// source they return a handle that lets go of the subscription when it ends (see
  /// ``subscribeReleasing(_:)``), so that a disposable kept in a `DisposeBag` never keeps an
  /// ended subscription's closures alive.
  @usableFromInline let disposableReleasesObserver: Bool

  /// Whether a subscription made now returns a disposable that lets go of the observer when the
  /// subscription ends (``disposableReleasesObserver``). Not while a tracer is installed: a traced
  /// node's disposable reports its disposal, which must happen when the subscription ends.
  @inlinable
  final var returnsReleasingDisposable: Bool {
    disposableReleasesObserver && !Tracing.isInstalled
  }

  /// Creates a node of the graph. The producer is trusted to follow the event grammar (operators
  /// inside Streams); ``create(_:)`` is the public, guarded entry.
  @inlinable
  init(
    kind: StaticString, upstreams: [UInt64], file: StaticString = #fileID, line: UInt = #line,
    disposableReleasesObserver: Bool = false,
    producer: @escaping (AnyObserver<Element>) -> any Disposable
  ) {
    self.producer = producer
    self.disposableReleasesObserver = disposableReleasesObserver
    self.traceID = Tracing.nextID()
    self.traceKind = kind
    self.traceUpstreams = upstreams
    self.traceFile = file
    self.traceLine = line
  }

  /// Returns `self`.
  @inlinable
  public final func asObservable() -> Observable<Element> { self }

  /// Subscribes `observer`; the returned disposable ends the subscription.
  ///
  /// Once the subscription ends (by disposal, or by a terminal event) the returned disposable no
  /// longer holds `observer`, so keeping it (in a `DisposeBag`) does not keep `observer` alive.
  @inlinable
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    subscribeReleasing(AnyObserver(observer))
  }

  /// The public subscribe path for an observer: returns a disposable that lets go of everything
  /// the subscription holds once it ends.
  ///
  /// When this node's own disposable already does that (``disposableReleasesObserver``) it is
  /// returned as it is. Otherwise the outermost sink would be returned, and a sink holds its
  /// downstream for as long as it lives; so the observer is wrapped in a sink that, when the
  /// subscription ends, makes the returned handle (a ``SingleAssignmentDisposable``) let go of
  /// it, and with it of the whole chain, whose upstreams release their sinks as they are disposed.
  ///
  /// A tracer sees the terminal node `kind` made at `file`:`line`: the caller's call site
  /// (`bind(to:)`, `drive`, `emit(to:)`, a trait's `subscribe`), or none (`""`, 0) for an
  /// observer subscribed through the protocol's `subscribe(_:)`, which takes no call site.
  @inlinable
  final func subscribeReleasing(
    _ observer: AnyObserver<Element>, kind: StaticString = "subscribe", file: StaticString = "",
    line: UInt = 0
  ) -> any Disposable {
    if Tracing.isInstalled {
      return Tracing.terminal(
        kind: kind, file: file, line: line, upstream: traceID, owner: nil
      ) { subscribeThroughHandle(observer) }
    }
    if returnsReleasingDisposable { return subscribeAny(observer) }
    return subscribeThroughHandle(observer)
  }

  /// Subscribes `observer` through a handle that lets go of the subscription when it ends.
  @inlinable
  final func subscribeThroughHandle(_ observer: AnyObserver<Element>) -> any Disposable {
    let handle = SingleAssignmentDisposable()
    // The sink refers to the handle weakly: if the subscription never ends (a subject dropped
    // without a terminal event) and the caller drops the handle, nothing keeps the pair alive.
    let sink = GuardedSink(observer, onDisposed: { [weak handle] in handle?.dispose() })
    handle.setDisposable(sink)
    sink.setUpstream(subscribeAny(AnyObserver(eventHandler: sink.on)))
    return handle
  }

  /// The one subscribe path every subscription takes, where the tracing hook is consulted.
  ///
  /// The outermost subscription on a thread runs inside the ``CurrentThreadScheduler``
  /// trampoline, as every `Producer` subscription does in RxSwift: sources that schedule on the
  /// current thread start only after the whole chain is subscribed, so an operator that stops
  /// early can dispose them.
  @inlinable
  final func subscribeAny(_ observer: AnyObserver<Element>) -> any Disposable {
    let trampoline = Trampoline.currentUnretained
    guard Trampoline.enterIfIdleUnretained(trampoline) else {
      return subscribeInTrampoline(observer)
    }
    let disposable = subscribeInTrampoline(observer)
    Trampoline.drainAndStop(trampoline)
    return disposable
  }

  /// Subscribes from inside another observable's producer, synchronously.
  ///
  /// A producer only runs inside ``subscribeAny(_:)`` (or a subscription made from inside one),
  /// so this thread's trampoline is already running and the lookup that `subscribeAny` makes is
  /// skipped. Subscriptions made later (on an event, on a scheduler, after a delay) must use
  /// ``subscribeAny(_:)``. Debug builds check the precondition.
  @inlinable
  final func subscribeNested(_ observer: AnyObserver<Element>) -> any Disposable {
    assert(
      Trampoline.current.isRunning,
      "Streams internal error: subscribeNested called outside a producer")
    return subscribeInTrampoline(observer)
  }

  @inlinable
  final func subscribeInTrampoline(_ observer: AnyObserver<Element>) -> any Disposable {
    if Tracing.isInstalled {
      return subscribeTraced(observer)
    }
    return produce(observer)
  }

  /// Runs one subscription: calls the producer.
  ///
  /// A subclass that keeps its whole state in the observable itself (`just`) overrides this
  /// instead of capturing that state in a producer closure, which would be a second allocation
  /// per observable; its producer is then never called.
  @usableFromInline
  func produce(_ observer: AnyObserver<Element>) -> any Disposable {
    producer(observer)
  }

  /// The id of this node in traces (``TraceNode/id``).
  public final var traceNodeID: UInt64 { traceID }

  /// This node as a tracer sees it.
  public var traceNode: TraceNode {
    TraceNode(
      id: traceID, kind: "\(traceKind)", upstreams: traceUpstreams, file: "\(traceFile)",
      line: traceLine)
  }

  @inlinable
  final func subscribeTraced(_ observer: AnyObserver<Element>) -> any Disposable {
    guard let tracer = Tracing.current, let recorder = tracer.subscription(to: traceNode) else {
      return produce(observer)
    }
    recorder.subscribing()
    let disposable: any Disposable
    if let direct = recorder as? any DirectTraceSubscription {
      disposable = produce(
        AnyObserver { event in
          if case .next(let element) = event, let words = TraceValue.plainWords(of: element) {
            direct.beginPlain(Element.self, words.0, words.1)
          } else {
            direct.begin(event.traceKind, value: { event.traceValue() })
          }
          observer.on(event)
          Tracing.endDirect()
        })
    } else {
      disposable = produce(
        AnyObserver { event in
          recorder.deliver(event.traceKind, value: { event.traceValue() }) { observer.on(event) }
        })
    }
    recorder.subscribed()
    // The tracer hears of the disposal before it propagates upstream, so a trace reads in the
    // order disposal travels: downstream first.
    return Disposables.create(
      Disposables.create { recorder.disposed() },
      disposable)
  }
}

extension Observable {
  /// Creates an observable from a subscribe function.
  ///
  /// ```swift
  /// let greeting = Observable<String>.create { observer in
  ///   observer.onNext("hello")
  ///   observer.onCompleted()
  ///   return Disposables.create()
  /// }
  /// ```
  ///
  /// The observer ignores everything after the first terminal event or after disposal; the
  /// terminal event disposes the returned disposable. Calls to the observer must be serial.
  ///
  /// - Parameters:
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  ///   - subscribe: Runs once per subscription.
  /// - Returns: An observable that completes, fails or runs forever as `subscribe` decides.
  @inlinable
  public static func create(
    file: StaticString = #fileID, line: UInt = #line,
    _ subscribe: @escaping (AnyObserver<Element>) -> any Disposable
  ) -> Observable<Element> {
    Observable(kind: "create", upstreams: [], file: file, line: line) { observer in
      let sink = GuardedSink(observer)
      sink.setUpstream(subscribe(AnyObserver(eventHandler: sink.on)))
      return sink
    }
  }
}
