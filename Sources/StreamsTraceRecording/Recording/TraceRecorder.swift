import Streams
import StreamsShims

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
///   site (`TopViewModel.swift` → `TopViewModel`), or a name given with ``name(_:_:owner:)``.
///
/// Memory is bounded by the graph (nodes, edges, live subscriptions) and by the rings that
/// ``TraceConfiguration`` sizes: each node's recent values, the recent deliveries, and, for each
/// thread that has sent into a subject or relay, a ring of its own recent sends
/// (`recentDeliveries` rounded up to a power of two, 80 bytes each: 320 KB at the default 4096)
/// plus a queue of about 130 KB. A thread's ring and queue are freed when the thread exits; a
/// thread that outlives the recorder keeps them until it attaches to newer recorders (at most
/// four per thread) or exits.
public final class TraceRecorder: StreamsTracer, Sendable {
  let configuration: TraceConfiguration
  let state: Locked<RecorderState>
  /// Tells this recorder's thread queues from those of recorders installed before it.
  let serial: UInt64
  /// Hands out delivery ids, process-wide: a cause recorded under one recorder never names
  /// another recorder's delivery.
  let recordsValues: Bool
  /// Whether the ring of deliveries keeps their values (values are recorded and the ring keeps
  /// deliveries).
  let ringKeepsValues: Bool
  /// Whether the ring keeps deliveries at all (`recentDeliveries > 0`).
  let keepsDeliveries: Bool
  private let timeline: Bool
  /// Reads the app's source to name nodes (files read once per recorder).
  let sourceNames: SourceNames

  /// A recorder keeping what `configuration` says.
  public init(configuration: TraceConfiguration = TraceConfiguration()) {
    self.configuration = configuration
    self.state = Locked(RecorderState(configuration: configuration))
    self.serial = UInt64(Self.serials.increment())
    self.recordsValues = configuration.recentValues > 0
    self.ringKeepsValues = recordsValues && configuration.recentDeliveries > 0
    self.timeline = configuration.timeline
    self.keepsDeliveries = configuration.recentDeliveries > 0
    self.sourceNames = SourceNames(roots: configuration.sourceRoots)
  }

  private static let serials = AtomicCounter()

