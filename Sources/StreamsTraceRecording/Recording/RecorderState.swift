import Streams
import StreamsShims

/// The recorder's state, guarded by its lock.
///
/// Nodes are canonical: two observables made by the same call site, of the same kind, over the
/// same (canonical) upstreams are one node, so that a pipeline rebuilt for every element (an
/// inner `just` of `flatMap`, a request per tap) or every screen does not grow the graph.
/// Subscriptions are announced downstream first, before a node's upstreams are known; so a node
/// is provisional until its own subscription has subscribed its upstreams, and is then either
/// kept as the canonical node of its shape or merged into the one already there (its edges,
/// counters and live subscriptions move there). The map from a merged id to its canonical node
/// gains one entry per merged node (one per subscription of a rebuilt pipeline, not per event), so
/// a merge trims it now and then (``trimAliases()``): it keeps the ids that live records, the
/// delivery ring, provisional nodes and nodes' upstreams name, and every id merged since the
/// previous trim (ids still on a thread's stack, in a queue or in scheduled work). A merged
/// node's values object forwards to its canonical node's; the records that report into it hold it,
/// and the map of values forgets it with its alias. Memory is then bounded by the nodes, the edges, the live subscriptions and the rings,
/// however many pipelines a long-running app rebuilds.
///
/// What happens per event does not come here one by one: subscriptions count their own events
/// (``SubscriptionRecord``), plain values go to rings of one writer (the claiming subscription's,
/// or a subject's sending thread's; see ``NodeValues``), root sends (from
/// outside any delivery) to their thread's ``SeqlockRing``, read when the graph is read
/// (``recentDeliveries()``), and the sends made inside a delivery (chain edges), timeline
/// deliveries, strings and descriptions wait in each thread's ``EventQueue`` until a reader takes
/// the graph or the queue fills (``drain()``).
package struct RecorderState {
  let configuration: TraceConfiguration
  var nodes: [UInt64: TraceGraph.Node] = [:]
  var edges: [EdgeKey: TraceGraph.Edge] = [:]
  /// The edges at each node, to move them when the node merges.
  var edgesAt: [UInt64: Set<EdgeKey>] = [:]
  /// Live terminal subscriptions, with their owners.
  var live: [UInt64: TraceGraph.Subscription] = [:]
  var liveOwners: [UInt64: WeakOwner] = [:]
  var terminalOwners: [UInt64: WeakOwner] = [:]
  /// The live subscriptions each terminal subscriber made, by the terminal's own (first) id: a
  /// bag or an owner named later applies to them.
  var madeByTerminal: [UInt64: [UInt64]] = [:]
  /// Every live traced subscription, whose counters are added to the graph when it is read and
  /// folded into it when the subscription ends.
  var records: [UInt64: SubscriptionRecord] = [:]
  /// Each node's recent values, by observable id (merged ids forward to their canonical node's).
  var values: [UInt64: NodeValues] = [:]
  /// The full path of each `#fileID` that a subject or relay recorded (see `SourceNames`).
  var sourcePaths: [String: String] = [:]
  /// Observable id → canonical node id.
  var aliases: [UInt64: UInt64] = [:]
  /// The number of aliases at which the next merge drains the queues and trims: twice as many as
  /// the last trim kept, and at least ``aliasTrimThreshold``.
  var aliasTrimLevel = Self.aliasTrimThreshold
  /// The values objects of the aliases the last trim forgot: queued events still refer to them
  /// (unretained) until every queue has been drained once more, so the next trim releases them.
  var retiredValues: [NodeValues] = []
  /// The ids merged since the last trim, which it keeps.
  var youngAliases: Set<UInt64> = []
  /// Structure → canonical node id.
  var canonical: [NodeShape: UInt64] = [:]
  /// Nodes whose upstreams are not all known yet.
  var provisional: Set<UInt64> = []
  let ring: DeliveryRing
  /// The strings and descriptions of the deliveries in `ring`, by position (a plain element is
  /// in its entry).
  var ringTexts: [Int: TraceValue] = [:]
  var nextSubscription: UInt64 = 1
  /// The threads' queues of what they recorded without the lock.
  var queues: [EventQueue] = []

  init(configuration: TraceConfiguration) {
    self.configuration = configuration
    ring = DeliveryRing(capacity: configuration.recentDeliveries)
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
    if let path = node.path { sourcePaths[node.file] = path }
    nodes[node.id] = TraceGraph.Node(
      id: node.id, kind: node.kind, role: TraceGraph.Role(node.role), file: node.file,
      line: node.line, owner: owner ?? Self.ownerFromFile(node.file),
      upstreams: node.dataUpstreams, controlUpstreams: node.controlUpstreams)
    if configuration.recentValues > 0 {
      values[node.id] = NodeValues(limit: configuration.recentValues)
    }
    if node.upstreams.isEmpty { return canonicalize(node.id) }
    provisional.insert(node.id)
    return node.id
  }

  /// Records the subject `node` if it is new; returns its canonical id and where its values go.
  mutating func addSubject(_ node: TraceNode, now: UInt64) -> (UInt64, NodeValues?) {
    let id = addNode(node, owner: nil, now: now)
    return (id, values[id]?.target)
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
    if let oldValues = values[old], let newValues = values[new]?.target {
      oldValues.forward(to: newValues)
    }
    for key in edgesAt.removeValue(forKey: old) ?? [] {
      guard let edge = edges.removeValue(forKey: key) else { continue }
      let other = key.from == old ? key.to : key.from
      edgesAt[other]?.remove(key)
      let from = key.from == old ? new : key.from
      let to = key.to == old ? new : key.to
      add(edge, as: EdgeKey(from: from, to: to, kind: key.kind))
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
    aliases[old] = new
    youngAliases.insert(old)
    if aliases.count >= aliasTrimLevel { drain() }
  }

  /// Adds `edge`'s counters to the edge at `key`.
  private mutating func add(_ edge: TraceGraph.Edge, as key: EdgeKey) {
    let previousLast = edges[key]?.lastTime ?? 0
    update(key, now: edge.firstTime) { merged in
      merged.count += edge.count
      merged.live += edge.live
      merged.firstTime = Swift.min(merged.firstTime, edge.firstTime)
    }
    edges[key]?.lastTime = Swift.max(edge.lastTime, previousLast)
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
        madeByTerminal[subscriberID, default: []].append(id)
      }
    }
    // A subject's values are recorded where they are sent, once for all its subscribers.
    let reportsValues = nodes[nodeID].map { $0.role != .subject } ?? false
    let record = SubscriptionRecord(
      id: id, node: nodeID, subscriber: subscriberID, kind: kind,
      values: reportsValues ? values[nodeID] : nil)
    records[id] = record
    return record
  }

  /// Records the end of a subscription: its counters join the graph's.
  mutating func end(_ record: SubscriptionRecord) {
    guard records.removeValue(forKey: record.id) != nil else { return }
    let node = canonicalID(record.node)
    let subscriber = canonicalID(record.subscriber)
    let events = record.events
    nodes[node]?.eventCount += events.count
    if subscriber != 0 {
      let key = EdgeKey(from: node, to: subscriber, kind: record.kind)
      if var edge = edges[key], edge.live > 0 {
        edge.live -= 1
        edges[key] = edge
      }
      if events.count > 0 {
        add(
          TraceGraph.Edge(
            from: node, to: subscriber, kind: .emission, count: events.count,
            firstTime: events.first, lastTime: events.last),
          as: EdgeKey(from: node, to: subscriber, kind: .emission))
      }
    }
    if let values = record.values {
      // The claimant's values join its node's before another subscription can claim it.
      if let ring = record.endClaim() { values.target.fold(ring) }
      values.release(by: record.id)
    }
    if live.removeValue(forKey: record.id) != nil,
      var made = madeByTerminal.removeValue(forKey: record.subscriber)
    {
      made.removeAll { $0 == record.id }
      if !made.isEmpty { madeByTerminal[record.subscriber] = made }
    }
    liveOwners[record.id] = nil
  }

  /// Records that the live subscriptions of the terminal subscriber first recorded as
  /// `terminal` are kept in a bag made at `file`:`line`, held by the type that file names. Their
  /// owner stays what it was (a `with:` object, the type the subscribe call's file names): a bag
  /// declared in a base class, or a library's bag, would name the wrong type.
  mutating func park(terminal: UInt64, inBagMadeAt file: String, line: UInt) {
    let bag = TraceGraph.Bag(file: file, line: line, owner: Self.ownerFromFile(file))
    for id in madeByTerminal[terminal] ?? [] {
      live[id]?.bag = bag
    }
  }

  /// Records that `owner` owns the live subscriptions of the terminal subscriber first recorded
  /// as `terminal`: they are leaks if they outlive it.
  mutating func own(terminal: UInt64, by owner: AnyObject) {
    let name = String(describing: type(of: owner))
    let weak = WeakOwner(owner)
    for id in madeByTerminal[terminal] ?? [] where live[id] != nil {
      live[id]?.owner = name
      liveOwners[id] = weak
    }
    nodes[canonicalID(terminal)]?.owner = name
  }
}
