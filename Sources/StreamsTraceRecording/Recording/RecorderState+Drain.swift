import Streams
import StreamsShims

/// The recorder state's upkeep and reading: alias trimming, draining the threads' queues, and
/// the snapshot a graph is made from.
extension RecorderState {
  /// The smallest number of aliases worth a trim.
  static let aliasTrimThreshold = 1024

  /// Forgets the aliases nothing names any more, once there are ``aliasTrimLevel`` of them (so
  /// trimming costs O(1) amortized per merge). Called at the end of ``drain()``, with every queue
  /// drained. It keeps the ids of live records (node and subscriber), of the ring's deliveries, of
  /// provisional nodes, of every node's upstreams, the keys of the terminals' live subscriptions,
  /// and every alias added since the previous trim, which may still be on a thread's stack, in a
  /// thread's queue or in work a scheduler has not run yet. A forgotten id's values object is
  /// released by the next trim: a thread delivering to a subscription that ended meanwhile may
  /// still queue an event that points at it, and the next drain takes that event in first. An id
  /// named after its alias is gone reads as itself (an edge to an id with no node), which needs
  /// an id merged two trims ago and still held outside a live subscription.
  mutating func trimAliases() {
    guard aliases.count >= aliasTrimLevel else { return }
    var named = Set<UInt64>()
    for record in records.values {
      named.insert(record.node)
      named.insert(record.subscriber)
    }
    // Every entry the rings hold, not only the newest `recentDeliveries` (a superset is
    // enough, and needs no merge or sort under the lock).
    for position in ring.positions {
      named.insert(ring[position].from)
      named.insert(ring[position].to)
    }
    for queue in queues {
      queue.sends.readEach { entry in
        named.insert(entry.from)
        named.insert(entry.to)
      }
    }
    named.formUnion(provisional)
    for node in nodes.values {
      named.formUnion(node.upstreams)
      named.formUnion(node.controlUpstreams)
    }
    named.formUnion(madeByTerminal.keys)
    var kept: [UInt64: UInt64] = [:]
    var retired: [NodeValues] = []
    for (old, new) in aliases {
      if youngAliases.contains(old) || named.contains(old) {
        kept[old] = new
      } else if let forgotten = values.removeValue(forKey: old) {
        retired.append(forgotten)
      }
    }
    aliases = kept
    aliasTrimLevel = Swift.max(Self.aliasTrimThreshold, 2 * kept.count)
    youngAliases = []
    // Releasing them here runs no user code: a values object holds ``TraceValue``s.
    retiredValues = retired
  }

  /// Takes in what the threads queued since the last drain.
  mutating func drain() {
    var index = 0
    while index < queues.count {
      let queue = queues[index]
      queue.drain { apply($0, $1) }
      if queue.isAbandoned {
        // The owner is gone: drain once more for what it pushed before saying so.
        queue.drain { apply($0, $1) }
        retireSends(of: queue)
        queues.remove(at: index)
      } else {
        index += 1
      }
    }
    trimAliases()
  }

  /// Forgets the queues whose threads are gone or moved on and that hold nothing more, keeping
  /// their root sends.
  mutating func forgetAbandonedQueues() {
    var index = 0
    while index < queues.count {
      let queue = queues[index]
      if queue.isAbandoned && queue.isEmpty {
        retireSends(of: queue)
        queues.remove(at: index)
      } else {
        index += 1
      }
    }
  }

  /// Takes the root sends of `queue`, whose thread no longer writes them, into the ring: the ring
  /// keeps the newest `recentDeliveries` of its entries and of these, by id.
  private mutating func retireSends(of queue: EventQueue) {
    var sends: [RingEntry] = []
    queue.sends.readEach { sends.append($0) }
    guard !sends.isEmpty, ring.capacity > 0 else { return }
    var merged: [(entry: RingEntry, text: TraceValue?)] = ring.positions.map {
      (ring[$0], ringTexts[$0])
    }
    merged.append(contentsOf: sends.map { ($0, nil) })
    merged.sort { $0.entry.id < $1.entry.id }
    ring.removeAll()
    ringTexts = [:]
    for (entry, text) in merged.suffix(ring.capacity) {
      let position = ring.append(entry)
      if let text { ringTexts[position] = text }
    }
  }

  /// The recent deliveries, oldest first by id: the newest `recentDeliveries` of the ring's (with
  /// the text kept beside each, if any) and of the threads' root sends (``SeqlockRing``).
  func recentDeliveries() -> [(entry: RingEntry, text: TraceValue?)] {
    var merged: [(entry: RingEntry, text: TraceValue?)] = ring.positions.map {
      (ring[$0], ringTexts[$0])
    }
    for queue in queues {
      queue.sends.readEach { merged.append(($0, nil)) }
    }
    merged.sort { $0.entry.id < $1.entry.id }
    guard merged.count > ring.capacity else { return merged }
    return Array(merged.suffix(ring.capacity))
  }

