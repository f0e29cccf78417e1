@_spi(StreamsInternal) import Streams

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a ``TraceRecorder`` keeps.
public struct TraceConfiguration: Sendable {
  /// How many recent element descriptions each node keeps; 0 records no values (for sensitive
  /// data).
  public var recentValues: Int
  /// How many recent deliveries the trace keeps (for causal chains and cycles).
  public var recentDeliveries: Int

  /// A configuration; the defaults keep 8 values per node and 4096 deliveries.
  public init(recentValues: Int = 8, recentDeliveries: Int = 4096) {
    precondition(recentValues >= 0, "TraceConfiguration: recentValues must not be negative")
    precondition(recentDeliveries >= 0, "TraceConfiguration: recentDeliveries must not be negative")
    self.recentValues = recentValues
    self.recentDeliveries = recentDeliveries
  }
}

/// Records the who-emits-to-whom graph of everything subscribed while it is installed.
///
/// ```swift
/// let recorder = TraceRecorder()
/// Tracing.install(recorder)
/// // ... run the app ...
/// let graph = recorder.graph
/// print(graph.edges.count)
/// Tracing.install(nil)
/// ```
///
/// It records, from the core's tracing hook, with no change to app code:
/// - every node subscribed (sources, operators, subjects and relays, terminal subscribers), with
///   its call site and upstreams;
/// - subscription edges (live counts), emission edges (counts, first and last time) and control
///   edges (`take(until:)`'s trigger, `sample`'s sampler, ...);
/// - the cross-file chain: code running inside a delivery to subscriber S that sends into subject
///   or relay X records the chain edge S → X;
/// - each delivery with the delivery that caused it on the same thread (a per-thread stack);
/// - owners: the `with:` object of `subscribe(with:)`, or the type named by the file of the call
///   site (`TopViewModel.swift` → `TopViewModel`), or a name given with ``name(_:_:)``.
///
/// Memory is bounded by the graph: nodes, edges, live subscriptions, and the rings of recent
/// values and deliveries that ``TraceConfiguration`` sizes.
public final class TraceRecorder: StreamsTracer, Sendable {
  let configuration: TraceConfiguration
  let state: Protected<RecorderState>

  /// A recorder keeping what `configuration` says.
  public init(configuration: TraceConfiguration = TraceConfiguration()) {
    self.configuration = configuration
    self.state = Protected(RecorderState(configuration: configuration))
  }

  /// Installs a recorder, runs `body`, puts back the tracer installed before (if any), and
  /// returns what it recorded.
  ///
  /// ```swift
  /// let graph = TraceRecorder.record {
  ///   let subject = PublishSubject<Int>()
  ///   _ = subject.map { $0 * 2 }.subscribe(onNext: { print($0) })
  ///   subject.onNext(1)
  /// }
  /// ```
  public static func record(
    configuration: TraceConfiguration = TraceConfiguration(), _ body: () throws -> Void
  ) rethrows -> TraceGraph {
    let recorder = TraceRecorder(configuration: configuration)
    let previous = Tracing.current
    Tracing.install(recorder)
    defer { Tracing.install(previous) }
    try body()
    return recorder.graph
  }

  /// What was recorded so far.
  public var graph: TraceGraph {
    let (snapshot, owners) = state.withLock { ($0.snapshot(), $0.ownersToCheck) }
    var graph = snapshot
    for index in graph.subscriptions.indices {
      if let owner = owners[graph.subscriptions[index].id] {
        graph.subscriptions[index].ownerGone = owner.object == nil
      }
    }
    return graph
  }

  /// Names `node` (a subject's property, `"UIState.contentAlpha"`) and, optionally, its owner
  /// type, for the graph to read "TopViewModel → UIState.contentAlpha".
  ///
  /// ```swift
  /// recorder.name(cartBadge, "CartBadge.count")
  /// ```
  public func name<Source: ObservableConvertibleType>(
    _ node: Source, _ name: String, owner: String? = nil
  ) {
    let traceNode = node.asObservable().traceNode
    state.withLock { state in
      state.addNode(traceNode, owner: owner, now: Clock.now)
      state.nodes[traceNode.id]?.name = name
      if let owner { state.nodes[traceNode.id]?.owner = owner }
    }
  }

  // MARK: StreamsTracer

  public func subscription(to node: TraceNode) -> (any TraceSubscription)? {
    let context = ThreadContext.current
    let subscriber = context.currentSubscriber
    let record = state.withLock { state in
      state.subscribe(node, by: subscriber, now: Clock.now)
    }
    return NodeSubscription(recorder: self, record: record)
  }

