import StreamsTrace
import Testing

// Hand-built graphs. Node ids double as line numbers, so every node has its own stable key.

private typealias Node = TraceGraph.Node
private typealias Edge = TraceGraph.Edge
private typealias Delivery = TraceGraph.Delivery

private func node(
  _ id: UInt64, _ kind: String = "map", _ role: TraceGraph.Role = .operator,
  file: String = "A.swift", owner: String? = nil, upstreams: [UInt64] = [],
  controlUpstreams: [UInt64] = [], subscriptions: Int = 1, events: Int = 1
) -> Node {
  Node(
    id: id, kind: kind, role: role, file: file, line: UInt(id), owner: owner,
    upstreams: upstreams, controlUpstreams: controlUpstreams, subscriptionCount: subscriptions,
    eventCount: events)
}

private func edge(
  _ from: UInt64, _ to: UInt64, _ kind: TraceGraph.EdgeKind = .subscription, count: Int = 1
) -> Edge {
  Edge(from: from, to: to, kind: kind, count: count, live: kind == .subscription ? 1 : 0)
}

private func delivery(
  _ id: UInt64, _ from: UInt64, _ to: UInt64, cause: UInt64? = nil,
  hop: TraceGraph.Hop = .direct, thread: UInt32 = 1
) -> Delivery {
  Delivery(id: id, from: from, to: to, event: .next, cause: cause, hop: hop, thread: thread)
}

/// Two files: `Feed.swift`'s subscriber (3) sends into `Header.swift`'s relay (4) by a chain
/// edge; node 7 is a subject nobody subscribes to.
///
///     refresh(1) -> map(2) -> subscribe(3) =chain=> relay(4) -> filter(5) -> bind(6)
private let appGraph = TraceGraph(
  nodes: [
    node(1, "PublishSubject", .subject, file: "Feed.swift", owner: "FeedViewModel"),
    node(2, "map", file: "Feed.swift", owner: "FeedViewModel", upstreams: [1]),
    node(3, "subscribe", .terminal, file: "Feed.swift", owner: "FeedViewModel", upstreams: [2]),
    node(4, "BehaviorRelay", .subject, file: "Header.swift", owner: "HeaderViewModel"),
    node(5, "filter", file: "Header.swift", upstreams: [4]),
    node(6, "bind(to:)", .terminal, file: "Header.swift", owner: "HeaderView", upstreams: [5]),
    node(7, "PublishSubject", .subject, file: "Header.swift", subscriptions: 0, events: 0),
  ],
  edges: [
    edge(1, 2), edge(1, 2, .emission, count: 3), edge(2, 3), edge(2, 3, .emission, count: 3),
    edge(3, 4, .chain, count: 3), edge(4, 5), edge(4, 5, .emission, count: 4), edge(5, 6),
    edge(5, 6, .emission, count: 2),
  ])

/// A cycle that closes through chain edges across two files, with a tail (5) off it:
///
///     subject(1) -> subscribe(2) =chain=> subject(3) -> subscribe(4) =chain=> subject(1)
///     subject(1) -> subscribe(5)
private let cycleGraph = TraceGraph(
  nodes: [
    node(1, "PublishSubject", .subject, file: "A.swift", owner: "A"),
    node(2, "subscribe", .terminal, file: "A.swift", owner: "A"),
    node(3, "PublishSubject", .subject, file: "B.swift", owner: "B"),
    node(4, "subscribe", .terminal, file: "B.swift", owner: "B"),
    node(5, "subscribe", .terminal, file: "A.swift", owner: "A"),
  ],
  edges: [
    edge(1, 2), edge(2, 3, .chain, count: 2), edge(3, 4), edge(4, 1, .chain, count: 2),
    edge(1, 5),
  ])

@Suite("TraceGraph queries")
struct TraceGraphQueriesTests {
  // MARK: - Reachability and paths

