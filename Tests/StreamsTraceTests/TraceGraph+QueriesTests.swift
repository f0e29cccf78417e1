import StreamsTrace
import Testing

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
      queryNode(1, "just", .source), queryNode(2, upstreams: [1]), queryNode(3, upstreams: [2]),
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
      nodes: (1...5).map { queryNode($0) },
      edges: [
        queryEdge(1, 3), queryEdge(1, 2), queryEdge(2, 5), queryEdge(3, 5), queryEdge(1, 4),
        queryEdge(4, 5),
      ])
    #expect(graph.shortestPath(from: 1, to: 5) == [1, 2, 5])
    #expect(graph.hopCount(from: 1, to: 5) == 2)
  }

  @Test("control edges are left out unless asked for")
  func controlEdges() {
    // source(1) -> takeUntil(2) -> subscribe(3); trigger(4) controls 2 by an upstream list,
    // timer(5) controls 3 by an edge only.
    let graph = TraceGraph(
      nodes: [
        queryNode(1, "just", .source),
        queryNode(2, "take(until:)", upstreams: [1], controlUpstreams: [4]),
        queryNode(3, "subscribe", .terminal, upstreams: [2]),
        queryNode(4, "PublishSubject", .subject),
        queryNode(5, "timer", .source),
      ],
      edges: [
        queryEdge(1, 2), queryEdge(2, 3), queryEdge(4, 2, .control), queryEdge(5, 3, .control),
      ])
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
        queryNode(1), queryNode(2), queryNode(3),
        queryNode(4, "PublishSubject", .subject, owner: "Hub"),
        queryNode(5), queryNode(6), queryNode(9),
      ],
      edges: [
        queryEdge(1, 4), queryEdge(1, 4, .emission, count: 7), queryEdge(2, 4),
        queryEdge(3, 4, .chain), queryEdge(4, 5),
        queryEdge(4, 6), queryEdge(1, 6), queryEdge(9, 4, .control),
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
      nodes: [
        queryNode(1, "PublishSubject", .subject, file: "Loop.swift"), queryNode(2), queryNode(3),
      ],
      edges: [queryEdge(1, 1, .chain), queryEdge(1, 2), queryEdge(2, 3)])
    let cycles = graph.structuralCycles()
    #expect(cycles.map(\.nodes) == [[1]])
    #expect(cycles.map(\.files) == [["Loop.swift"]])
    #expect(graph.reachable(from: 1) == [1, 2, 3])
    #expect(graph.reachable(from: 2) == [3])
  }

  @Test("several cycles come out ordered by their smallest id")
  func severalCycles() {
    let graph = TraceGraph(
      nodes: (1...6).map { queryNode($0) },
      edges: [
        queryEdge(5, 6), queryEdge(6, 5, .chain), queryEdge(2, 3), queryEdge(3, 2, .chain),
        queryEdge(3, 5),
      ])
    #expect(graph.structuralCycles().map(\.nodes) == [[2, 3], [5, 6]])
  }

  // MARK: - Dynamic cycles

  @Test("re-entrant delivery is found from direct cause links, once per node")
  func dynamicReentrancy() throws {
    // subject(1) -> subscriber X(2) sends into subject(3) in B.swift, whose subscriber (4) sends
    // into subject 1, which delivers to X again while X's first delivery is running.
    let deliveries = [
      queryDelivery(1, 1, 2), queryDelivery(2, 2, 3, cause: 1), queryDelivery(3, 3, 4, cause: 2),
      queryDelivery(4, 4, 1, cause: 3), queryDelivery(5, 1, 2, cause: 4),
      queryDelivery(6, 2, 3, cause: 5),
      queryDelivery(7, 3, 4, cause: 6), queryDelivery(8, 4, 1, cause: 7),
      queryDelivery(9, 1, 2, cause: 8),
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
      queryDelivery(1, 1, 2), queryDelivery(2, 2, 3, cause: 1), queryDelivery(3, 3, 4, cause: 2),
      queryDelivery(4, 4, 1, cause: 3, hop: .scheduler, thread: 2),
      queryDelivery(5, 1, 2, cause: 4),
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
      queryNode(1, "tap", .source, file: "A.swift", owner: "ViewController"),
      queryNode(2, "subscribe", .terminal, file: "A.swift", owner: "ViewController"),
      queryNode(3, "PublishSubject", .subject, file: "B.swift", owner: "ViewModel"),
      queryNode(4, "subscribe", .terminal, file: "B.swift", owner: "ViewModel"),
      queryNode(5, "BehaviorRelay", .subject, file: "C.swift", owner: "UIState"),
      queryNode(6, "bind(to:)", .terminal, file: "C.swift", owner: "UIState"),
      queryNode(7, "timer", .source, file: "A.swift"), queryNode(8, "map", file: "A.swift"),
      queryNode(9, "subscribe", .terminal, file: "A.swift"),
    ],
    deliveries: [
      queryDelivery(1, 1, 2), queryDelivery(2, 7, 8), queryDelivery(3, 2, 3, cause: 1),
      queryDelivery(4, 8, 9, cause: 2), queryDelivery(5, 3, 4, cause: 3),
      queryDelivery(6, 4, 5, cause: 5, hop: .scheduler, thread: 2),
      queryDelivery(7, 5, 6, cause: 6),
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
      queryNode(
        1, "PublishSubject", .subject, file: "S.swift", owner: "S", subscriptions: 0, events: 0),
      queryNode(2, "map", subscriptions: 0, events: 0),
      queryNode(3, "subscribe", .terminal, subscriptions: 0, events: 0),
      queryNode(4, "BehaviorSubject", .subject, subscriptions: 2, events: 0),
      queryNode(5, "subscribe", .terminal, subscriptions: 1, events: 0),
      queryNode(6, "interval", .source, subscriptions: 1, events: 3),
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
}
