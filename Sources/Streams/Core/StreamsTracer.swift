import StreamsShims

/// The one hook point through which a tracer sees the graph of subscriptions.
///
/// Streams calls the installed tracer once per subscription to every node (operator, subject,
/// source). The tracer decides there whether that subscription is traced by returning a
/// ``TraceSubscription`` or `nil`. An untraced subscription costs one atomic load when it is made
/// and nothing per event; a traced one reports every event the node emits and its disposal.
///
/// ```swift
/// final class Printer: StreamsTracer {
///   func subscription(to node: TraceNode) -> (any TraceSubscription)? { nil }
/// }
/// Tracing.install(Printer())
/// ```
public protocol StreamsTracer: AnyObject, Sendable {
  /// Called when something subscribes to `node`; return a recorder to trace that subscription.
  ///
  /// The subscriber is whatever the tracer knows to be subscribing on this thread: the node whose
  /// ``TraceSubscription/subscribing()`` was called last and has not finished, or the receiver of
  /// the delivery under way (an operator that subscribes an inner sequence while it handles an
  /// element).
  func subscription(to node: TraceNode) -> (any TraceSubscription)?

  /// Called when a terminal subscriber (`subscribe(onNext:)`, `bind(to:)`, `drive`, `emit`,
  /// `values`, a state binding) is about to subscribe; `node` describes it (role
  /// ``TraceRole/terminal``, its call site, the node it subscribes to as its upstream) and `owner`
  /// is the object it belongs to when known (the `with:` object). Return a recorder whose
  /// ``TraceSubscription/subscribing()`` and ``TraceSubscription/subscribed()`` bracket the
  /// subscription. The default returns `nil`.
  func terminal(_ node: TraceNode, owner: AnyObject?) -> (any TraceSubscription)?

  /// Called when code sends an event into a subject or relay (`onNext`, `accept`, `onError`,
  /// `onCompleted`); `deliver` makes the subject deliver it, and must be called once. Code running
  /// inside a traced delivery on this thread is the sender: that is the cross-file chain, and the
  /// subject's deliveries are caused by this send. The default calls `deliver`.
  ///
  /// - Parameters:
  ///   - kind: What is sent.
  ///   - value: Makes the element of a `next` or the error of an `error` (`nil` for a
  ///     completion) as a ``TraceValue``, for a tracer that records values. Nothing is made
  ///     unless it is called.
  ///   - subject: The subject's ``TraceNode/id``.
  ///   - node: Describes the subject as a ``TraceNode``; made only when called.
  ///   - deliver: Delivers the event to the subject's observers.
  func send(
    _ kind: TraceEventKind, value: () -> TraceValue?, into subject: UInt64,
    node: () -> TraceNode, _ deliver: () -> Void)

  /// Called when work is handed to a scheduler or a task (`observe(on:)`, `delay`, `debounce`,
  /// `subscribe(on:)`, a state binding's hop: `.scheduler`; a bridge's `Task`: `.task`): return
  /// what carries the cause of the work (the delivery under way on this thread) to where it runs,
  /// or `nil`. The default returns `nil`.
  ///
  /// - Parameters:
  ///   - kind: Through a scheduler or into a task.
  ///   - label: Where the work goes, as a developer knows it: `main queue`, `queue
  ///     com.app.search` (a dispatch queue's label), `TestScheduler`, `Task`.
  func hop(_ kind: TraceHopKind, label: String) -> (any TraceHop)?
}

/// How work reaches the place where it runs (see ``StreamsTracer/hop(_:label:)``).
public enum TraceHopKind: Sendable {
  /// Through a scheduler or a dispatch queue.
  case scheduler
  /// Into a `Task` started by an async bridge.
  case task
}

/// Carries the cause of scheduled work across a hop (see ``StreamsTracer/hop(_:label:)``).
public protocol TraceHop: AnyObject, Sendable {
  /// Runs `work` where the scheduler runs it, with the captured cause restored.
  func run(_ work: () -> Void)
}

extension StreamsTracer {
  /// Traces no terminal subscriber.
  public func terminal(_ node: TraceNode, owner: AnyObject?) -> (any TraceSubscription)? { nil }

  /// Carries nothing across hops.
  public func hop(_ kind: TraceHopKind, label: String) -> (any TraceHop)? { nil }

  /// Delivers what is sent into subjects without recording it.
  public func send(
    _ kind: TraceEventKind, value: () -> TraceValue?, into subject: UInt64,
    node: () -> TraceNode, _ deliver: () -> Void
  ) {
    deliver()
  }
}

/// Receives what one traced subscription of a node sees.
public protocol TraceSubscription: AnyObject, Sendable {
  /// The node emits an event of `kind` to this subscriber: `body` hands it to the subscriber and
  /// must be called once; what the subscriber does meanwhile happens during this delivery.
  /// `value` makes its element or error, as for ``StreamsTracer/send(_:value:into:node:_:)``,
  /// only when called.
  func deliver(_ kind: TraceEventKind, value: () -> TraceValue?, _ body: () -> Void)
  /// The node is about to subscribe to its upstreams for this subscription.
  func subscribing()
  /// The node has subscribed to its upstreams (or the terminal subscriber to its source).
  func subscribed()
  /// The subscription was disposed, or, for a node whose disposable lets go of its observer when
  /// it ends (a subject's subscription), ended by a terminal event, delivered once its
  /// subscription returned. Called once.
  func disposed()
  /// The disposable of this terminal subscriber's subscription was added to a `DisposeBag` made
  /// at `file`:`line` (`bag.insert`, `disposed(by:)`): the object that holds that bag owns the
  /// subscription. Called on the inserting thread, any number of times.
  func parked(inBagMadeAt file: String, line: UInt)
  /// Code named `owner` the owner of this terminal subscriber's subscription
  /// (``Disposable/owned(by:)``); the tracer may hold it weakly to tell when it is gone.
  func owned(by owner: AnyObject)
}

extension TraceSubscription {
  /// Does nothing.
  public func subscribing() {}
  /// Does nothing.
  public func subscribed() {}
  /// Does nothing.
  public func parked(inBagMadeAt file: String, line: UInt) {}
  /// Does nothing.
  public func owned(by owner: AnyObject) {}
}

/// What kind of event a tracer is told about.
public enum TraceEventKind: Sendable {
  case next, error, completed
}

extension Event {
  /// The kind of this event, for a tracer.
  @inlinable
  var traceKind: TraceEventKind {
    switch self {
    case .next: .next
    case .error: .error
    case .completed: .completed
    }
  }

  /// The element or error, as a tracer keeps it (see ``StreamsTracer/send(_:value:into:node:_:)``);
  /// `nil` for a completion.
  @inlinable
  func traceValue() -> TraceValue? {
    switch self {
    case .next(let element): TraceValue(element)
    case .error(let error): TraceValue(description: String(describing: error))
    case .completed: nil
    }
  }
}
