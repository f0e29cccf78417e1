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
  /// empty disposable, the subscriptions of `Observable.observing` and `StateCell.asObservable()`,
  /// and element-wise stages over such a source, which hand that same disposable on. ``subscribeTerminal(_:kind:file:line:owner:)`` returns it to the caller as it
  /// is; for any other source it returns a handle that lets go of the subscription when it ends,
  /// so that a disposable kept in a `DisposeBag` never keeps an ended subscription's closures
  /// alive. The same with a tracer installed: a traced node of this kind reports its disposal
  /// when its terminal event has been delivered (`TracedNodeEnd`).
  @usableFromInline let disposableReleasesObserver: Bool

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
    subscribeTerminal(.observer(AnyObserver(observer)))
  }

  // MARK: - The three ways in
  //
  // Every subscription enters through one of these three:
  // - `subscribeTerminal`: a final subscriber (an observer, or closures) from a public API; the
  //   returned disposable lets go of everything once the subscription ends.
  // - `subscribeNested`: from inside another observable's producer, synchronously.
  // - `subscribeAny`: from anywhere else: on an event (inner sequences, `concat`'s next source,
  //   `retry`), on a scheduler, in a `Task`.
  // The rest of this section is how they run (with `runTraced`, in Observable+Tracing.swift);
  // nothing outside these two files calls it.

  /// Subscribes a final subscriber made at `file`:`line` by the public API `kind` (`subscribe`,
  /// `bind(to:)`, `drive`, a trait's `subscribe`): returns a disposable that lets go of
  /// everything the subscription holds once it ends.
  ///
  /// When this node's own disposable already does that (``disposableReleasesObserver``) and the
  /// subscriber has no `onDisposed`, it is returned as it is. Otherwise the outermost sink would
  /// be returned, and a sink holds its downstream for as long as it lives; so the subscriber is
  /// wrapped in a sink that, when the subscription ends, makes the returned handle (a
  /// ``SingleAssignmentDisposable``) let go of it, and with it of the whole chain, whose
  /// upstreams release their sinks as they are disposed. A tracer changes none of this: it sees
  /// a terminal node, owned by `owner` (the `with:` object of `subscribe(with:)`) when given, or
  /// made at no call site (`""`, 0) for an observer subscribed through the protocol's
  /// `subscribe(_:)`.
  @inlinable @inline(__always)
  final func subscribeTerminal(
    _ subscriber: TerminalSubscriber<Element>, kind: StaticString = "subscribe",
    file: StaticString = "", line: UInt = 0, owner: AnyObject? = nil
  ) -> any Disposable {
    guard Tracing.isInstalled else { return subscribeUntilEnd(subscriber) }
    return Tracing.terminal(kind: kind, file: file, line: line, upstream: traceID, owner: owner) {
      subscribeUntilEnd(subscriber)
    }
  }

  /// Subscribes from inside another observable's producer, synchronously.
  ///
  /// A producer only runs inside one of the other two ways in (or a subscription made from
  /// inside one), so this thread's trampoline is already running and the lookup that
  /// ``subscribeAny(_:)`` makes is skipped. Subscriptions made later (on an event, on a
  /// scheduler, after a delay) must use ``subscribeAny(_:)``. Debug builds check the
  /// precondition.
  @inlinable
  final func subscribeNested(_ observer: AnyObserver<Element>) -> any Disposable {
    assert(
      Trampoline.current.isRunning,
      "Streams internal error: subscribeNested called outside a producer")
    return run(observer)
  }

  /// Subscribes from anywhere: the outermost subscription on a thread runs inside the
  /// ``CurrentThreadScheduler`` trampoline, as every `Producer` subscription does in RxSwift:
  /// sources that schedule on the current thread start only after the whole chain is
  /// subscribed, so an operator that stops early can dispose them.
  @inlinable
  final func subscribeAny(_ observer: AnyObserver<Element>) -> any Disposable {
    let trampoline = Trampoline.currentUnretained
    guard Trampoline.enterIfIdleUnretained(trampoline) else { return run(observer) }
    let disposable = run(observer)
    Trampoline.drainAndStop(trampoline)
    return disposable
  }

  /// The subscription of ``subscribeTerminal(_:kind:file:line:owner:)``, past the tracer.
  ///
  /// Always inlined: the caller builds `subscriber` and it should be taken apart where it is
  /// built, where its closures are moved rather than copied (measured: about 130 instructions
  /// per subscription otherwise, `subscribe-dispose`).
  @inlinable @inline(__always)
  final func subscribeUntilEnd(_ subscriber: TerminalSubscriber<Element>) -> any Disposable {
    switch subscriber {
    case .observer(let observer):
      if disposableReleasesObserver { return subscribeAny(observer) }
      let handle = SingleAssignmentDisposable()
      // The sink refers to the handle weakly: if the subscription never ends (a subject dropped
      // without a terminal event) and the caller drops the handle, nothing keeps the pair alive.
      let sink = GuardedSink(observer, onDisposed: { [weak handle] in handle?.dispose() })
      handle.setDisposable(sink)
      sink.setUpstream(subscribeAny(AnyObserver(eventHandler: sink.on)))
      return handle
    case .sink(let sink, let handle):
      handle.setDisposable(sink)
      sink.setUpstream(subscribeAny(AnyObserver(eventHandler: sink.on)))
      return handle
    case .closures(let onNext, let onError, let onCompleted, let onDisposed):
      if disposableReleasesObserver, onDisposed == nil {
        let sink = ClosureSink<Element>(
          onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: nil, owner: nil)
        return subscribeAny(AnyObserver(eventHandler: sink.on))
      }
      let handle = SingleAssignmentDisposable()
      let sink = ClosureSink<Element>(
        onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed,
        owner: handle)
      handle.setDisposable(sink)
      sink.setUpstream(subscribeAny(AnyObserver(eventHandler: sink.on)))
      return handle
    }
  }

  /// Runs one subscription on this thread's running trampoline: through the tracer when one is
  /// installed (``runTraced(_:)``), else the producer.
  @inlinable
  final func run(_ observer: AnyObserver<Element>) -> any Disposable {
    if Tracing.isInstalled { return runTraced(observer) }
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
