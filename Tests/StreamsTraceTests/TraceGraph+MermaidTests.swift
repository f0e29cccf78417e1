import Foundation
import StreamsTrace
import Testing

@Suite("TraceGraph Mermaid export", .serialized)
struct TraceGraphMermaidTests {
  @Test("a flowchart LR with nested subgraphs per module and file")
  func subgraphs() throws {
    let text = exportSample.mermaid()
    try ExportFiles.write(text, as: "mermaid-sample.mmd")
    #expect(text.hasPrefix("flowchart LR\n  %% StreamsTrace graph: 8 boxes, 11 edges\n"))
    #expect(subgraphPath(of: "n1", in: text) == ["App", "Feed.swift"])
    #expect(subgraphPath(of: "n5", in: text) == ["App", "Header.swift"])
    #expect(subgraphPath(of: "n6", in: text) == ["Kit", "Timer.swift"])
    #expect(subgraphPath(of: "n99", in: text) == [])
    let lines = statements(text)
    #expect(lines.filter { $0.hasPrefix("subgraph ") }.count == 5)
    #expect(lines.filter { $0 == "end" }.count == 5)
  }

  @Test("boxes: shapes by role, labels owner · kind over file:line, escaped and read back")
  func labels() throws {
    let drawn = boxes(exportSample.mermaid())
    #expect(Set(drawn.keys) == ["n1", "n2", "n3", "n4", "n5", "n6", "n7", "n99"])
    #expect(drawn["n1"]?.shape == "([")
    #expect(drawn["n1"]?.label == "Feed.refresh\nPublishSubject  Feed.swift:3")
    #expect(drawn["n2"]?.shape == "[")
    #expect(drawn["n2"]?.label == "Feed · map\nFeed.swift:4")
    #expect(drawn["n3"]?.shape == "[[")
    #expect(drawn["n6"]?.shape == ">")
    #expect(drawn["n99"]?.label == "node #99\nnot in the trace")
    #expect(classed(exportSample.mermaid(), "missing") == ["n99"])
  }

  @Test("one link per pair and kind, with counts; arrows tell the kinds apart")
  func edges() throws {
    let all = links(exportSample.mermaid())
    #expect(all.count == 11)
    #expect(
      all.filter { $0.from == "n1" && $0.to == "n2" }
        == [
          Link(from: "n1", arrow: "--o", label: "1 live / 1 ever", to: "n2"),
          Link(from: "n1", arrow: "-->", label: "3 events", to: "n2"),
        ])
    #expect(all.contains(Link(from: "n6", arrow: "-.->", label: "1 live / 1 ever", to: "n7")))
    #expect(all.contains(Link(from: "n3", arrow: "==>", label: "3 events", to: "n4")))
    #expect(all.contains(Link(from: "n4", arrow: "--o", label: "1 live / 2 ever", to: "n5")))
    #expect(all.filter { $0.arrow == "-.->" }.count == 1)

