@_spi(StreamsInternal) import Streams

/// One subscription as the recorder tracks it: which node, which subscriber, which edge.
struct SubscriptionRecord: Sendable {
  let id: UInt64
  /// The (canonical) node subscribed to.
  let node: UInt64
  /// The (canonical) subscriber; 0 when unknown.
  let subscriber: UInt64
  /// `.subscription` or `.control`.
  let kind: TraceGraph.EdgeKind
}

/// An object held weakly, to tell whether an owner is gone.
///
/// `@unchecked Sendable`: its one field is an immutable weak reference, and loading a weak
/// reference is atomic.
final class WeakOwner: @unchecked Sendable {
  weak let object: AnyObject?

  init(_ object: AnyObject) {
    self.object = object
  }
}

/// The recorder's state, guarded by its lock.
///
/// Nodes are canonical: two observables made by the same call site, of the same kind, over the
/// same (canonical) upstreams are one node, so that a pipeline rebuilt for every element (an
/// inner `just` of `flatMap`, a request per tap) or every screen does not grow the graph.
/// Subscriptions are announced downstream first, before a node's upstreams are known; so a node
/// is provisional until its own subscription has subscribed its upstreams, and is then either
/// kept as the canonical node of its shape or merged into the one already there (its edges,
/// counters and live subscriptions move there). The map from a merged id to its canonical node
/// grows by one entry per merged node (one per subscription of a rebuilt pipeline, not per event);
/// live records and the delivery ring refer to those ids, so it is never trimmed.
struct RecorderState {
  let configuration: TraceConfiguration
  var nodes: [UInt64: TraceGraph.Node] = [:]
  var edges: [EdgeKey: TraceGraph.Edge] = [:]
  /// The edges at each node, to move them when the node merges.
  var edgesAt: [UInt64: Set<EdgeKey>] = [:]
  var live: [UInt64: TraceGraph.Subscription] = [:]
  var liveOwners: [UInt64: WeakOwner] = [:]
  var terminalOwners: [UInt64: WeakOwner] = [:]
  /// Observable id → canonical node id.
  var aliases: [UInt64: UInt64] = [:]
  /// Structure → canonical node id.
  var canonical: [NodeShape: UInt64] = [:]
  /// Nodes whose upstreams are not all known yet.
  var provisional: Set<UInt64> = []
  /// The cause of the element each node remembered last (see ``recordDelivery``).
  var lastValueCause: [UInt64: UInt64?] = [:]
  var deliveries: [TraceGraph.Delivery] = []
  /// Where the next delivery goes once the ring is full.
  var deliveryHead = 0
  var nextDelivery: UInt64 = 1
  var nextSubscription: UInt64 = 1

  init(configuration: TraceConfiguration) {
    self.configuration = configuration
  }

  struct EdgeKey: Hashable {
    let from: UInt64
    let to: UInt64
    let kind: TraceGraph.EdgeKind
  }

  struct NodeShape: Hashable {
    let kind: String
    let file: String
    let line: UInt
    let upstreams: [UInt64]
  }

  /// The canonical id of an observable already seen (or the id itself).
  func canonicalID(_ id: UInt64) -> UInt64 { aliases[id] ?? id }

  /// Records `node` if it is new; returns its current id (canonical, or provisional until its
  /// upstreams are known).
  @discardableResult
  mutating func addNode(_ node: TraceNode, owner: String?, now: UInt64) -> UInt64 {
    if let known = aliases[node.id] { return known }
    if nodes[node.id] != nil { return node.id }
    nodes[node.id] = TraceGraph.Node(
      id: node.id, kind: node.kind, role: TraceGraph.Role(node.role), file: node.file,
      line: node.line, owner: owner ?? Self.ownerFromFile(node.file),
      upstreams: node.dataUpstreams, controlUpstreams: node.controlUpstreams)
    if node.upstreams.isEmpty { return canonicalize(node.id) }
    provisional.insert(node.id)
    return node.id
  }

  /// Makes a provisional node canonical now that its upstreams are known, or merges it into the
  /// node of the same shape; returns the id it ends up with.
  @discardableResult
  mutating func canonicalize(_ id: UInt64) -> UInt64 {
    let id = canonicalID(id)
    guard var node = nodes[id] else { return id }
    provisional.remove(id)
    node.upstreams = node.upstreams.map(canonicalID)
    node.controlUpstreams = node.controlUpstreams.map(canonicalID)
    nodes[id] = node
    let shape = NodeShape(
      kind: node.kind, file: node.file, line: node.line,
      upstreams: node.upstreams + [0] + node.controlUpstreams)
    guard let existing = canonical[shape], existing != id, nodes[existing] != nil else {
      canonical[shape] = id
      return id
    }
    merge(id, into: existing)
    return existing
  }

