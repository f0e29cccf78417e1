@_spi(StreamsInternal) import Streams
import StreamsShims

/// One traced subscription as the recorder tracks it: which node, which subscriber, which edge,
/// and the counters its deliveries bump without the recorder's lock.
///
/// `@unchecked Sendable`: the identity fields are immutable; the counters are words written with
/// atomic stores by the one thread delivering at a time (the Rx grammar makes a subscription's
/// events serial) and read with atomic loads by whoever takes the graph; the ring's word is set
/// once, with a compare-and-swap, by the delivering thread (the ring) or by the recorder when the
/// subscription ends (a mark that no ring will be made).
final class SubscriptionRecord: @unchecked Sendable {
  let id: UInt64
  /// The node subscribed to (an observable id; canonical, or provisional until merged).
  let node: UInt64
  /// The subscriber (an observable id); 0 when unknown.
  let subscriber: UInt64
  /// `.subscription` or `.control`.
  let kind: TraceGraph.EdgeKind
  /// Where the node's values go, when this subscription reports them (not for subjects, whose
  /// values are recorded where they are sent).
  let values: NodeValues?
  /// `values`, for the delivering thread to use without reference counting (`values` holds it).
  let valuesRef: Unmanaged<NodeValues>?
  /// `[events, first time, last time, values ring]`: the ring is the address of a retained
  /// ``SeqlockRing``, made when this subscription claims its node's values; 0 for none yet, and
  /// ``ended`` once the subscription ended without one.
  private let counters: UnsafeMutablePointer<Int>

  /// The ring's word of a subscription that ended without a ring (no address is 1).
  private static var ended: Int { 1 }

  init(
    id: UInt64, node: UInt64, subscriber: UInt64, kind: TraceGraph.EdgeKind,
    values: NodeValues?
  ) {
    self.id = id
    self.node = node
    self.subscriber = subscriber
    self.kind = kind
    self.values = values
    valuesRef = values.map { Unmanaged.passUnretained($0) }
    counters = .allocate(capacity: 4)
    counters.initialize(repeating: 0, count: 4)
  }

  deinit {
    // Releasing the ring runs no user code (plain words).
    if counters[3] != Self.ended, let ring = UnsafeRawPointer(bitPattern: counters[3]) {
      Unmanaged<SeqlockRing>.fromOpaque(ring).release()
    }
    counters.deallocate()
  }

  /// Counts one event at `time` (called by the delivering thread only).
  @inline(__always)
  func count(at time: UInt64) {
    // The times first, then the count with a release store: a reader that sees a count sees
    // the times that go with it.
    let events = streams_atomic_load_relaxed(counters)
    if events == 0 { streams_atomic_store_relaxed(counters + 1, Int(bitPattern: UInt(time))) }
    streams_atomic_store_relaxed(counters + 2, Int(bitPattern: UInt(time)))
    streams_atomic_store_release(counters, events &+ 1)
  }

  /// Events counted so far, and the times of the first and last.
  var events: (count: Int, first: UInt64, last: UInt64) {
    let count = streams_atomic_load_acquire(counters)
    return (
      count,
      UInt64(UInt(bitPattern: streams_atomic_load_relaxed(counters + 1))),
      UInt64(UInt(bitPattern: streams_atomic_load_relaxed(counters + 2)))
    )
  }

  /// The ring this subscription keeps its node's values in, if it is the one reporting them
  /// (called by the delivering thread only): the first subscription to deliver an element claims
  /// the node and makes its ring, so that an element shared by several subscribers (`share`) is
  /// remembered once.
  @inline(__always)
  var valueRing: Unmanaged<SeqlockRing>? {
    guard let valuesRef else { return nil }
    let bits = streams_atomic_load_relaxed(counters + 3)
    if UInt(bitPattern: bits) > UInt(Self.ended) {
      return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
    }
    guard bits == 0, valuesRef._withUnsafeGuaranteedRef({ $0.claimant }) == 0 else { return nil }
    return claimValues()
  }

  /// Claims the node's values, if no other subscription has since and this one has not ended,
  /// with a new ring (internal for tests).
  @inline(never)
  func claimValues() -> Unmanaged<SeqlockRing>? {
    guard let values, values.claim(by: id) else { return nil }
    let ring = Unmanaged.passRetained(SeqlockRing.values(limit: values.limit))
    guard streams_atomic_compare_exchange(counters + 3, 0, Int(bitPattern: ring.toOpaque()))
    else {
      ring.release()
      // Ended meanwhile (``endClaim()`` ran first): give the node back; this delivery's value is
      // not kept. (Otherwise another delivery to this subscription made its ring at once, which
      // breaks the Rx grammar; that ring keeps the claim.)
      if streams_atomic_load_acquire(counters + 3) == Self.ended { values.release(by: id) }
      return nil
    }
    return ring
  }

  /// The subscription has ended (under the recorder's lock): its ring, if it made one; else
  /// marks that it makes none, so that a delivery still under way on another thread cannot claim
  /// the node for a subscription nobody will release.
  func endClaim() -> SeqlockRing? {
    if streams_atomic_compare_exchange(counters + 3, 0, Self.ended) { return nil }
    return claimedRing
  }

  /// The ring, if this subscription has claimed its node's values (for the reader, under the
  /// recorder's lock).
  var claimedRing: SeqlockRing? {
    let bits = streams_atomic_load_acquire(counters + 3)
    guard UInt(bitPattern: bits) > UInt(Self.ended), let ring = UnsafeRawPointer(bitPattern: bits)
    else { return nil }
    return Unmanaged<SeqlockRing>.fromOpaque(ring).takeUnretainedValue()
  }
}

/// A delivery kept in the ring (plain data: its element, when plain, is kept as its type and
/// bytes; a string or description is beside it).
struct RingEntry {
  var id: UInt64
  /// The sender or the delivering node; 0 for a send made outside any delivery, which reads as
  /// from the subject itself.
  var from: UInt64
  var to: UInt64
  /// 0 for none.
  var cause: UInt64
  var time: UInt64
  var thread: UInt32
  var event: TraceGraph.EventKind
  var hop: ThreadContext.Via
  /// The plain element's type (as a word; 0 for none) and bytes.
  var valueType: Int
  var first: UInt64
  var second: UInt64
}

/// The ring of recent deliveries: the last `capacity` sends (and timeline deliveries) taken in,
/// in plain memory.
///
/// `@unchecked Sendable`: it is only touched under the recorder's lock.
final class DeliveryRing: @unchecked Sendable {
  let capacity: Int
  private let entries: UnsafeMutablePointer<RingEntry>
  /// How many entries are kept (up to `capacity`).
  @exclusivity(unchecked) private(set) var count = 0
  /// Where the next entry goes once the ring is full.
  @exclusivity(unchecked) private var head = 0

  init(capacity: Int) {
    self.capacity = capacity
    entries = .allocate(capacity: capacity)
  }

  deinit {
    entries.deallocate()
  }

  /// The positions of the entries kept.
  var positions: Range<Int> { 0..<count }

  subscript(position: Int) -> RingEntry { entries[position] }

  /// Forgets every entry (they are plain data).
  func removeAll() {
    count = 0
    head = 0
  }

  /// Keeps `entry` in place of the oldest one once the ring is full; returns its position.
  @inline(__always)
  func append(_ entry: RingEntry) -> Int {
    if count < capacity {
      (entries + count).initialize(to: entry)
      count += 1
      return count - 1
    }
    let position = head
    entries[position] = entry
    head = position + 1 == capacity ? 0 : position + 1
    return position
  }
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
struct RecorderState {
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
