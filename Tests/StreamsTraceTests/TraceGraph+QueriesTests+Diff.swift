import StreamsTrace
import Testing

extension TraceGraphQueriesTests {
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
    new.nodes.append(queryNode(8, "PublishSubject", .subject, file: "Other.swift", owner: "Other"))
    new.edges.removeAll { $0.kind == .chain }
    new.edges.append(queryEdge(3, 8, .chain, count: 3))
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
    closed.edges.append(queryEdge(6, 1, .chain))
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
      nodes: (0..<count).map { queryNode($0) },
      edges: (1..<count).map { queryEdge($0 - 1, $0) },
      deliveries: (0..<count).map { queryDelivery($0, $0, $0 + 1, cause: $0 == 0 ? nil : $0 - 1) })
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
      nodes: (0..<count).map { queryNode($0, file: "F\($0 % 3).swift") },
      edges: (0..<count).map {
        queryEdge($0, ($0 + 1) % count, $0 == count - 1 ? .chain : .subscription)
      },
      deliveries: (0...count).map {
        queryDelivery($0, $0 % count, ($0 + 1) % count, cause: $0 == 0 ? nil : $0 - 1)
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
