import Foundation
import StreamsTrace
import Testing

@Suite("TraceGraph DOT export", .serialized)
struct TraceGraphDOTTests {
  @Test("boxes sit in nested clusters: module, then file; an unknown id at the top")
  func clusters() throws {
    let dot = exportSample.dot()
    try ExportFiles.write(dot, as: "dot-sample.dot")
    #expect(dot.hasPrefix("// StreamsTrace graph: 8 boxes, 11 edges\ndigraph \"StreamsTrace\" {"))
    #expect(dot.hasSuffix("}\n"))
    #expect(clusterPath(of: "n1", in: dot) == ["App", "Feed.swift"])
    #expect(clusterPath(of: "n3", in: dot) == ["App", "Feed.swift"])
    #expect(clusterPath(of: "n5", in: dot) == ["App", "Header.swift"])
    #expect(clusterPath(of: "n7", in: dot) == ["App", "Header.swift"])
    #expect(clusterPath(of: "n6", in: dot) == ["Kit", "Timer.swift"])
    #expect(clusterPath(of: "n99", in: dot) == [])
    #expect(dot.contains("subgraph \"cluster_0\" {"))
    #expect(boxIDs(dot).sorted() == ["n1", "n2", "n3", "n4", "n5", "n6", "n7", "n99"])
  }

