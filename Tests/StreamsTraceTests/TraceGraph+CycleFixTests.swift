import StreamsTrace
import Testing

@Suite("Cycles that point at the fix")
struct TraceGraphCycleFixTests {
  /// A.taps -> S1 =send=> B.items -> S2 =send=> A.taps, and B.items -> S3 =send=> B.items.
  private let graph = TraceGraph(
    nodes: [
      .init(
        id: 1, kind: "PublishSubject", role: .subject, file: "App/A.swift", line: 3, name: "A.taps"),
      .init(
        id: 2, kind: "subscribe", role: .terminal, file: "App/A.swift", line: 9, owner: "A",
        upstreams: [1]),
      .init(
        id: 3, kind: "BehaviorSubject", role: .subject, file: "App/B.swift", line: 4,
        name: "B.items"),
      .init(
        id: 4, kind: "subscribe", role: .terminal, file: "App/B.swift", line: 12, owner: "B",
        upstreams: [3]),
      .init(
        id: 5, kind: "subscribe", role: .terminal, file: "App/C.swift", line: 7, owner: "C",
        upstreams: [3]),
    ],
    edges: [
      .init(from: 1, to: 2, kind: .subscription, count: 1, live: 1),
      .init(from: 2, to: 3, kind: .chain, count: 1),
      .init(from: 3, to: 4, kind: .subscription, count: 1, live: 1),
      .init(from: 4, to: 1, kind: .chain, count: 1),
      .init(from: 3, to: 5, kind: .subscription, count: 1, live: 1),
      .init(from: 5, to: 3, kind: .chain, count: 1),
    ])

  @Test("loops shortest first as named edges, and the sends whose removal breaks them all")
  func loopsAndCuts() throws {
    let findings = graph.cycleFindings()
    let finding = try #require(findings.first)
    #expect(findings.count == 1)
    #expect(finding.loopCount == 2)
    #expect(finding.loops == [[3, 5], [3, 4, 1, 2]])
    #expect(
      finding.loopLines == [
        "loop of 2 edges: B.items -> subscribe C.swift:7 =send=> B.items",
        "loop of 4 edges: B.items -> subscribe B.swift:12 =send=> A.taps -> subscribe A.swift:9 "
          + "=send=> B.items",
      ])
    #expect(
      finding.breakingSends == [.init(subscriber: 2, subject: 3), .init(subscriber: 5, subject: 3)])
    #expect(
      finding.breakingLines == [
        "subscribe App/A.swift:9 (A) sends into B.items",
        "subscribe App/C.swift:7 (C) sends into B.items",
      ])
    // Removing those sends leaves no cycle.
    var fixed = graph
    fixed.edges.removeAll { $0.kind == .chain && $0.to == 3 }
    #expect(fixed.cycleFindings().isEmpty)
    #expect(finding.description.contains("to break it, remove these 2 sends:"))
  }

  @Test("a graph without cycles has no findings")
  func none() {
    var acyclic = graph
    acyclic.edges.removeAll { $0.kind == .chain }
    #expect(acyclic.cycleFindings().isEmpty)
  }
}