  /// Moves everything recorded for node `old` to node `new`, and forgets `old`.
  private mutating func merge(_ old: UInt64, into new: UInt64) {
    guard let merged = nodes.removeValue(forKey: old) else { return }
    nodes[new]?.subscriptionCount += merged.subscriptionCount
    nodes[new]?.eventCount += merged.eventCount
    for value in merged.recentValues { remember(value, for: new) }
    for key in edgesAt.removeValue(forKey: old) ?? [] {
      guard let edge = edges.removeValue(forKey: key) else { continue }
      let other = key.from == old ? key.to : key.from
      edgesAt[other]?.remove(key)
      let from = key.from == old ? new : key.from
      let to = key.to == old ? new : key.to
      let target = EdgeKey(from: from, to: to, kind: key.kind)
      let previousLast = edges[target]?.lastTime ?? 0
      update(target, now: edge.firstTime) { merged in
        merged.count += edge.count
        merged.live += edge.live
        merged.firstTime = Swift.min(merged.firstTime, edge.firstTime)
      }
      edges[target]?.lastTime = Swift.max(edge.lastTime, previousLast)
    }
    for (id, subscription) in live where subscription.node == old || subscription.subscriber == old
    {
      var moved = subscription
      if moved.node == old { moved.node = new }
      if moved.subscriber == old { moved.subscriber = new }
      live[id] = moved
    }
    if let owner = terminalOwners.removeValue(forKey: old), terminalOwners[new] == nil {
      terminalOwners[new] = owner
    }
    lastValueCause[old] = nil
    aliases[old] = new
  }

  /// Records a terminal subscriber; returns its canonical id.
  mutating func addTerminal(
    _ node: TraceNode, owner: String?, ownerObject: AnyObject?, now: UInt64
  ) -> UInt64 {
    let id = addNode(node, owner: owner, now: now)
    if let ownerObject { terminalOwners[id] = WeakOwner(ownerObject) }
    return id
  }

  /// Records that `subscriber` subscribes to `node`.
  mutating func subscribe(_ node: TraceNode, by subscriber: UInt64, now: UInt64)
    -> SubscriptionRecord
  {
    let nodeID = addNode(node, owner: nil, now: now)
    let subscriberID = canonicalID(subscriber)
    nodes[nodeID]?.subscriptionCount += 1
    let controlUpstreams = nodes[subscriberID]?.controlUpstreams ?? []
    let isControl =
      controlUpstreams.contains(nodeID) || controlUpstreams.contains(node.id)
    let kind: TraceGraph.EdgeKind = isControl ? .control : .subscription
    let id = nextSubscription
    nextSubscription += 1
    if subscriberID != 0 {
      update(EdgeKey(from: nodeID, to: subscriberID, kind: kind), now: now) { edge in
        edge.count += 1
        edge.live += 1
      }
      if let terminal = nodes[subscriberID], terminal.role == .terminal {
        live[id] = TraceGraph.Subscription(
          id: id, node: nodeID, subscriber: subscriberID, owner: terminal.owner,
          file: terminal.file, line: terminal.line)
        if let owner = terminalOwners[subscriberID] { liveOwners[id] = owner }
      }
    }
    return SubscriptionRecord(id: id, node: nodeID, subscriber: subscriberID, kind: kind)
  }

  /// Records the end of a subscription.
  mutating func end(_ record: SubscriptionRecord) {
    if record.subscriber != 0 {
      let key = EdgeKey(
        from: canonicalID(record.node), to: canonicalID(record.subscriber), kind: record.kind)
      if var edge = edges[key], edge.live > 0 {
        edge.live -= 1
        edges[key] = edge
      }
    }
    live[record.id] = nil
    liveOwners[record.id] = nil
  }

  /// Records one delivery of a subscription; returns its id.
  mutating func recordDelivery(
    _ event: TraceGraph.EventKind, record: SubscriptionRecord, cause: UInt64?,
    hop: TraceGraph.Hop, thread: UInt32, now: UInt64, value: String?
  ) -> UInt64 {
    let node = canonicalID(record.node)
    let subscriber = canonicalID(record.subscriber)
    nodes[node]?.eventCount += 1
    // One element reaches every subscriber of the node with the same cause: remember it once.
    if event == .next, let value, cause == nil || lastValueCause[node] != cause {
      remember(value, for: node)
      lastValueCause[node] = cause
    }
    if subscriber != 0 {
      update(EdgeKey(from: node, to: subscriber, kind: .emission), now: now) {
        $0.count += 1
      }
    }
    return append(
      from: node, to: subscriber, event: event, cause: cause, hop: hop,
      thread: thread, now: now, value: value)
  }