  @Test("reachable and reaching follow subscriptions, emissions and chain edges across files")
  func reachability() {
    #expect(appGraph.reachable(from: 1) == [2, 3, 4, 5, 6])
    #expect(appGraph.reachable(from: 3) == [4, 5, 6])
    #expect(appGraph.reachable(from: 6) == [])
    #expect(appGraph.reaching(6) == [1, 2, 3, 4, 5])
    #expect(appGraph.reaching(4) == [1, 2, 3])
    #expect(appGraph.reaching(1) == [])
    #expect(appGraph.reachable(from: 7) == [])
    #expect(appGraph.reachable(from: 99) == [])
    #expect(appGraph.reaching(99) == [])
  }

  @Test("a node's declared upstreams count as data flow even without recorded edges")
  func upstreamsWithoutEdges() {
    let graph = TraceGraph(nodes: [
      node(1, "just", .source), node(2, upstreams: [1]), node(3, upstreams: [2]),
    ])
    #expect(graph.reachable(from: 1) == [2, 3])
    #expect(graph.reaching(3) == [1, 2])
    #expect(graph.shortestPath(from: 1, to: 3) == [1, 2, 3])
  }

  @Test("shortest paths and hop counts")
  func paths() {
    #expect(appGraph.shortestPath(from: 1, to: 6) == [1, 2, 3, 4, 5, 6])
    #expect(appGraph.hopCount(from: 1, to: 6) == 5)
    #expect(appGraph.shortestPath(from: 3, to: 4) == [3, 4])
    #expect(appGraph.hopCount(from: 3, to: 4) == 1)
    #expect(appGraph.shortestPath(from: 3, to: 3) == [3])
    #expect(appGraph.hopCount(from: 3, to: 3) == 0)
    #expect(appGraph.shortestPath(from: 6, to: 1) == nil)
    #expect(appGraph.hopCount(from: 6, to: 1) == nil)
    #expect(appGraph.shortestPath(from: 1, to: 7) == nil)
    #expect(appGraph.shortestPath(from: 1, to: 99) == nil)

    // A shortcut wins, and among equal paths the one through smaller ids.
    let graph = TraceGraph(
      nodes: (1...5).map { node($0) },
      edges: [edge(1, 3), edge(1, 2), edge(2, 5), edge(3, 5), edge(1, 4), edge(4, 5)])
    #expect(graph.shortestPath(from: 1, to: 5) == [1, 2, 5])
    #expect(graph.hopCount(from: 1, to: 5) == 2)
  }

  @Test("control edges are left out unless asked for")
  func controlEdges() {
    // source(1) -> takeUntil(2) -> subscribe(3); trigger(4) controls 2 by an upstream list,
    // timer(5) controls 3 by an edge only.
    let graph = TraceGraph(
      nodes: [
        node(1, "just", .source), node(2, "take(until:)", upstreams: [1], controlUpstreams: [4]),
        node(3, "subscribe", .terminal, upstreams: [2]), node(4, "PublishSubject", .subject),
        node(5, "timer", .source),
      ],
      edges: [edge(1, 2), edge(2, 3), edge(4, 2, .control), edge(5, 3, .control)])
    #expect(graph.reachable(from: 4) == [])
    #expect(graph.reachable(from: 4, includingControl: true) == [2, 3])
    #expect(graph.reaching(3) == [1, 2])
    #expect(graph.reaching(3, includingControl: true) == [1, 2, 4, 5])
    #expect(graph.shortestPath(from: 5, to: 3) == nil)
    #expect(graph.shortestPath(from: 5, to: 3, includingControl: true) == [5, 3])
    #expect(graph.hopCount(from: 4, to: 3, includingControl: true) == 2)
    #expect(graph.topFanIn(1).map(\.node) == [2])
    #expect(graph.topFanIn(1).map(\.count) == [1])
  }

  // MARK: - Fan-in and fan-out