  /// Takes in one queued event and its value (moved out of the queue here).
  private mutating func apply(_ event: QueuedEvent, _ queued: UnsafeMutablePointer<Payload>?) {
    // An element is kept by its node, by the ring, or dropped; dropping one under the lock runs
    // no user code (a ``TraceValue`` holds plain bytes or a string).
    if event.kind == .value {
      // A string or a description for the node's values, with the stamp it was delivered with
      // (a new one if the node was merged since).
      guard let queued else { return }
      let value = queued.move().value
      guard let cell = event.cell else { return }
      cell._withUnsafeGuaranteedRef { values in
        let target = values.target
        let stamp = target === values ? Int(truncatingIfNeeded: event.delivery) : target.nextStamp()
        target.remember(text: value, stamp: stamp, key: event.time)
      }
      return
    }
    if configuration.recentDeliveries > 0 {
      let position = record(event)
      if let queued {
        ringTexts[position] = queued.move().value
      } else if !ringTexts.isEmpty {
        ringTexts[position] = nil
      }
    } else if let queued {
      queued.deinitialize(count: 1)
    }
    if event.kind == .send, event.from != 0 {
      update(
        EdgeKey(from: canonicalID(event.from), to: canonicalID(event.to), kind: .chain),
        now: event.time
      ) { $0.count += 1 }
    }
  }

  /// Puts a send or a delivery in the ring, with its plain element if it has one; returns its
  /// position. A string or description kept at that position from before is the caller's to
  /// replace.
  private mutating func record(_ event: QueuedEvent) -> Int {
    ring.append(event.entry)
  }

  mutating func update(
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
    // Threads' queues are drained one after another, so times may come out of order.
    edge.firstTime = Swift.min(edge.firstTime, now)
    edge.lastTime = Swift.max(edge.lastTime, now)
    edges[key] = edge
  }

  /// The owners of the live subscriptions, by subscription id, to check outside the lock.
  var ownersToCheck: [UInt64: WeakOwner] { liveOwners }

  /// The graph as plain data, with the elements still to describe (after unlocking: a
  /// `description` is user code) and the owners not checked yet.
  func snapshot() -> Snapshot {
    var nodes = self.nodes
    var edges = self.edges
    // Live subscriptions' counters, as if they ended now.
    for record in records.values {
      let events = record.events
      guard events.count > 0 else { continue }
      let node = canonicalID(record.node)
      let subscriber = canonicalID(record.subscriber)
      nodes[node]?.eventCount += events.count
      guard subscriber != 0 else { continue }
      let key = EdgeKey(from: node, to: subscriber, kind: .emission)
      var edge =
        edges[key]
        ?? TraceGraph.Edge(
          from: node, to: subscriber, kind: .emission, firstTime: events.first,
          lastTime: events.last)
      edge.count += events.count
      edge.firstTime = Swift.min(edge.firstTime, events.first)
      edge.lastTime = Swift.max(edge.lastTime, events.last)
      edges[key] = edge
    }
    // Whether owners are gone is asked after unlocking (see `TraceRecorder.graph`): loading a
    // weak reference makes a strong one for a moment, whose release may run a `deinit`.
    let subscriptions = live.values.sorted { $0.id < $1.id }
    let recent = recentDeliveries()
    let labels = HopLabels.shared.names
    let sortedNodes = nodes.values.sorted { $0.id < $1.id }
    // The rings of the subscriptions reporting values now, by the values object they report
    // into.
    var rings: [ObjectIdentifier: [SeqlockRing]] = [:]
    for record in records.values.sorted(by: { $0.id < $1.id }) {
      guard let values = record.values, let ring = record.claimedRing else { continue }
      rings[ObjectIdentifier(values.target), default: []].append(ring)
    }
    let nodeValues = sortedNodes.map { node -> [TraceValue] in
      guard let target = values[node.id]?.target else { return [] }
      return target.ordered(with: rings[ObjectIdentifier(target)] ?? [])
    }
    return Snapshot(
      graph: TraceGraph(
        nodes: sortedNodes,
        edges: edges.values.sorted {
          ($0.from, $0.to, $0.kind.rawValue) < ($1.from, $1.to, $1.kind.rawValue)
        },
        subscriptions: subscriptions,
        deliveries: recent.map { entry, _ in
          TraceGraph.Delivery(
            id: entry.id, from: canonicalID(entry.from == 0 ? entry.to : entry.from),
            to: canonicalID(entry.to),
            event: entry.event, cause: entry.cause == 0 ? nil : entry.cause, hop: entry.hop.hop,
            thread: entry.thread, time: entry.time,
            queue: HopLabels.label(entry.hop.label, in: labels))
        }),
      nodeValues: nodeValues,
      deliveryValues: configuration.recentValues == 0
        ? []
        : recent.map { entry, text in
          guard entry.valueType != 0 else { return text }
          return TraceValue(
            plainType: unsafeBitCast(entry.valueType, to: Any.Type.self),
            words: (entry.first, entry.second))
        })
  }

  /// A graph whose elements are not described yet.
  struct Snapshot {
    var graph: TraceGraph
    /// Each node's values, in the order of `graph.nodes`.
    var nodeValues: [[TraceValue]]
    /// Each delivery's element, in the order of `graph.deliveries`.
    var deliveryValues: [TraceValue?]

    /// The graph with every element described.
    func described() -> TraceGraph {
      var graph = self.graph
      for index in graph.nodes.indices {
        graph.nodes[index].recentValues = nodeValues[index].map(\.description)
      }
      for index in deliveryValues.indices {
        graph.deliveries[index].value = deliveryValues[index].map(\.description)
      }
      return graph
    }
  }

  /// The owner a file names by convention: `App/TopViewModel.swift` → `TopViewModel`.
  package static func ownerFromFile(_ file: String) -> String? {
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
