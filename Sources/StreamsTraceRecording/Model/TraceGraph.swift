/// A recorded trace: the who-emits-to-whom graph of an app's observables and subscribers, the
/// live subscriptions with their owners, and the recent deliveries with their causes.
///
/// A `TraceGraph` is plain data. The recorder builds one (``TraceRecorder/graph``), ``dump()``
/// writes it as versioned JSON and `init(dump:)` (StreamsTrace) reads it back; the queries work on it, so a
/// trace recorded on a device can be examined anywhere.
///
/// Its size is bounded by the graph, not by the run's length: nodes, edges with counters, the
/// live subscriptions, and bounded rings of recent values and deliveries.
public struct TraceGraph: Sendable, Equatable {
  /// The dump format's version this value was made for.
  public static let formatVersion = 1

  /// Every node seen, by ascending id.
  public var nodes: [Node]
  /// Every edge seen, by (from, to, kind).
  public var edges: [Edge]
  /// The subscriptions still live when the graph was taken.
  public var subscriptions: [Subscription]
  /// The most recent deliveries, oldest first (a bounded ring; see ``TraceConfiguration``).
  public var deliveries: [Delivery]
  /// Where the graph comes from: a run, or the static map of an app's source.
  public var origin: Origin = .recorded

  /// Where a graph comes from (the dump's optional `origin` key).
  public enum Origin: String, Sendable, CaseIterable {
    /// Recorded while the app ran (``TraceRecorder``).
    case recorded
    /// Read from the app's source by `streams-trace map`: who subscribes to whom and who sends
    /// into what, as the code is written; no events, counts of places rather than of events, no
    /// deliveries.
    case `static`
  }

  /// A graph of the given parts.
  public init(
    nodes: [Node] = [], edges: [Edge] = [], subscriptions: [Subscription] = [],
    deliveries: [Delivery] = []
  ) {
    self.nodes = nodes
    self.edges = edges
    self.subscriptions = subscriptions
    self.deliveries = deliveries
  }
}

extension TraceGraph {
  /// What a node is.
  public enum Role: String, Sendable, CaseIterable {
    /// Creates elements: `just`, `interval`, `create`, a bridge from an `AsyncSequence`, a cell.
    case source
    /// Transforms what it subscribes to: `map`, `flatMap`, `debounce`, `share`, ...
    case `operator`
    /// A subject or relay: anyone may send it elements.
    case subject
    /// The end of a chain: `subscribe(onNext:)`, `bind(to:)`, `drive`, `emit`, `values`, a state
    /// binding.
    case terminal
  }

  /// One node of the graph: an observable, a subject or relay, or a terminal subscriber.
  public struct Node: Sendable, Equatable {
    /// Unique within one trace.
    public var id: UInt64
    /// The operator, source or subscriber name: `"map"`, `"PublishSubject"`, `"subscribe"`.
    public var kind: String
    /// What the node is.
    public var role: Role
    /// The file (`#fileID`) of the call that made the node.
    public var file: String
    /// The line of that call.
    public var line: UInt
    /// The type that owns the node: the object that created a subject, or that owns a terminal
    /// subscriber (its `DisposeBag`, its `with:` object, or an explicit annotation); `nil` when
    /// unknown.
    public var owner: String?
    /// A name given to the node (a subject's property name, `UIState.contentAlpha`), if any.
    public var name: String?
    /// The nodes this one subscribes to for its elements.
    public var upstreams: [UInt64]
    /// The nodes this one subscribes to for control only (`take(until:)`'s trigger, `sample`'s
    /// sampler, `withLatestFrom`'s second source, `skip(until:)`'s trigger).
    public var controlUpstreams: [UInt64]
    /// Subscriptions made to this node, ever.
    public var subscriptionCount: Int
    /// Events this node emitted (delivered to its subscribers, counted once per subscriber).
    public var eventCount: Int
    /// The descriptions of the node's most recent elements, oldest first; empty when values are
    /// not recorded. A subject's are in the order the sends began; an operator's, when several
    /// subscriptions delivered them (a pipeline rebuilt at one call site), are ordered by when
    /// the outermost delivery behind each began, at the clock's tick (see `Guides/Tracing.md`).
    public var recentValues: [String]

    /// A node with the given fields.
    public init(
      id: UInt64, kind: String, role: Role, file: String, line: UInt, owner: String? = nil,
      name: String? = nil, upstreams: [UInt64] = [], controlUpstreams: [UInt64] = [],
      subscriptionCount: Int = 0, eventCount: Int = 0, recentValues: [String] = []
    ) {
      self.id = id
      self.kind = kind
      self.role = role
      self.file = file
      self.line = line
      self.owner = owner
      self.name = name
      self.upstreams = upstreams
      self.controlUpstreams = controlUpstreams
      self.subscriptionCount = subscriptionCount
      self.eventCount = eventCount
      self.recentValues = recentValues
    }

    /// The key that identifies this node across runs of the same code: call site, kind and owner
    /// (ids differ from run to run; keys do not).
    public var stableKey: String {
      "\(file):\(line):\(kind)" + (owner.map { ":\($0)" } ?? "")
    }
  }