  @Test("top fan-in and fan-out count distinct data-flow neighbours, ties by id")
  func fan() {
    // 1, 2, 3 feed subject 4; 4 feeds 5 and 6; 1 also feeds 6; 9 controls 4.
    let graph = TraceGraph(
      nodes: [
        node(1), node(2), node(3), node(4, "PublishSubject", .subject, owner: "Hub"),
        node(5), node(6), node(9),
      ],
      edges: [
        edge(1, 4), edge(1, 4, .emission, count: 7), edge(2, 4), edge(3, 4, .chain), edge(4, 5),
        edge(4, 6), edge(1, 6), edge(9, 4, .control),
      ])
    #expect(graph.topFanIn(2).map(\.node) == [4, 6])
    #expect(graph.topFanIn(2).map(\.count) == [3, 2])
    #expect(graph.topFanIn(100).map(\.node) == [4, 6, 5])
    #expect(graph.topFanOut(3).map(\.node) == [1, 4, 2])
    #expect(graph.topFanOut(3).map(\.count) == [2, 2, 1])
    #expect(graph.topFanOut(100).map(\.node) == [1, 4, 2, 3])
    #expect(graph.topFanOut(0).isEmpty)
    #expect(graph.topFanIn(1).first?.description == "PublishSubject A.swift:4 (Hub): 3")
  }

  // MARK: - Structural cycles

  @Test("the app graph has no cycle")
  func noCycleInAppGraph() {
    #expect(appGraph.structuralCycles().isEmpty)
    #expect(appGraph.dynamicCycles().isEmpty)
  }

