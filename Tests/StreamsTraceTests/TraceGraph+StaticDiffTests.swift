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
        + "chain edges (100%); the run exercised 1 of the map's 1 chain edges (100%)\nno differences"
    )

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

  @Test("a place in the code matches the recording whichever instance's upstream ran")
  func placeKeys() throws {
    // The map: one view model, built at two call sites with two subjects.
    var map = TraceGraph(nodes: [
      .init(
        id: 1, kind: "PublishSubject", role: .subject, file: "App/Main.swift", line: 3,
        name: "Main.refresh"),
      .init(
        id: 2, kind: "PublishSubject", role: .subject, file: "App/Soak.swift", line: 4,
        name: "Soak.refresh"),
      .init(
        id: 3, kind: "map", role: .operator, file: "App/Model.swift", line: 5, owner: "Model",
        upstreams: [1, 2]),
      .init(
        id: 4, kind: "subscribe", role: .terminal, file: "App/Model.swift", line: 6,
        owner: "Model", upstreams: [3]),
    ])
    map.edges = [
      .init(from: 1, to: 3, kind: .subscription, count: 1, live: 1),
      .init(from: 2, to: 3, kind: .subscription, count: 1, live: 1),
      .init(from: 3, to: 4, kind: .subscription, count: 1, live: 1),
    ]
    map.origin = .static
    // The run built the soak screen's only; a recording names files by module.
    var run = TraceGraph(nodes: [
      .init(
        id: 7, kind: "PublishSubject", role: .subject, file: "App/Soak.swift", line: 4,
        name: "Soak.refresh"),
      .init(
        id: 8, kind: "map", role: .operator, file: "AppModule/Model.swift", line: 5,
        owner: "Model", upstreams: [7]),
      .init(
        id: 9, kind: "subscribe", role: .terminal, file: "AppModule/Model.swift", line: 6,
        owner: "Model", upstreams: [8]),
    ])
    run.edges = [
      .init(from: 7, to: 8, kind: .subscription, count: 1, live: 1),
      .init(from: 8, to: 9, kind: .subscription, count: 1, live: 1),
      .init(from: 7, to: 8, kind: .emission, count: 3),
    ]
    let diff = run.diff(from: map)
    let coverage = try #require(diff.coverage)
    #expect(coverage.recordedEdges == 2)
    #expect(coverage.recordedEdgesMapped == 2)
    // Only what the run did not build: the main screen's subject and its edge.
    #expect(diff.addedNodes.isEmpty)
    #expect(diff.removedNodes == ["Main.refresh [PublishSubject]"])
    #expect(diff.addedEdges.isEmpty)
    #expect(
      diff.removedEdges == [
        .init(
          from: "Main.refresh [PublishSubject]", to: "Model: map Model.swift:5",
          kind: .subscription)
      ])
    // Between two recordings, identity keys still follow the chain (lines may move).
    #expect(run.diff(from: run).isEmpty)
  }
}