    var doubled = exportSample
    doubled.edges.append(.init(from: 3, to: 4, kind: .chain, count: 5))
    doubled.nodes[6].upstreams.append(2)
    let again = links(doubled.mermaid())
    #expect(again.filter { $0.from == "n3" && $0.to == "n4" }.map(\.label) == ["8 events"])
    #expect(again.contains(Link(from: "n2", arrow: "--o", label: nil, to: "n7")))
  }

  @Test("cycle boxes and links are red; chain links off the cycle are blue")
  func cycles() throws {
    let text = exportSample.mermaid()
    #expect(classed(text, "cycle") == ["n1", "n2", "n3", "n4", "n5"])
    let all = links(text)
    let onCycle: Set<String> = ["n1", "n2", "n3", "n4", "n5"]
    let expected = all.indices.filter {
      onCycle.contains(all[$0].from) && onCycle.contains(all[$0].to) && all[$0].arrow != "-.->"
    }
    #expect(expected.count == 8)
    let chains = expected.filter { all[$0].arrow == "==>" }
    #expect(chains.count == 2)  // 3 -> 4 and 5 -> 1 close the cycle: the thickest red
    #expect(
      styledLinks(text, "stroke:red,stroke-width:2px,color:red")
        == expected.filter { !chains.contains($0) })
    #expect(styledLinks(text, "stroke:red,stroke-width:4px,color:red") == chains)
    #expect(styledLinks(text, "stroke:blue,color:blue").isEmpty)

    var acyclic = exportSample
    acyclic.edges.removeAll { $0.kind == .chain && $0.from == 5 }
    let open = acyclic.mermaid()
    #expect(classed(open, "cycle").isEmpty)
    #expect(!open.split(separator: "\n").contains { $0.contains("red") && !$0.contains("legend") })
    let chain = links(open).firstIndex { $0.from == "n3" && $0.to == "n4" }
    #expect(styledLinks(open, "stroke:blue,color:blue") == [try #require(chain)])
  }

  @Test("hostile names: generated ids, quoted labels of safe characters, read back as written")
  func escaping() throws {
    let text = hostileGraph.mermaid()
    try ExportFiles.write(text, as: "mermaid-hostile.mmd", showing: hostileLiterals)
    #expect(text.unicodeScalars.allSatisfy { $0.isASCII })
    let drawn = boxes(text)
    #expect(Set(drawn.keys) == ["n1", "n2", "n3", "n4"])
    #expect(
      drawn["n1"]?.label == "Evil\"Owner\\ · a --> b ---o c ---x d | e\nend  Fi le\\[x].swift:1")
    #expect(drawn["n2"]?.label == "&lt; #quot; &amp; · <script>alert(1)</script>\nOther.swift:2")
    #expect(
      drawn["n3"]?.label
        == "%%{init: {\"theme\": \"dark\"}}%% · style x:y#z; [a]{b}(c)\nsubgraph  Plain.swift:3")
    #expect(drawn["n4"]?.label == "line\nbreak · bell\\u{7}tab\\u{9}end\nemoji 😀 é 漢字  Ёж.swift:4")
    // Every statement is a known form; `end` and `subgraph` appear only as the keywords.
    for line in statements(text) {
      let known =
        line == "flowchart LR" || line == "end" || line.hasPrefix("subgraph s")
        || line.hasPrefix("classDef ") || line.hasPrefix("class ") || line.hasPrefix("linkStyle ")
        || boxes(line).count == 1 || links(line).count == 1 || line.hasPrefix("legend")
      #expect(known, "\(line)")
    }
    #expect(subgraphPath(of: "n1", in: text) == ["Evil\"Mod", "Fi le\\[x].swift"])
    #expect(subgraphPath(of: "n4", in: text) == ["Ünïcode", "Ёж.swift"])
    #expect(links(text).count == 6)  // 2 -> 3 twice: its emissions, and its upstream list
    #expect(!text.contains("%%{"))

    let awkward = TraceGraphDumpTests.rich.mermaid()
    try ExportFiles.write(awkward, as: "mermaid-awkward.mmd")
    #expect(awkward.unicodeScalars.allSatisfy { $0.isASCII })
    #expect(boxes(awkward).values.allSatisfy { $0.label != nil })
  }

  @Test("focus, depth and collapse pick and merge the same boxes as the DOT export")
  func focusDepthCollapse() throws {
    let one = exportSample.mermaid(GraphExportOptions(focus: "HeaderView", depth: 1))
    try ExportFiles.write(one, as: "mermaid-focus-depth1.mmd")
    #expect(Set(boxes(one).keys) == ["n1", "n4", "n5"])
    #expect(one.contains("%% focus: 1 node matched; 3 of 8 nodes within 1 edge"))
    let none = exportSample.mermaid(GraphExportOptions(focus: "Nobody"))
    try ExportFiles.write(none, as: "mermaid-focus-none.mmd")
    #expect(boxes(none)["placeholder"]?.label == "no node matches the focus")
    #expect(links(none).isEmpty)

    let owners = exportSample.mermaid(GraphExportOptions(collapse: .owner))
    try ExportFiles.write(owners, as: "mermaid-collapse-owner.mmd")
    let merged = boxes(owners)
    #expect(merged.count == 5)
    let feed = try #require(
      merged.first { $0.value.label == "Feed\n3 nodes in Feed.swift\n3 on a cycle" }?.key)
    let header = try #require(
      merged.first { $0.value.label == "Header\n2 nodes in Header.swift\n1 on a cycle" }?.key)
    #expect(merged[feed]?.shape == "{{")
    #expect(subgraphPath(of: feed, in: owners) == ["App", "Feed.swift"])
    #expect(
      links(owners).filter { $0.from == feed && $0.to == header }.map(\.label) == ["3 events"])
    #expect(links(owners).allSatisfy { $0.from != $0.to })
    #expect(classed(owners, "merged").count == 4)
    #expect(!owners.contains("auto-collapsed"))  // small enough as asked

    let files = exportSample.mermaid(GraphExportOptions(collapse: .file))
    try ExportFiles.write(files, as: "mermaid-collapse-file.mmd")
    #expect(boxes(files).count == 4)
    #expect(files.contains("%% collapsed by file: 8 nodes in 4 boxes"))
  }

  @Test("a 2,000-node graph collapses by owner, under 500 edges and 50,000 characters")
  func autoCollapse() throws {
    let graph = generated(modules: 4, files: 10, owners: 5, chain: 10, fanOut: 1)
    #expect(graph.nodes.count == 2000)
    #expect(graph.edges.count == 3800)
    let text = graph.mermaid()
    try ExportFiles.write(text, as: "mermaid-generated-2000.mmd")
    #expect(text.utf16.count < 50_000)
    let drawn = links(text)
    #expect(drawn.count <= 500)
    #expect(text.contains("%% auto-collapsed by owner to stay within Mermaid's limits"))
    #expect(boxes(text).count == 200)
    #expect(!text.contains("dropped"))
    // 192 of the 200 edges join two files: too many for Mermaid's layout with subgraphs.
    #expect(
      text.contains(
        "%% no subgraphs: 192 edges cross files, over the 50 that Mermaid's layout handles "
          + "reliably with subgraphs"))
    #expect(!statements(text).contains { $0.hasPrefix("subgraph") })
    #expect(drawn.allSatisfy { $0.arrow == "==>" })  // only the chains cross owners

    // With every subscriber fanning out to 3 owners, the owners have too many links between
    // them: the files (or modules) take over.
    let dense = generated(modules: 4, files: 10, owners: 5, chain: 10, fanOut: 3).mermaid()
    try ExportFiles.write(dense, as: "mermaid-generated-dense.mmd")
    #expect(dense.utf16.count < 50_000)
    #expect(links(dense).count <= 500)
    #expect(
      dense.contains("%% auto-collapsed by file") || dense.contains("%% auto-collapsed by module"))
    #expect(!dense.contains("auto-collapsed by owner"))
  }

  @Test("subgraphs are left out when more than 50 edges cross them")
  func subgraphBound() throws {
    /// A ring of `count` nodes, each in a file of its own.
    func ring(_ count: Int) -> TraceGraph {
      TraceGraph(
        nodes: (0..<count).map {
          .init(id: UInt64($0), kind: "map", role: .operator, file: "Ring/F\($0).swift", line: 1)
        },
        edges: (0..<count).map {
          .init(from: UInt64($0), to: UInt64(($0 + 1) % count), kind: .emission, count: 1)
        })
    }
    let fifty = ring(50).mermaid()
    try ExportFiles.write(fifty, as: "mermaid-ring-50.mmd")
    #expect(statements(fifty).filter { $0.hasPrefix("subgraph ") }.count == 51)
    #expect(subgraphPath(of: "n7", in: fifty) == ["Ring", "F7.swift"])
    #expect(!fifty.contains("no subgraphs"))
    let fiftyOne = ring(51).mermaid()
    try ExportFiles.write(fiftyOne, as: "mermaid-ring-51.mmd")
    #expect(!statements(fiftyOne).contains { $0.hasPrefix("subgraph") })
    #expect(fiftyOne.contains("%% no subgraphs: 51 edges cross files"))
    #expect(boxes(fiftyOne).count == 51)
    #expect(links(fiftyOne).count == 51)

    // The generated app's shape, whose 200 crossing edges break Mermaid's layout, at the bound:
    // 50 owners, each sending into another's subject, one box per owner.
    let app = generated(modules: 2, files: 5, owners: 5, chain: 3, fanOut: 1)
    let owners = app.mermaid(GraphExportOptions(collapse: .owner))
    try ExportFiles.write(owners, as: "mermaid-generated-50-owners.mmd")
    #expect(statements(owners).contains { $0.hasPrefix("subgraph") })
    #expect(links(owners).count <= 50)
  }

  @Test("when no grouping fits, the lowest-count edges are dropped, and a comment says so")
  func dropEdges() throws {
    // 600 modules of one node: a ring of emissions (counts 1...600) and chains (1000...1599).
    var graph = TraceGraph()
    for index in 0..<600 {
      graph.nodes.append(
        .init(
          id: UInt64(index), kind: "map", role: .operator, file: "M\(index)/F.swift", line: 1))
      graph.edges.append(
        .init(from: UInt64(index), to: UInt64((index + 1) % 600), kind: .emission, count: index + 1)
      )
      graph.edges.append(
        .init(
          from: UInt64(index), to: UInt64((index + 13) % 600), kind: .chain, count: 1000 + index))
    }
    let text = graph.mermaid()
    try ExportFiles.write(text, as: "mermaid-dropped-edges.mmd")
    #expect(text.utf16.count < 50_000)
    // As many of the heaviest edges as fit in the characters left (the legend takes some).
    let kept = links(text)
    #expect(kept.count > 450 && kept.count <= 500)
    let lowest = 1599 - (kept.count - 1)
    #expect(
      text.contains(
        "%% dropped \(1200 - kept.count) of 1200 edges with the lowest counts to stay within "
          + "Mermaid's limits (500 edges, 50000 characters); the edges kept count at least \(lowest)"
      ))
    #expect(kept.allSatisfy { (leadingCount($0.label) ?? 0) >= lowest })
    #expect(boxes(text).count == 600)
  }

  @Test("when even the coarsest boxes are too many, the quietest boxes go too")
  func dropBoxes() throws {
    var graph = TraceGraph()
    for index in 0..<3000 {
      graph.nodes.append(
        .init(
          id: UInt64(index), kind: "filter", role: .operator, file: "Module\(index)/F.swift",
          line: 1))
      graph.edges.append(
        .init(
          from: UInt64(index), to: UInt64((index + 1) % 3000), kind: .emission, count: index))
    }
    let text = graph.mermaid()
    try ExportFiles.write(text, as: "mermaid-dropped-boxes.mmd")
    #expect(text.utf16.count < 50_000)
    #expect(links(text).count <= 500)
    #expect(text.contains("boxes with the least traffic, and their edges, to stay within"))
    let drawn = boxes(text)
    #expect(drawn.count > 100)
    #expect(drawn.count < 3000)
  }

  @Test("the sprawl fixture, node by node, by owner and by file")
  func sprawl() throws {
    let graph = TraceRecorderTests.Sprawl().graph
    let text = graph.mermaid()
    try ExportFiles.write(text, as: "mermaid-sprawl.mmd")
    #expect(links(text).count == graph.edges.count)
    let analytics = try #require(
      graph.nodes.first { $0.kind == "subscribe" && $0.owner == "Analytics" })
    let selection = try #require(
      graph.nodes.first { $0.kind == "PublishSubject" && $0.owner == "CatalogViewModel" })
    let back = try #require(
      links(text).firstIndex { $0.from == "n\(analytics.id)" && $0.to == "n\(selection.id)" })
    #expect(links(text)[back].arrow == "==>")
    #expect(links(text)[back].label == "1 event")
    #expect(styledLinks(text, "stroke:red,stroke-width:4px,color:red").contains(back))
    #expect(
      subgraphPath(of: "n\(selection.id)", in: text)
        == ["StreamsTraceTests", "CatalogViewModel.swift"])
    #expect(
      boxes(text)["n\(selection.id)"]?.label
        == "CatalogViewModel.selection\nPublishSubject  CatalogViewModel.swift:5")

    let owners = graph.mermaid(GraphExportOptions(collapse: .owner))
    try ExportFiles.write(owners, as: "mermaid-sprawl-owner.mmd")
    #expect(boxes(owners).count == 5)
    let files = graph.mermaid(GraphExportOptions(collapse: .file))
    try ExportFiles.write(files, as: "mermaid-sprawl-file.mmd")
    #expect(boxes(files).count == 5)
    let focused = graph.mermaid(GraphExportOptions(focus: "CartBadge", depth: 1))
    try ExportFiles.write(focused, as: "mermaid-sprawl-focus.mmd")
    #expect(focused.contains("focus: 3 nodes matched"))
  }
}