  public func terminal(_ node: TraceNode, owner: AnyObject?) -> (any TraceSubscription)? {
    let ownerName = owner.map { String(describing: type(of: $0)) }
    let id = state.withLock { state in
      state.addTerminal(node, owner: ownerName, ownerObject: owner, now: Clock.now)
    }
    return TerminalSubscription(recorder: self, node: id)
  }

  public func send<Element>(
    _ event: Event<Element>, into subject: Observable<Element>, _ deliver: () -> Void
  ) {
    let context = ThreadContext.current
    let sender = context.currentReceiver
    let cause = context.currentDelivery
    let node = subject.traceNode
    let value = describe(event)
    let (delivery, subjectID) = state.withLock { state in
      // A subject has no upstreams: it is canonical at once, possibly merged into the subject
      // made earlier at the same call site.
      let subjectID = state.addNode(node, owner: nil, now: Clock.now)
      let delivery = state.recordSend(
        event.kind, into: subjectID, from: sender, cause: cause, hop: context.currentHop,
        thread: context.number, now: Clock.now, value: value)
      return (delivery, subjectID)
    }
    context.stack.append(.delivering(delivery: delivery, to: subjectID))
    deliver()
    context.stack.removeLast()
  }

  public func hop() -> (any TraceHop)? {
    let context = ThreadContext.current
    let subscribing: UInt64?
    if case .subscribing(let node)? = context.stack.last {
      subscribing = node
    } else {
      subscribing = nil
    }
    guard context.currentDelivery != nil || subscribing != nil else { return nil }
    return CauseCarrier(
      delivery: context.currentDelivery, receiver: context.currentReceiver,
      subscribing: subscribing)
  }

  func describe<Element>(_ event: Event<Element>) -> String? {
    guard configuration.recentValues > 0 else { return nil }
    switch event {
    case .next(let element): return String(describing: element)
    case .error(let error): return String(describing: error)
    case .completed: return nil
    }
  }
}

extension Event {
  var kind: TraceGraph.EventKind {
    switch self {
    case .next: .next
    case .error: .error
    case .completed: .completed
    }
  }
}

/// One traced subscription of a node by a subscriber.
final class NodeSubscription: TraceSubscription {
  let recorder: TraceRecorder
  let record: SubscriptionRecord

  init(recorder: TraceRecorder, record: SubscriptionRecord) {
    self.recorder = recorder
    self.record = record
  }

  func event<Element>(_ event: Event<Element>) {
    let context = ThreadContext.current
    let cause = context.currentDelivery
    let value = recorder.describe(event)
    let delivery = recorder.state.withLock { state in
      state.recordDelivery(
        event.kind, record: record, cause: cause, hop: context.currentHop,
        thread: context.number, now: Clock.now, value: value)
    }
    context.stack.append(.delivering(delivery: delivery, to: record.subscriber))
  }

  func delivered() {
    ThreadContext.current.stack.removeLast()
  }

  func subscribing() {
    ThreadContext.current.stack.append(.subscribing(record.node))
  }

  func subscribed() {
    ThreadContext.current.stack.removeLast()
    recorder.state.withLock { state in _ = state.canonicalize(record.node) }
  }

  func disposed() {
    recorder.state.withLock { state in state.end(record) }
  }
}

/// The recorder of a terminal subscriber: brackets its subscription so that the node it
/// subscribes to sees it as the subscriber.
final class TerminalSubscription: TraceSubscription {
  let recorder: TraceRecorder
  let node: UInt64

  init(recorder: TraceRecorder, node: UInt64) {
    self.recorder = recorder
    self.node = node
  }

  func event<Element>(_ event: Event<Element>) {}

  func subscribing() {
    ThreadContext.current.stack.append(.subscribing(node))
  }

  func subscribed() {
    ThreadContext.current.stack.removeLast()
    recorder.state.withLock { state in _ = state.canonicalize(node) }
  }

  func disposed() {}
}

/// The cause of work handed to a scheduler, restored where the work runs: the delivery under
/// way, and the node subscribing when the work is a deferred subscription (`subscribe(on:)`).
final class CauseCarrier: TraceHop {
  let delivery: UInt64?
  let receiver: UInt64?
  let subscribing: UInt64?

  init(delivery: UInt64?, receiver: UInt64?, subscribing: UInt64?) {
    self.delivery = delivery
    self.receiver = receiver
    self.subscribing = subscribing
  }

  func run(_ work: () -> Void) {
    let context = ThreadContext.current
    let depth = context.stack.count
    if let delivery, let receiver {
      context.stack.append(.hopped(delivery: delivery, to: receiver))
    }
    if let subscribing { context.stack.append(.subscribing(subscribing)) }
    work()
    context.stack.removeLast(context.stack.count - depth)
  }
}

/// Nanoseconds of a monotonic clock.
enum Clock {
  static var now: UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
  }
}