  /// Records an event sent into a subject, and the chain edge from its sender; returns the
  /// delivery's id.
  mutating func recordSend(
    _ event: TraceGraph.EventKind, into subject: UInt64, from sender: UInt64?, cause: UInt64?,
    hop: TraceGraph.Hop, thread: UInt32, now: UInt64, value: String?
  ) -> UInt64 {
    let senderID = sender.map(canonicalID)
    if let senderID {
      update(EdgeKey(from: senderID, to: subject, kind: .chain), now: now) { $0.count += 1 }
    }
    return append(
      from: senderID ?? subject, to: subject, event: event, cause: cause, hop: hop,
      thread: thread, now: now, value: value)
  }

  private mutating func remember(_ value: String, for node: UInt64) {
    let limit = configuration.recentValues
    guard limit > 0, var recent = nodes[node]?.recentValues else { return }
    nodes[node]?.recentValues = []
    if recent.count >= limit { recent.removeFirst(recent.count - limit + 1) }
    recent.append(value)
    nodes[node]?.recentValues = recent
  }

  private mutating func append(
    from: UInt64, to: UInt64, event: TraceGraph.EventKind, cause: UInt64?,
    hop: TraceGraph.Hop, thread: UInt32, now: UInt64, value: String?
  ) -> UInt64 {
    let id = nextDelivery
    nextDelivery += 1
    let limit = configuration.recentDeliveries
    guard limit > 0 else { return id }
    let delivery = TraceGraph.Delivery(
      id: id, from: from, to: to, event: event, cause: cause, hop: hop, thread: thread, time: now,
      value: configuration.recentValues > 0 ? value : nil)
    if deliveries.count < limit {
      deliveries.append(delivery)
    } else {
      deliveries[deliveryHead] = delivery
      deliveryHead = (deliveryHead + 1) % limit
    }
    return id
  }

  private mutating func update(
    _ key: EdgeKey, now: UInt64, _ change: (inout TraceGraph.Edge) -> Void
  ) {
    var edge: TraceGraph.Edge
    if let existing = edges[key] {
      edge = existing
    } else {
      edge = TraceGraph.Edge(from: key.from, to: key.to, kind: key.kind, firstTime: now)
      edgesAt[key.from, default: []].insert(key)
      edgesAt[key.to, default: []].insert(key)
    }
    change(&edge)
    edge.lastTime = now
    edges[key] = edge
  }

  /// The owners of the live subscriptions, by subscription id, to check outside the lock.
  var ownersToCheck: [UInt64: WeakOwner] { liveOwners }

  /// The graph as plain data (owners not checked yet).
  func snapshot() -> TraceGraph {
    let orderedDeliveries =
      deliveries.count < configuration.recentDeliveries
      ? deliveries : Array(deliveries[deliveryHead...] + deliveries[..<deliveryHead])
    // Whether owners are gone is asked after unlocking (see `TraceRecorder.graph`): loading a
    // weak reference makes a strong one for a moment, whose release may run a `deinit`.
    let subscriptions = live.values.sorted { $0.id < $1.id }
    let resolved = orderedDeliveries.map { delivery in
      var delivery = delivery
      delivery.from = canonicalID(delivery.from)
      delivery.to = canonicalID(delivery.to)
      return delivery
    }
    return TraceGraph(
      nodes: nodes.values.sorted { $0.id < $1.id },
      edges: edges.values.sorted {
        ($0.from, $0.to, $0.kind.rawValue) < ($1.from, $1.to, $1.kind.rawValue)
      },
      subscriptions: subscriptions,
      deliveries: resolved)
  }

  /// The owner a file names by convention: `App/TopViewModel.swift` → `TopViewModel`.
  static func ownerFromFile(_ file: String) -> String? {
    guard let name = file.split(separator: "/").last, name.hasSuffix(".swift") else { return nil }
    let base = name.dropLast(".swift".count)
    let type = base.split(separator: "+").first.map(String.init) ?? String(base)
    return type.isEmpty ? nil : type
  }
}

extension TraceGraph.Role {
  init(_ role: TraceRole) {
    switch role {
    case .source: self = .source
    case .operator: self = .operator
    case .subject: self = .subject
    case .terminal: self = .terminal
    }
  }
}