  @Test("a cycle through chain edges is one component, with its files")
  func cycleThroughChainEdge() throws {
    let cycles = cycleGraph.structuralCycles()
    try #require(cycles.count == 1)
    #expect(cycles[0].nodes == [1, 2, 3, 4])
    #expect(cycles[0].files == ["A.swift", "B.swift"])
    #expect(
      cycles[0].labels == [
        "PublishSubject A.swift:1 (A)", "subscribe A.swift:2 (A)",
        "PublishSubject B.swift:3 (B)", "subscribe B.swift:4 (B)",
      ])
    #expect(
      cycles[0].description
        == """
        cycle of 4 nodes across A.swift, B.swift:
          PublishSubject A.swift:1 (A)
          subscribe A.swift:2 (A)
          PublishSubject B.swift:3 (B)
          subscribe B.swift:4 (B)
        """)
    // On a cycle a node reaches itself.
    #expect(cycleGraph.reachable(from: 1) == [1, 2, 3, 4, 5])
    #expect(cycleGraph.reaching(5) == [1, 2, 3, 4])

    // Without the closing chain edge there is no cycle.
    var open = cycleGraph
    open.edges.removeAll { $0.kind == .chain && $0.to == 1 }
    #expect(open.structuralCycles().isEmpty)
    #expect(open.reachable(from: 1) == [2, 3, 4, 5])
  }

  @Test("a self-loop is a cycle of one node; a lone node is not")
  func selfLoop() {
    let graph = TraceGraph(
      nodes: [node(1, "PublishSubject", .subject, file: "Loop.swift"), node(2), node(3)],
      edges: [edge(1, 1, .chain), edge(1, 2), edge(2, 3)])
    let cycles = graph.structuralCycles()
    #expect(cycles.map(\.nodes) == [[1]])
    #expect(cycles.map(\.files) == [["Loop.swift"]])
    #expect(graph.reachable(from: 1) == [1, 2, 3])
    #expect(graph.reachable(from: 2) == [3])
  }

  @Test("several cycles come out ordered by their smallest id")
  func severalCycles() {
    let graph = TraceGraph(
      nodes: (1...6).map { node($0) },
      edges: [edge(5, 6), edge(6, 5, .chain), edge(2, 3), edge(3, 2, .chain), edge(3, 5)])
    #expect(graph.structuralCycles().map(\.nodes) == [[2, 3], [5, 6]])
  }

  // MARK: - Dynamic cycles

  @Test("re-entrant delivery is found from direct cause links, once per node")
  func dynamicReentrancy() throws {
    // subject(1) -> subscriber X(2) sends into subject(3) in B.swift, whose subscriber (4) sends
    // into subject 1, which delivers to X again while X's first delivery is running.
    let deliveries = [
      delivery(1, 1, 2), delivery(2, 2, 3, cause: 1), delivery(3, 3, 4, cause: 2),
      delivery(4, 4, 1, cause: 3), delivery(5, 1, 2, cause: 4), delivery(6, 2, 3, cause: 5),
      delivery(7, 3, 4, cause: 6), delivery(8, 4, 1, cause: 7), delivery(9, 1, 2, cause: 8),
    ]
    let graph = TraceGraph(
      nodes: cycleGraph.nodes, edges: cycleGraph.edges, deliveries: deliveries)
    let cycles = graph.dynamicCycles()
    #expect(cycles.map(\.node) == [1, 2, 3, 4])
    let x = try #require(cycles.first { $0.node == 2 })
    #expect(x.deliveries == [1, 2, 3, 4, 5])
    #expect(x.files == ["A.swift", "B.swift"])
    #expect(x.label == "subscribe A.swift:2 (A)")
    #expect(
      x.description
        == "re-entrant delivery to subscribe A.swift:2 (A): #1 -> #2 -> #3 -> #4 -> #5 "
        + "across A.swift, B.swift")
    #expect(cycles.first { $0.node == 1 }?.deliveries == [4, 5, 6, 7, 8])
  }

  @Test("a scheduler hop on the way round is not re-entrant, but stays in the chain")
  func hopBreaksReentrancy() {
    let deliveries = [
      delivery(1, 1, 2), delivery(2, 2, 3, cause: 1), delivery(3, 3, 4, cause: 2),
      delivery(4, 4, 1, cause: 3, hop: .scheduler, thread: 2), delivery(5, 1, 2, cause: 4),
    ]
    let graph = TraceGraph(nodes: cycleGraph.nodes, deliveries: deliveries)
    #expect(graph.dynamicCycles().isEmpty)
    #expect(graph.chain(of: 1)?.deliveries.map(\.id) == [1, 2, 3, 4, 5])

    var direct = graph
    direct.deliveries[3].hop = .direct
    #expect(direct.dynamicCycles().map(\.node) == [2])
  }

  // MARK: - Delivery chains

  /// Root #1 runs from A.swift through B.swift to C.swift (one scheduler hop); root #2 stays in
  /// A.swift. Their deliveries interleave.
  private let chainGraph = TraceGraph(
    nodes: [
      node(1, "tap", .source, file: "A.swift", owner: "ViewController"),
      node(2, "subscribe", .terminal, file: "A.swift", owner: "ViewController"),
      node(3, "PublishSubject", .subject, file: "B.swift", owner: "ViewModel"),
      node(4, "subscribe", .terminal, file: "B.swift", owner: "ViewModel"),
      node(5, "BehaviorRelay", .subject, file: "C.swift", owner: "UIState"),
      node(6, "bind(to:)", .terminal, file: "C.swift", owner: "UIState"),
      node(7, "timer", .source, file: "A.swift"), node(8, "map", file: "A.swift"),
      node(9, "subscribe", .terminal, file: "A.swift"),
    ],
    deliveries: [
      delivery(1, 1, 2), delivery(2, 7, 8), delivery(3, 2, 3, cause: 1),
      delivery(4, 8, 9, cause: 2), delivery(5, 3, 4, cause: 3),
      delivery(6, 4, 5, cause: 5, hop: .scheduler, thread: 2), delivery(7, 5, 6, cause: 6),
    ])

  @Test("a chain across three files from one root, and roots")
  func chainsAcrossFiles() throws {
    let crossing = chainGraph.chainsCrossingFiles(atLeast: 3)
    try #require(crossing.count == 1)
    #expect(crossing[0].origin.id == 1)
    #expect(crossing[0].deliveries.map(\.id) == [1, 3, 5, 6, 7])
    #expect(crossing[0].files == ["A.swift", "B.swift", "C.swift"])
    #expect(
      crossing[0].description
        == """
        chain from #1 across 3 files (A.swift, B.swift, C.swift):
          #1 next: tap A.swift:1 (ViewController) -> subscribe A.swift:2 (ViewController)
          #3 next: subscribe A.swift:2 (ViewController) -> PublishSubject B.swift:3 (ViewModel)
          #5 next: PublishSubject B.swift:3 (ViewModel) -> subscribe B.swift:4 (ViewModel)
          #6 next: subscribe B.swift:4 (ViewModel) -> BehaviorRelay C.swift:5 (UIState) [scheduler, thread 2]
          #7 next: BehaviorRelay C.swift:5 (UIState) -> bind(to:) C.swift:6 (UIState)
        """)

    #expect(chainGraph.chainsCrossingFiles(atLeast: 1).map(\.origin.id) == [1, 2])
    #expect(
      chainGraph.chainsCrossingFiles(atLeast: 1).map(\.files) == [
        ["A.swift", "B.swift", "C.swift"], ["A.swift"],
      ])
    #expect(chainGraph.chainsCrossingFiles(atLeast: 4).isEmpty)

    #expect(chainGraph.root(of: 7)?.id == 1)
    #expect(chainGraph.root(of: 4)?.id == 2)
    #expect(chainGraph.root(of: 1)?.id == 1)
    #expect(chainGraph.root(of: 99) == nil)
  }

  @Test("chain(of:) lists what one delivery caused, in order")
  func chainOfDelivery() {
    #expect(chainGraph.chain(of: 1)?.deliveries.map(\.id) == [1, 3, 5, 6, 7])
    #expect(chainGraph.chain(of: 5)?.deliveries.map(\.id) == [5, 6, 7])
    #expect(chainGraph.chain(of: 5)?.files == ["B.swift", "C.swift"])
    #expect(chainGraph.chain(of: 2)?.deliveries.map(\.id) == [2, 4])
    #expect(chainGraph.chain(of: 7)?.deliveries.map(\.id) == [7])
    #expect(chainGraph.chain(of: 99) == nil)
  }

  @Test("a delivery whose cause left the ring counts as a root")
  func evictedCause() {
    var graph = chainGraph
    graph.deliveries.removeFirst()  // #1 is gone; #3 names it as its cause
    #expect(graph.root(of: 7)?.id == 3)
    #expect(graph.chainsCrossingFiles(atLeast: 3).map(\.origin.id) == [3])
    #expect(graph.chainsCrossingFiles(atLeast: 3).map(\.deliveries.count) == [4])
  }

  // MARK: - Leaks and unused nodes

  @Test("leaks are live subscriptions whose owner is gone, with their subscribe sites")
  func leaks() throws {
    let graph = TraceGraph(
      nodes: appGraph.nodes,
      subscriptions: [
        .init(
          id: 3, node: 4, subscriber: 5, owner: nil, ownerGone: true, file: "Header.swift",
          line: 20),
        .init(
          id: 1, node: 1, subscriber: 2, owner: "DetailViewModel", ownerGone: true,
          file: "Detail.swift", line: 40),
        .init(
          id: 2, node: 5, subscriber: 6, owner: "HeaderView", ownerGone: false,
          file: "Header.swift", line: 30),
      ])
    let leaks = graph.leaks()
    #expect(leaks.map(\.subscription) == [1, 3])
    let first = try #require(leaks.first)
    #expect(first.owner == "DetailViewModel")
    #expect(first.node == 1)
    #expect(first.subscriber == 2)
    #expect(first.file == "Detail.swift")
    #expect(first.line == 40)
    #expect(
      first.description
        == "leak: DetailViewModel is gone but map Feed.swift:2 (FeedViewModel) still subscribes "
        + "to PublishSubject Feed.swift:1 (FeedViewModel), subscribed at Detail.swift:40; its "
        + "disposable went into no bag (kept by a property or never disposed)")
    #expect(leaks[1].description.hasPrefix("leak: an unknown owner is gone"))
    #expect(appGraph.leaks().isEmpty)
  }

  @Test("never-subscribed and never-emitted nodes leave terminals out")
  func unusedNodes() {
    let graph = TraceGraph(nodes: [
      node(1, "PublishSubject", .subject, file: "S.swift", owner: "S", subscriptions: 0, events: 0),
      node(2, "map", subscriptions: 0, events: 0),
      node(3, "subscribe", .terminal, subscriptions: 0, events: 0),
      node(4, "BehaviorSubject", .subject, subscriptions: 2, events: 0),
      node(5, "subscribe", .terminal, subscriptions: 1, events: 0),
      node(6, "interval", .source, subscriptions: 1, events: 3),
    ])
    #expect(graph.neverSubscribed().map(\.id) == [1, 2])
    #expect(graph.neverEmitted().map(\.id) == [4])
    #expect(graph.neverSubscribed().description == "PublishSubject S.swift:1 (S)\nmap A.swift:2")
    #expect(appGraph.neverSubscribed().map(\.id) == [7])
    #expect(appGraph.neverEmitted().isEmpty)
  }

  @Test("describe(node:) reads kind file:line (owner)")
  func describeNode() {
    #expect(appGraph.describe(node: 1) == "PublishSubject Feed.swift:1 (FeedViewModel)")
    #expect(appGraph.describe(node: 5) == "filter Header.swift:5")
    #expect(appGraph.describe(node: 99) == "node #99")
  }

  // MARK: - Diff

  @Test("the same graph under other ids gives an empty diff")
  func diffSameGraph() {
    var renumbered = appGraph
    func shift(_ id: UInt64) -> UInt64 { id + 1000 }
    renumbered.nodes = appGraph.nodes.reversed().map {
      var node = $0
      node.id = shift(node.id)
      node.upstreams = node.upstreams.map(shift)
      return node
    }
    renumbered.edges = appGraph.edges.map {
      var edge = $0
      edge.from = shift(edge.from)
      edge.to = shift(edge.to)
      return edge
    }
    let diff = renumbered.diff(from: appGraph)
    #expect(diff.isEmpty)
    #expect(diff.description == "no differences")
    #expect(cycleGraph.diff(from: cycleGraph).isEmpty)
    #expect(!cycleGraph.diff(from: appGraph).isEmpty)
  }

  @Test("diff lists added and removed nodes and edges and changed counts")
  func diffEdges() throws {
    let key = { (id: UInt64) in appGraph.identityKeys()[id]! }
    var new = appGraph
    // 3 now sends into a new subject 8 instead of 4; 1 -> 2 emitted 5 times instead of 3.
    new.nodes.append(node(8, "PublishSubject", .subject, file: "Other.swift", owner: "Other"))
    new.edges.removeAll { $0.kind == .chain }
    new.edges.append(edge(3, 8, .chain, count: 3))
    let emission = try #require(new.edges.firstIndex { $0.kind == .emission && $0.from == 1 })
    new.edges[emission].count = 5

    let diff = new.diff(from: appGraph)
    #expect(!diff.isEmpty)
    #expect(diff.addedNodes == ["Other: PublishSubject"])
    #expect(diff.removedNodes.isEmpty)
    #expect(
      diff.addedEdges == [TraceDiff.Edge(from: key(3), to: "Other: PublishSubject", kind: .chain)])
    #expect(diff.removedEdges == [TraceDiff.Edge(from: key(3), to: key(4), kind: .chain)])
    try #require(diff.changedCounts.count == 1)
    #expect(diff.changedCounts[0].edge == TraceDiff.Edge(from: key(1), to: key(2), kind: .emission))
    #expect(diff.changedCounts[0].old == 3)
    #expect(diff.changedCounts[0].new == 5)
    #expect(diff.newCycles.isEmpty)
    #expect(
      diff.description
        == """
        - owners no longer connected: FeedViewModel -> HeaderViewModel (sends)
        + owners newly connected: FeedViewModel -> Other (sends)
        detail:
        + node PublishSubject Other.swift:8 (Other)
        + edge subscribe Feed.swift:3 (FeedViewModel) -> PublishSubject Other.swift:8 (Other) (chain)
        - edge subscribe Feed.swift:3 (FeedViewModel) -> BehaviorRelay Header.swift:4 (HeaderViewModel) (chain)
        ~ edge PublishSubject Feed.swift:1 (FeedViewModel) -> map Feed.swift:2 (FeedViewModel) (emission): 3 -> 5
        """)

    let back = appGraph.diff(from: new)
    #expect(back.removedNodes == ["Other: PublishSubject"])
    #expect(back.addedEdges == diff.removedEdges)
    #expect(back.removedEdges == diff.addedEdges)
    #expect(back.changedCounts.map(\.old) == [5])
  }

  @Test("diff by identity: a moved line matches, and the fix reads as a cycle removed")
  func diffMovedLines() {
    var named = cycleGraph
    named.nodes[0].name = "A.taps"
    named.nodes[2].name = "B.items"
    // The fix: B's subscriber no longer sends into A.taps, and A's file gained a line above all.
    var fixed = named
    fixed.edges.removeAll { $0.kind == .chain && $0.to == 1 }
    for index in fixed.nodes.indices where fixed.nodes[index].file == "A.swift" {
      fixed.nodes[index].line += 1
    }
    let diff = fixed.diff(from: named)
    #expect(diff.addedNodes.isEmpty)
    #expect(diff.removedNodes.isEmpty)
    #expect(diff.removedCycles.count == 1)
    #expect(diff.removedCycles[0].contains("A.taps [PublishSubject]"))
    #expect(diff.newCycles.isEmpty)
    #expect(diff.description.hasPrefix("- cycle (removed): A.taps (PublishSubject A.swift:1), "))
    #expect(diff.description.contains("- owners no longer connected: B -> A (sends)"))
    #expect(diff.description.contains("detail:\n- edge "))
    // Moving lines alone changes nothing.
    var moved = named
    for index in moved.nodes.indices { moved.nodes[index].line += 3 }
    #expect(moved.diff(from: named).isEmpty)
  }

  @Test("diff reports a cycle only the new graph has")
  func diffNewCycle() {
    var closed = appGraph
    // bind(6) now sends into refresh(1): a cycle across both files.
    closed.edges.append(edge(6, 1, .chain))
    let diff = closed.diff(from: appGraph)
    let keys = appGraph.identityKeys()
    #expect(diff.newCycles == [appGraph.nodes.prefix(6).map { keys[$0.id]! }.sorted()])
    #expect(diff.addedEdges.map(\.kind) == [.chain])
    #expect(diff.description.hasPrefix("+ cycle (new): "))
    #expect(appGraph.diff(from: closed).newCycles.isEmpty)
    #expect(closed.diff(from: closed).isEmpty)
  }

  // MARK: - Large graphs

  @Test("a 100,000-node line: no stack overflow")
  func largeLine() throws {
    let count: UInt64 = 100_000
    let graph = TraceGraph(
      nodes: (0..<count).map { node($0) },
      edges: (1..<count).map { edge($0 - 1, $0) },
      deliveries: (0..<count).map { delivery($0, $0, $0 + 1, cause: $0 == 0 ? nil : $0 - 1) })
    #expect(graph.reachable(from: 0).count == 99_999)
    #expect(graph.reaching(count - 1).count == 99_999)
    let path = try #require(graph.shortestPath(from: 0, to: count - 1))
    #expect(path.count == 100_000)
    #expect(path.first == 0 && path.last == count - 1)
    #expect(graph.shortestPath(from: count - 1, to: 0) == nil)
    #expect(graph.structuralCycles().isEmpty)
    #expect(graph.dynamicCycles().isEmpty)
    #expect(graph.chain(of: 0)?.deliveries.count == 100_000)
    #expect(graph.root(of: count - 1)?.id == 0)
    #expect(graph.chainsCrossingFiles(atLeast: 1).map(\.deliveries.count) == [100_000])
    #expect(graph.topFanOut(1).map(\.count) == [1])
  }

  @Test("a 100,000-node cycle: one component, and one long re-entrant delivery")
  func largeCycle() throws {
    let count: UInt64 = 100_000
    // Delivery k goes from node k % count to node (k + 1) % count, caused by delivery k - 1;
    // delivery `count` reaches node 1 again while delivery 0 to it is still running.
    let graph = TraceGraph(
      nodes: (0..<count).map { node($0, file: "F\($0 % 3).swift") },
      edges: (0..<count).map {
        edge($0, ($0 + 1) % count, $0 == count - 1 ? .chain : .subscription)
      },
      deliveries: (0...count).map {
        delivery($0, $0 % count, ($0 + 1) % count, cause: $0 == 0 ? nil : $0 - 1)
      })
    let cycles = graph.structuralCycles()
    try #require(cycles.count == 1)
    #expect(cycles[0].nodes.count == 100_000)
    #expect(cycles[0].files == ["F0.swift", "F1.swift", "F2.swift"])
    #expect(graph.reachable(from: 0).count == 100_000)
    #expect(graph.shortestPath(from: 1, to: 0)?.count == 100_000)
    let reentries = graph.dynamicCycles()
    #expect(reentries.map(\.node) == [1])
    #expect(reentries.first?.deliveries.count == 100_001)
    #expect(reentries.first?.files == ["F1.swift", "F2.swift", "F0.swift"])
  }
}