  @Test("labels name the owner, the kind or name, the file and line; tooltips describe the node")
  func labels() throws {
    let dot = exportSample.dot()
    let named = attributes(try #require(nodeLine(dot, "n1")))
    #expect(named["label"] == "Feed.refresh\nPublishSubject  Feed.swift:3")
    #expect(named["tooltip"] == "Feed.refresh (PublishSubject App/Feed.swift:3)")
    #expect(named["shape"] == "ellipse")
    let map = attributes(try #require(nodeLine(dot, "n2")))
    #expect(map["label"] == "Feed · map\nFeed.swift:4")
    #expect(map["shape"] == "box")
    #expect(attributes(try #require(nodeLine(dot, "n6")))["shape"] == "house")
    #expect(attributes(try #require(nodeLine(dot, "n3")))["style"] == "rounded,filled")
    let missing = attributes(try #require(nodeLine(dot, "n99")))
    #expect(missing["label"] == "node #99\nnot in the trace")
    #expect(missing["style"] == "dashed")
  }

  @Test("one edge per pair and kind, labelled with its counts")
  func edges() throws {
    let dot = exportSample.dot()
    let feed = edgeLines(dot, "n1", "n2").map(attributes)
    #expect(feed.count == 2)
    #expect(feed.map { $0["tooltip"] } == ["subscription", "emission"])
    #expect(feed.map { $0["label"] } == ["1 live / 1 ever", "3 events"])
    #expect(
      edgeLines(dot, "n4", "n5").map { attributes($0)["label"] } == ["1 live / 2 ever", "4 events"])
    #expect(edgeLines(dot, "n5", "n1").map { attributes($0)["label"] } == ["1 event"])
    #expect(edgeLines(dot, "n7", "n99").count == 1)

    // Edges recorded twice for one pair and kind add up; an upstream with no recorded edge is
    // drawn without counts.
    var doubled = exportSample
    doubled.edges.append(.init(from: 1, to: 2, kind: .emission, count: 4))
    doubled.nodes[6].upstreams.append(2)
    let again = doubled.dot()
    #expect(
      edgeLines(again, "n1", "n2").map { attributes($0)["label"] } == [
        "1 live / 1 ever", "7 events",
      ])
    let implied = edgeLines(again, "n2", "n7").map(attributes)
    #expect(implied.count == 1)
    #expect(implied.first?["label"] == nil)
    #expect(implied.first?["tooltip"] == "subscription")
  }

  @Test("control edges are dashed, chain edges bold and blue, subscriptions hollow-headed")
  func edgeStyles() throws {
    let dot = exportSample.dot()
    let control = attributes(try #require(edgeLines(dot, "n6", "n7").first))
    #expect(control["style"] == "dashed")
    #expect(control["label"] == "1 live / 1 ever")
    let dashed = dot.split(separator: "\n").filter {
      $0.contains(" -> ") && $0.contains("dashed") && !$0.contains("legend")
    }
    #expect(dashed.count == 1)
    let chain = attributes(try #require(edgeLines(dot, "n3", "n4").first))
    #expect(chain["style"] == "bold")
    #expect(chain["label"] == "3 events")
    let subscription = attributes(try #require(edgeLines(dot, "n4", "n7").first))
    #expect(subscription["arrowhead"] == "empty")
    #expect(subscription["style"] == nil)
    #expect(subscription["color"] == "gray50")
  }

  @Test("the nodes and edges of a structural cycle are red, the others are not")
  func structuralCycle() throws {
    let dot = exportSample.dot()
    for id in ["n1", "n2", "n3", "n4", "n5"] {
      #expect(attributes(try #require(nodeLine(dot, id)))["color"] == "red", "\(id)")
    }
    for id in ["n6", "n7", "n99"] {
      #expect(attributes(try #require(nodeLine(dot, id)))["color"] != "red", "\(id)")
    }
    for (from, to) in [("n1", "n2"), ("n2", "n3"), ("n3", "n4"), ("n4", "n5"), ("n5", "n1")] {
      for line in edgeLines(dot, from, to) {
        #expect(attributes(line)["color"] == "red", "\(line)")
      }
    }
    let chain = attributes(try #require(edgeLines(dot, "n5", "n1").first))
    #expect(chain["style"] == "bold")  // still a chain edge, in red, the heaviest line
    #expect(chain["penwidth"] == "3")
    #expect(attributes(try #require(edgeLines(dot, "n4", "n5").last))["penwidth"] == "2")
    #expect(attributes(try #require(edgeLines(dot, "n4", "n7").first))["color"] == "gray50")
    #expect(attributes(try #require(edgeLines(dot, "n6", "n7").first))["color"] == "gray30")

    var acyclic = exportSample
    acyclic.edges.removeAll { $0.kind == .chain && $0.from == 5 }
    #expect(
      !acyclic.dot().split(separator: "\n").contains {
        $0.contains("red") && !$0.contains("legend")
      })
  }

  @Test("a re-entrant delivery without a structural cycle marks nothing: cycles lists no cycle")
  func dynamicCycle() throws {
    // subject(1) -> subscribe(2); the subscriber sent back into the subject while the subject's
    // delivery to it was running, but no chain edge was recorded.
    let graph = TraceGraph(
      nodes: [
        .init(id: 1, kind: "PublishSubject", role: .subject, file: "A/A.swift", line: 1),
        .init(id: 2, kind: "subscribe", role: .terminal, file: "A/B.swift", line: 2),
        .init(id: 3, kind: "map", role: .operator, file: "A/B.swift", line: 3, upstreams: [1]),
      ],
      edges: [
        .init(from: 1, to: 2, kind: .emission, count: 2),
        .init(from: 1, to: 3, kind: .emission, count: 2),
      ],
      deliveries: [
        .init(id: 1, from: 1, to: 2, event: .next),
        .init(id: 2, from: 2, to: 1, event: .next, cause: 1),
        .init(id: 3, from: 1, to: 2, event: .next, cause: 2),
      ])
    #expect(graph.structuralCycles().isEmpty)
    #expect(graph.dynamicCycles().count == 1)
    let dot = graph.dot()
    try ExportFiles.write(dot, as: "dot-reentrant.dot")
    #expect(attributes(try #require(nodeLine(dot, "n1")))["color"] == nil)
    #expect(attributes(try #require(nodeLine(dot, "n2")))["color"] == nil)
    #expect(attributes(try #require(nodeLine(dot, "n3")))["color"] == nil)
    #expect(attributes(try #require(edgeLines(dot, "n1", "n2").first))["color"] != "red")
    let quiet = edgeLines(dot, "n1", "n3").map(attributes)
    #expect(quiet.map { $0["tooltip"] } == ["subscription", "emission"])
    #expect(quiet.map { $0["color"] } == ["gray50", "black"])
  }

  @Test("hostile names are quoted and escaped, and read back as written")
  func escaping() throws {
    let dot = hostileGraph.dot()
    try ExportFiles.write(dot, as: "dot-hostile.dot", showing: hostileLiterals)
    #expect(quotesBalance(dot))
    // Every statement is one line: the newline in a name is written `\n`.
    #expect(dot.split(separator: "\n").allSatisfy { !$0.hasPrefix("break") })
    let first = attributes(try #require(nodeLine(dot, "n1")))
    #expect(first["label"] == "Evil\"Owner\\ · a --> b ---o c ---x d | e\nend  Fi le\\[x].swift:1")
    #expect(dot.contains(#"label="Evil\"Owner\\ · a --> b"#))
    let second = attributes(try #require(nodeLine(dot, "n2")))
    #expect(second["label"] == "&lt; #quot; &amp; · <script>alert(1)</script>\nOther.swift:2")
    #expect(dot.contains("&amp;lt; #quot; &amp;amp;"))  // Graphviz would decode a bare `&lt;`
    let fourth = attributes(try #require(nodeLine(dot, "n4")))
    #expect(fourth["label"] == "line\nbreak · bell\\u{7}tab\\u{9}end\nemoji 😀 é 漢字  Ёж.swift:4")
    #expect(!dot.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    #expect(clusterPath(of: "n1", in: dot) == ["Evil\"Mod", "Fi le\\[x].swift"])
    #expect(clusterPath(of: "n2", in: dot) == ["Evil\"Mod", "Other.swift"])
    #expect(clusterPath(of: "n3", in: dot) == ["Plain.swift"])
    #expect(clusterPath(of: "n4", in: dot) == ["Ünïcode", "Ёж.swift"])

    // The dump tests' graph: control characters of every kind, an empty file, huge numbers.
    let awkward = TraceGraphDumpTests.rich.dot()
    try ExportFiles.write(awkward, as: "dot-awkward.dot")
    #expect(quotesBalance(awkward))
    #expect(!awkward.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
  }

  @Test("a long name is cut in the label and kept whole in the tooltip")
  func longNames() throws {
    let long = String(repeating: "VeryLongOwnerName", count: 10)
    let graph = TraceGraph(nodes: [
      .init(id: 1, kind: "map", role: .operator, file: "A/A.swift", line: 1, owner: long)
    ])
    let box = attributes(try #require(nodeLine(graph.dot(), "n1")))
    #expect(box["label"] == String(long.prefix(60)) + "… · map\nA.swift:1")
    #expect(box["tooltip"] == "map A/A.swift:1 (\(long))")
  }

  @Test("focus and depth draw the focus and its neighbourhood over every kind of edge")
  func focusAndDepth() throws {
    let one = exportSample.dot(GraphExportOptions(focus: "HeaderView", depth: 1))
    try ExportFiles.write(one, as: "dot-focus-depth1.dot")
    // bind(5)'s neighbours: its upstream relay(4), and refresh(1), which it sends into.
    #expect(boxIDs(one).sorted() == ["n1", "n4", "n5"])
    #expect(one.contains("// focus: 1 node matched; 3 of 8 nodes within 1 edge"))
    #expect(edgeLines(one, "n4", "n5").count == 2)
    #expect(edgeLines(one, "n5", "n1").count == 1)
    #expect(edgeLines(one, "n3", "n4").isEmpty)  // n3 is not drawn

    let zero = exportSample.dot(GraphExportOptions(focus: .kind("take(until:)"), depth: 0))
    #expect(boxIDs(zero) == ["n7"])
    #expect(!zero.split(separator: "\n").contains { $0.contains(" -> ") && !$0.contains("legend") })
    // Control edges count as hops: the timer is one hop from take(until:).
    let control = exportSample.dot(GraphExportOptions(focus: .owner("Timer"), depth: 1))
    #expect(boxIDs(control).sorted() == ["n6", "n7"])
    let two = exportSample.dot(GraphExportOptions(focus: .owner("Timer"), depth: 2))
    #expect(boxIDs(two).sorted() == ["n4", "n6", "n7", "n99"])
    let unlimited = exportSample.dot(GraphExportOptions(focus: .owner("Timer")))
    #expect(boxIDs(unlimited).count == 8)
    #expect(unlimited.contains("8 of 8 nodes connected"))

    let none = exportSample.dot(GraphExportOptions(focus: "Nobody", depth: 3))
    try ExportFiles.write(none, as: "dot-focus-none.dot")
    #expect(none.contains("// focus: 0 nodes matched"))
    #expect(none.contains(#""empty" [shape="plaintext", label="no node matches the focus"]"#))
    #expect(!none.split(separator: "\n").contains { $0.contains(" -> ") && !$0.contains("legend") })
    let empty = TraceGraph().dot()
    try ExportFiles.write(empty, as: "dot-empty.dot")
    #expect(empty.contains("the trace has no node"))
  }

  @Test("collapse by owner merges each owner's nodes into one box, adding edge counts up")
  func collapseOwner() throws {
    let dot = exportSample.dot(GraphExportOptions(collapse: .owner))
    try ExportFiles.write(dot, as: "dot-collapse-owner.dot")
    let boxes = boxIDs(dot)
    #expect(boxes.count == 5)  // Feed, Header, HeaderView, Timer, node #99
    let labels = boxes.compactMap { nodeLine(dot, $0) }.map { attributes($0)["label"] ?? "" }
    #expect(
      Set(labels)
        == [
          "Feed\n3 nodes in Feed.swift\n3 on a cycle",
          "Header\n2 nodes in Header.swift\n1 on a cycle",
          "HeaderView\n1 node in Header.swift\n1 on a cycle", "Timer\n1 node in Timer.swift",
          "node #99\nnot in the trace",
        ])
    func box(_ label: String) throws -> String {
      try #require(boxes.first { attributes(nodeLine(dot, $0) ?? "")["label"] == label })
    }
    let feed = try box("Feed\n3 nodes in Feed.swift\n3 on a cycle")
    let header = try box("Header\n2 nodes in Header.swift\n1 on a cycle")
    let view = try box("HeaderView\n1 node in Header.swift\n1 on a cycle")
    #expect(clusterPath(of: feed, in: dot) == ["App", "Feed.swift"])
    #expect(attributes(try #require(nodeLine(dot, feed)))["shape"] == "box3d")
    #expect(attributes(try #require(nodeLine(dot, feed)))["color"] == "red")
    #expect(edgeLines(dot, feed, feed).isEmpty)  // edges inside a box are left out
    #expect(edgeLines(dot, feed, header).map { attributes($0)["label"] } == ["3 events"])
    #expect(
      edgeLines(dot, header, view).map { attributes($0)["label"] } == [
        "1 live / 2 ever", "4 events",
      ])
    #expect(dot.contains("// collapsed by owner: 8 nodes in 5 boxes"))
  }

  @Test("collapse by file merges every node of a file and sums the edges between files")
  func collapseFile() throws {
    // Two nodes of A.swift both feed one node of B.swift.
    let graph = TraceGraph(
      nodes: [
        .init(id: 1, kind: "map", role: .operator, file: "M/A.swift", line: 1, owner: "A"),
        .init(id: 2, kind: "filter", role: .operator, file: "M/A.swift", line: 2, owner: "A2"),
        .init(id: 3, kind: "merge", role: .operator, file: "M/B.swift", line: 3, owner: "B"),
      ],
      edges: [
        .init(from: 1, to: 3, kind: .subscription, count: 1, live: 1),
        .init(from: 1, to: 3, kind: .emission, count: 2),
        .init(from: 2, to: 3, kind: .subscription, count: 3, live: 1),
        .init(from: 2, to: 3, kind: .emission, count: 5),
        .init(from: 1, to: 2, kind: .emission, count: 9),
      ])
    let dot = graph.dot(GraphExportOptions(collapse: .file))
    try ExportFiles.write(dot, as: "dot-collapse-file.dot")
    #expect(boxIDs(dot) == ["g0", "g1"])
    #expect(attributes(try #require(nodeLine(dot, "g0")))["label"] == "A.swift\n2 nodes")
    #expect(clusterPath(of: "g0", in: dot) == ["M"])  // a file's box sits in its module
    #expect(
      edgeLines(dot, "g0", "g1").map { attributes($0)["label"] } == ["2 live / 4 ever", "7 events"])
    #expect(edgeLines(dot, "g0", "g0").isEmpty)

    let sample = exportSample.dot(GraphExportOptions(collapse: .file))
    try ExportFiles.write(sample, as: "dot-sample-collapse-file.dot")
    #expect(boxIDs(sample).count == 4)  // Feed.swift, Header.swift, Timer.swift, node #99
  }

  @Test("the sprawl fixture: clusters per file, the cross-file chain, the cycle in red")
  func sprawl() throws {
    let graph = TraceRecorderTests.Sprawl().graph
    let dot = graph.dot()
    try ExportFiles.write(dot, as: "dot-sprawl.dot")
    #expect(quotesBalance(dot))
    let analytics = try #require(
      graph.nodes.first { $0.kind == "subscribe" && $0.owner == "Analytics" })
    let selection = try #require(
      graph.nodes.first { $0.kind == "PublishSubject" && $0.owner == "CatalogViewModel" })
    #expect(
      clusterPath(of: "n\(analytics.id)", in: dot) == ["StreamsTraceTests", "Analytics.swift"])
    #expect(
      clusterPath(of: "n\(selection.id)", in: dot)
        == ["StreamsTraceTests", "CatalogViewModel.swift"])
    let back = attributes(
      try #require(edgeLines(dot, "n\(analytics.id)", "n\(selection.id)").first))
    #expect(back["label"] == "1 event")
    #expect(back["style"] == "bold")
    #expect(back["color"] == "red")
    #expect(back["penwidth"] == "3")
    #expect(
      attributes(try #require(nodeLine(dot, "n\(selection.id)")))["label"]
        == "CatalogViewModel.selection\nPublishSubject  CatalogViewModel.swift:5")
    // One edge line per (from, to, kind) of the graph.
    #expect(
      dot.split(separator: "\n").filter { $0.contains(" -> ") && !$0.contains("\"legend") }.count
        == graph.edges.count)

    let owners = graph.dot(GraphExportOptions(collapse: .owner))
    try ExportFiles.write(owners, as: "dot-sprawl-owner.dot")
    #expect(boxIDs(owners).count == 5)
    let focused = graph.dot(GraphExportOptions(focus: "CartBadge", depth: 1))
    try ExportFiles.write(focused, as: "dot-sprawl-focus.dot")
    #expect(focused.contains("focus: 3 nodes matched"))
  }
}
