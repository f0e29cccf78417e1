import StreamsTrace
import Testing

@Suite("diff between a static map and a recorded trace")
struct TraceGraphStaticDiffTests {
  /// A subject, a map, a subscriber that sends into a second subject; `chain` adds the chain
  /// edge, `emissions` the emission edges a run records.
  static func graph(origin: TraceGraph.Origin, chain: Bool, emissions: Bool) -> TraceGraph {
    var graph = TraceGraph(nodes: [
      .init(
        id: 1, kind: "PublishSubject", role: .subject, file: "A.swift", line: 1, name: "A.input"),
      .init(
        id: 2, kind: "map", role: .operator, file: "A.swift", line: 5, owner: "A", upstreams: [1]),
      .init(
        id: 3, kind: "subscribe", role: .terminal, file: "A.swift", line: 6, owner: "A",
        upstreams: [2]),
      .init(
        id: 4, kind: "PublishSubject", role: .subject, file: "B.swift", line: 2, name: "B.output"),
    ])
    graph.edges = [
      .init(from: 1, to: 2, kind: .subscription, count: 1, live: 1),
      .init(from: 2, to: 3, kind: .subscription, count: 1, live: 1),
    ]
    if chain { graph.edges.append(.init(from: 3, to: 4, kind: .chain, count: 9)) }
    if emissions {
      graph.edges.append(.init(from: 1, to: 2, kind: .emission, count: 9))
      graph.edges.append(.init(from: 2, to: 3, kind: .emission, count: 9))
    }
    graph.origin = origin
    return graph
  }

  @Test("only the shape is compared, and the coverage of each by the other is given")
  func coverage() throws {
    let map = Self.graph(origin: .static, chain: true, emissions: false)
    let run = Self.graph(origin: .recorded, chain: true, emissions: true)
    let same = run.diff(from: map)
    // No emission edges, no counts (9 events against 1 place): the same shape.
    #expect(same.isEmpty)
    let coverage = try #require(same.coverage)
    #expect(coverage.recordedEdges == 3)
    #expect(coverage.recordedEdgesMapped == 3)
    #expect(coverage.mappedChains == 1)
    #expect(coverage.mappedChainsRecorded == 1)
    #expect(
      same.description
        == "static map against recorded trace: the map has 3 of 3 recorded subscription and "
        + "chain edges (100%); the run exercised 1 of the map's 1 chain edges (100%)\nno changes")

    // A run that never sent: the map's chain edge was not exercised.
    let quiet = Self.graph(origin: .recorded, chain: false, emissions: true).diff(from: map)
    #expect(quiet.coverage?.mappedChainsRecorded == 0)
    #expect(quiet.removedEdges.map(\.kind) == [.chain])
    // Between two recorded traces nothing changes: counts and emissions count.
    #expect(run.diff(from: run).coverage == nil)
    var more = run
    more.edges[2].count = 10
    #expect(more.diff(from: run).changedCounts.count == 1)
  }
}