  /// What an edge stands for.
  public enum EdgeKind: String, Sendable, CaseIterable {
    /// `to` subscribes to `from` for its elements; ``Edge/live`` is how many such subscriptions
    /// are live.
    case subscription
    /// `from` delivered events to `to`; ``Edge/count`` counts them.
    case emission
    /// `to` subscribes to `from` for control only (a trigger, a sampler, a timer).
    case control
    /// Code running inside a delivery to `from` sent an element into the subject or relay `to`:
    /// the cross-file chain.
    case chain
  }

  /// An edge between two nodes, with its counters.
  public struct Edge: Sendable, Equatable {
    /// Where elements come from.
    public var from: UInt64
    /// Where they go.
    public var to: UInt64
    /// What the edge stands for.
    public var kind: EdgeKind
    /// Events (emission, chain) or subscriptions ever made (subscription, control).
    public var count: Int
    /// Live subscriptions (subscription and control edges); 0 for the others.
    public var live: Int
    /// When the edge was first and last used, in nanoseconds of the recorder's clock.
    public var firstTime: UInt64
    public var lastTime: UInt64

    /// An edge with the given fields.
    public init(
      from: UInt64, to: UInt64, kind: EdgeKind, count: Int = 0, live: Int = 0,
      firstTime: UInt64 = 0, lastTime: UInt64 = 0
    ) {
      self.from = from
      self.to = to
      self.kind = kind
      self.count = count
      self.live = live
      self.firstTime = firstTime
      self.lastTime = lastTime
    }
  }

  /// A live subscription of a terminal subscriber (`subscribe(onNext:)`, `bind(to:)`, ...), with
  /// its owner.
  public struct Subscription: Sendable, Equatable {
    /// Unique within one trace.
    public var id: UInt64
    /// The node subscribed to.
    public var node: UInt64
    /// The subscriber node (a terminal or an operator).
    public var subscriber: UInt64
    /// The owner's type, if known.
    public var owner: String?
    /// `true` when the owner was deallocated while the subscription was still live: a leak.
    public var ownerGone: Bool
    /// Where the subscription was made (`#fileID`, `#line`).
    public var file: String
    public var line: UInt
    /// The `DisposeBag` that keeps the subscription, if it went into one.
    public var bag: Bag?

    /// A subscription with the given fields.
    public init(
      id: UInt64, node: UInt64, subscriber: UInt64, owner: String? = nil, ownerGone: Bool = false,
      file: String, line: UInt, bag: Bag? = nil
    ) {
      self.id = id
      self.node = node
      self.subscriber = subscriber
      self.owner = owner
      self.ownerGone = ownerGone
      self.file = file
      self.line = line
      self.bag = bag
    }
  }

  /// A `DisposeBag` that keeps a subscription: where it was made, and the type that file names.
  public struct Bag: Sendable, Equatable {
    /// The file (`#fileID`) of the call that made the bag.
    public var file: String
    /// The line of that call.
    public var line: UInt
    /// The type that owns the bag, named by its file (`App/Analytics.swift` → `Analytics`).
    public var owner: String?

    /// A bag with the given fields.
    public init(file: String, line: UInt, owner: String? = nil) {
      self.file = file
      self.line = line
      self.owner = owner
    }
  }

  /// What one delivery carried.
  public enum EventKind: String, Sendable, CaseIterable {
    case next, error, completed
  }

  /// How a delivery's cause reached it.
  public enum Hop: String, Sendable, CaseIterable {
    /// On the same thread, during the cause's delivery.
    case direct
    /// Through a scheduler (`observe(on:)`, `delay`, `debounce`, `subscribe(on:)`, a binding's hop
    /// to the main queue).
    case scheduler
    /// Into a `Task` started by a bridge.
    case task
  }

  /// One delivery of an event from a node to a subscriber, with the delivery that caused it.
  public struct Delivery: Sendable, Equatable {
    /// Unique within one trace, increasing with time.
    public var id: UInt64
    /// The node that emitted.
    public var from: UInt64
    /// The node that received (a downstream operator or a terminal subscriber; the subject, for
    /// an element sent into a subject).
    public var to: UInt64
    /// What was delivered.
    public var event: EventKind
    /// The delivery during which this one happened (or which scheduled it); `nil` for a root
    /// event, such as a user action sending into a subject.
    public var cause: UInt64?
    /// How the cause reached this delivery.
    public var hop: Hop
    /// After a hop, where the work went, as the tracer names it: `main queue`, `queue
    /// com.app.search` (a dispatch queue's label), `TestScheduler`, `Task`; `nil` for a direct
    /// delivery, or a hop through a scheduler that does not say.
    public var queue: String?
    /// A small number naming the thread it ran on (1 is the first thread seen).
    public var thread: UInt32
    /// When, in nanoseconds of the recorder's clock.
    public var time: UInt64
    /// The element's description, when values are recorded.
    public var value: String?

    /// A delivery with the given fields.
    public init(
      id: UInt64, from: UInt64, to: UInt64, event: EventKind, cause: UInt64? = nil,
      hop: Hop = .direct, thread: UInt32 = 1, time: UInt64 = 0, queue: String? = nil,
      value: String? = nil
    ) {
      self.id = id
      self.from = from
      self.to = to
      self.event = event
      self.cause = cause
      self.hop = hop
      self.thread = thread
      self.time = time
      self.queue = queue
      self.value = value
    }
  }
}
