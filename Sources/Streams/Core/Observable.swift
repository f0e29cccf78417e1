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
/// runs the recipe again (unless the sequence is shared, see ``ObservableType/share(replay:scope:)``).
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

  /// Creates a node of the graph. The producer is trusted to follow the event grammar (operators
  /// inside Streams); ``create(_:)`` is the public, guarded entry.
  @inlinable
  init(
    kind: StaticString, upstreams: [UInt64], file: StaticString = #fileID, line: UInt = #line,
    producer: @escaping (AnyObserver<Element>) -> any Disposable
  ) {
    self.producer = producer
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
  @inlinable
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    subscribeAny(AnyObserver(observer))
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

  /// This node as a tracer sees it.
  public var traceNode: TraceNode {
    TraceNode(
      id: traceID, kind: "\(traceKind)", upstreams: traceUpstreams, file: "\(traceFile)",
      line: traceLine)
  }

  @usableFromInline
  final func subscribeTraced(_ observer: AnyObserver<Element>) -> any Disposable {
    guard let tracer = Tracing.current, let recorder = tracer.subscription(to: traceNode) else {
      return produce(observer)
    }
    let disposable = produce(
      AnyObserver { event in
        recorder.event(event)
        observer.on(event)
      })
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
  /// - Parameter subscribe: Runs once per subscription.
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