  /// Runs `body` with a new recorder as its tracer (``/Streams/Tracing/withTracer(_:_:)``) and
  /// returns what it recorded: the subscriptions `body` makes and the events it sends, with the
  /// work it hands on through schedulers and tasks, and not what other threads do meanwhile.
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
    try Tracing.withTracer(recorder, body)
    return recorder.graph
  }

  /// What was recorded so far, with nodes named by the stored properties that hold them where
  /// the source can be read (see ``TraceConfiguration/sourceRoots``).
  public var graph: TraceGraph {
    let (snapshot, owners, paths) = withState { state in
      state.drain()
      return (state.snapshot(), state.ownersToCheck, state.sourcePaths)
    }
    var graph = snapshot.described()
    sourceNames.apply(to: &graph, paths: paths)
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
    withState { state in
      let id = state.addNode(traceNode, owner: owner, now: MonotonicClock.now)
      state.nodes[id]?.name = name
      if let owner { state.nodes[id]?.owner = owner }
    }
  }

  /// Runs `body` on the state under the lock. What the state drops there runs no user code:
  /// values are ``TraceValue``s (plain bytes or strings), and owners are held weakly.
  @discardableResult
  func withState<Result>(_ body: (inout RecorderState) -> Result) -> Result {
    state.withLock { state in body(&state) }
  }

  // MARK: StreamsTracer

  public func subscription(to node: TraceNode) -> (any TraceSubscription)? {
    let context = ThreadContext.current
    let subscriber = context.currentSubscriber
    let record = withState { state in
      state.subscribe(node, by: subscriber, now: MonotonicClock.now)
    }
    return NodeSubscription(recorder: self, record: record)
  }

  public func terminal(_ node: TraceNode, owner: AnyObject?) -> (any TraceSubscription)? {
    let ownerName = owner.map { String(describing: type(of: $0)) }
    let id = withState { state in
      state.addTerminal(node, owner: ownerName, ownerObject: owner, now: MonotonicClock.now)
    }
    return TerminalSubscription(recorder: self, node: id)
  }

  public func send(
    _ kind: TraceEventKind, value: () -> TraceValue?, into subject: UInt64,
    node: () -> TraceNode, _ deliver: () -> Void
  ) {
    beginSend(kind, value: value, into: subject, node: node)
    deliver()
    ThreadContext.current.pop()
  }

  public func hop(_ kind: TraceHopKind, label: String) -> (any TraceHop)? {
    let context = ThreadContext.current
    let frame = context.currentDeliveryFrame
    let subscribing: UInt64?
    if let last = context.top, last.kind == .subscribing {
      subscribing = last.node
    } else {
      subscribing = nil
    }
    guard frame != nil || subscribing != nil else { return nil }
    return CauseCarrier(
      delivery: frame.map { ($0.node, $0.delivery) }, subscribing: subscribing,
      via: ThreadContext.Via(
        hop: kind == .task ? .task : .scheduler, label: HopLabels.shared.number(of: label)),
      fineTime: timeline)
  }

  // MARK: Per event

  /// Begins a send into `subject` on the thread of `context`: pushes its frame and returns the
  /// event to queue for it, with where the subject's values go.
  @inline(__always)
  func startSend(
    _ kind: TraceEventKind, into subject: UInt64, node: () -> TraceNode,
    in context: ThreadContext
  ) -> (QueuedEvent, Unmanaged<NodeValues>?) {
    _ = queue(of: context)
    let parent = context.currentDeliveryFrame
    let known = self.subject(subject, node: node, in: context)
    let delivery = nextDeliveryID()
    context.push(.delivering, node: known.canonical, delivery: delivery, fineTime: timeline)
    let event = QueuedEvent(
      kind: .send, event: TraceGraph.EventKind(kind),
      hop: parent?.via ?? .direct, thread: context.number,
      delivery: delivery, from: parent?.node ?? 0, to: known.canonical,
      cause: parent?.delivery ?? 0, time: timeline ? MonotonicClock.now : context.time,
      cell: nil)
    return (event, known.values)
  }

  /// A new delivery id.
  @inline(__always)
  func nextDeliveryID() -> UInt64 {
    UInt64(bitPattern: Int64(streams_trace_next_delivery_id()))
  }

  /// The calling thread's queue to this recorder, which becomes the thread's first attachment
  /// (``subject(_:node:in:)`` reads that attachment's cache).
  @inline(__always)
  func queue(of context: ThreadContext) -> Unmanaged<EventQueue> {
    if context.state.pointee.currentRecorder == serial,
      let queue = context.state.pointee.currentQueue
    {
      return queue
    }
    return attach(context)
  }

  private func attach(_ context: ThreadContext) -> Unmanaged<EventQueue> {
    let state = context.state
    // The first attachment's subjects go back into it before another one becomes first.
    if !state.pointee.attachments.isEmpty {
      swap(&state.pointee.knownSubjects, &state.pointee.attachments[0].knownSubjects)
    }
    var created: EventQueue?
    if let index = state.pointee.attachments.firstIndex(where: { $0.recorder == serial }) {
      state.pointee.attachments.swapAt(0, index)
    } else {
      if state.pointee.attachments.count >= ThreadContext.maximumAttachments {
        state.pointee.attachments.removeLast().queue.abandon()
      }
      let queue = EventQueue(
        capacity: Self.queueCapacity, sendCapacity: configuration.recentDeliveries)
      state.pointee.attachments.insert(
        ThreadContext.Attachment(
          recorder: serial, queue: queue, queueRef: Unmanaged.passUnretained(queue)),
        at: 0)
      created = queue
    }
    swap(&state.pointee.knownSubjects, &state.pointee.attachments[0].knownSubjects)
    state.pointee.currentRecorder = serial
    let queue = state.pointee.attachments[0].queueRef
    state.pointee.currentQueue = queue
    if let created {
      withState { recorderState in
        // Queues whose threads are gone or moved on, and that hold nothing more, are forgotten.
        recorderState.forgetAbandonedQueues()
        recorderState.queues.append(created)
      }
    }
    return queue
  }

  /// How many events a thread queues before it takes them to the recorder itself.
  static let queueCapacity = 1024

  /// Queues `event` on the calling thread's queue to this recorder; when the queue is full,
  /// takes everything queued in under the lock first. The queue is looked up here, after any user
  /// code (a `description`) has run, and again after the drain.
  @inline(__always)
  func enqueue(_ event: QueuedEvent, in context: ThreadContext) {
    if queue(of: context)._withUnsafeGuaranteedRef({ $0.push(event) }) { return }
    withState { state in state.drain() }
    _ = queue(of: context)._withUnsafeGuaranteedRef { $0.push(event) }
  }

  /// Records the send `event` with nothing beside it: a root send (from outside any delivery)
  /// goes into the thread's own ring of sends (``SeqlockRing``), or nowhere when the ring keeps no
  /// deliveries; a send made inside a delivery is queued, for its chain edge to be counted.
  @inline(__always)
  func record(send event: QueuedEvent, in context: ThreadContext) {
    guard event.from == 0 else { return enqueue(event, in: context) }
    guard keepsDeliveries else { return }
    queue(of: context)._withUnsafeGuaranteedRef { $0.sends.push(event.entry) }
  }

  /// Queues `event` with `payload` (see ``enqueue(_:in:)``).
  @inline(__always)
  func enqueue(_ event: QueuedEvent, payload: Payload, in context: ThreadContext) {
    if queue(of: context)._withUnsafeGuaranteedRef({ $0.push(event, value: payload) }) { return }
    withState { state in state.drain() }
    _ = queue(of: context)._withUnsafeGuaranteedRef { $0.push(event, value: payload) }
  }

  /// Queues `event` with `value`: a plain value's type and bytes in the event itself, a string or
  /// a description beside it (see ``enqueue(_:in:)``).
  @inline(__always)
  func enqueue(_ event: QueuedEvent, value: TraceValue, in context: ThreadContext) {
    guard let plain = value.plain else {
      return enqueue(event, payload: Payload(value), in: context)
    }
    var event = event
    event.setValue(type: plain.type, plain.words.0, plain.words.1)
    enqueue(event, in: context)
  }

  /// Keeps the plain value of `type` whose bytes are `first` and `second`, sent by the send
  /// `event`, among the recent values of the subject whose values are `values` (or of the
  /// subject it was merged into), written there by this thread and keyed by the send's id.
  @inline(__always)
  func keep(
    plain type: any Any.Type, _ first: UInt64, _ second: UInt64, in values: Unmanaged<NodeValues>,
    sentBy event: QueuedEvent, in context: ThreadContext
  ) {
    let target = values._withUnsafeGuaranteedRef { $0.current }
    target._withUnsafeGuaranteedRef {
      $0.write(type: type, first, second, key: event.delivery, thread: context.number)
    }
  }

  /// Keeps `value`, sent by the send `event`, among the recent values of the subject whose
  /// values are `values` (or of the subject it was merged into), keyed by the send's id: a plain
  /// value is written there by this thread; a string or a description is queued with its stamp,
  /// for the next drain.
  @inline(__always)
  func keep(
    _ value: TraceValue, in values: Unmanaged<NodeValues>, sentBy event: QueuedEvent,
    in context: ThreadContext
  ) {
    if values._withUnsafeGuaranteedRef({ $0.current })._withUnsafeGuaranteedRef({
      $0.write(value, key: event.delivery, thread: context.number)
    }) {
      return
    }
    queue(
      text: value, in: values, key: event.delivery, from: event.from, to: event.to,
      cause: event.cause, in: context)
  }

  /// Queues the string or description `value` for the recent values of the node whose values are
  /// `values` (or of the node it was merged into), with its stamp and the order key `key`, for
  /// the next drain.
  func queue(
    text value: TraceValue, in values: Unmanaged<NodeValues>, key: UInt64, from: UInt64,
    to: UInt64, cause: UInt64, in context: ThreadContext
  ) {
    let target = values._withUnsafeGuaranteedRef { $0.current }
    let stamp = target._withUnsafeGuaranteedRef { $0.nextStamp() }
    enqueue(
      QueuedEvent(
        kind: .value, event: .next, hop: .direct, thread: context.number,
        delivery: UInt64(truncatingIfNeeded: stamp), from: from, to: to, cause: cause,
        time: key, cell: target),
      payload: Payload(value), in: context)
  }

  /// The canonical id of `subject` and where its values go, from the thread's cache or, the first
  /// time this thread sends into it, from the recorder.
  @inline(__always)
  func subject(_ id: UInt64, node: () -> TraceNode, in context: ThreadContext)
    -> ThreadContext.KnownSubject
  {
    let slot = Int(truncatingIfNeeded: id) & (ThreadContext.knownSubjectSlots - 1)
    let cached = context.state.pointee.knownSubjects[slot]
    if cached.id == id { return cached }
    let node = node()
    let (canonical, values) = withState { state in state.addSubject(node, now: MonotonicClock.now) }
    // The cache is keyed by the observable's id; what it holds is its canonical node.
    let known = ThreadContext.KnownSubject(
      id: id, canonical: canonical, values: values.map { Unmanaged.passUnretained($0) })
    _ = queue(of: context)  // the lock above may have run user code that recorded elsewhere
    context.state.pointee.knownSubjects[slot] = known
    return known
  }
}

extension TraceGraph.EventKind {
  init(_ kind: TraceEventKind) {
    switch kind {
    case .next: self = .next
    case .error: self = .error
    case .completed: self = .completed
    }
  }
}
