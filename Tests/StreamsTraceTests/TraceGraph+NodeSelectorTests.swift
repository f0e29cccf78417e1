import StreamsTrace
import Testing

/// Two files; node 1 is named, node 6 is in a file whose name ends like another's.
private let graph = TraceGraph(nodes: [
  .init(
    id: 1, kind: "BehaviorSubject", role: .subject, file: "App/Cart.swift", line: 5,
    owner: "Cart", name: "Cart.items"),
  .init(
    id: 2, kind: "map", role: .operator, file: "App/CartBadge.swift", line: 9, owner: "CartBadge"),
  .init(
    id: 3, kind: "subscribe(with:)", role: .terminal, file: "App/CartBadge.swift", line: 11,
    owner: "CartBadge"),
  .init(id: 4, kind: "map", role: .operator, file: "App/Cart.swift", line: 9, owner: "Cart"),
  .init(id: 5, kind: "PublishSubject", role: .subject, file: "App/Log.swift", line: 3),
  .init(id: 6, kind: "map", role: .operator, file: "App/MyCart.swift", line: 9, owner: "MyCart"),
])

@Suite("TraceGraph node selectors")
struct TraceGraphNodeSelectorTests {
  @Test("a string literal selects by owner or by name")
  func stringLiteral() {
    #expect(graph.nodes(matching: "CartBadge").map(\.id) == [2, 3])
    #expect(graph.nodes(matching: "Cart").map(\.id) == [1, 4])
    #expect(graph.nodes(matching: "Cart.items").map(\.id) == [1])
    #expect(graph.nodes(matching: "Nobody").isEmpty)
    let selector: TraceGraph.NodeSelector = "Cart"
    #expect(selector == .ownerOrName("Cart"))
  }

  @Test("each field narrows the match; chained refinements combine")
  func fields() {
    #expect(graph.nodes(matching: .kind("map")).map(\.id) == [2, 4, 6])
    #expect(graph.nodes(matching: .kind("map").owner("Cart")).map(\.id) == [4])
    #expect(graph.nodes(matching: .owner("Cart").kind("map")).map(\.id) == [4])
    #expect(graph.nodes(matching: .role(.subject)).map(\.id) == [1, 5])
    #expect(graph.nodes(matching: .role(.subject).owner("Cart")).map(\.id) == [1])
    #expect(graph.nodes(matching: .named("Cart.items")).map(\.id) == [1])
    #expect(graph.nodes(matching: .owner("Cart.items")).isEmpty)
    #expect(graph.nodes(matching: .id(5)).map(\.id) == [5])
    #expect(graph.nodes(matching: .kind("map").line(9).owner("CartBadge")).map(\.id) == [2])
    #expect(graph.nodes(matching: .any).count == graph.nodes.count)
    #expect(graph.nodes(matching: .kind("map").id(4).role(.operator)).map(\.id) == [4])
    #expect(graph.nodes(matching: .kind("map").named("Cart.items")).isEmpty)
    #expect(graph.nodes(matching: .kind("map").ownerOrName("MyCart")).map(\.id) == [6])
  }

  @Test("a file matches whole path components from the end")
  func files() {
    #expect(graph.nodes(matching: .file("Cart.swift")).map(\.id) == [1, 4])
    #expect(graph.nodes(matching: .file("App/Cart.swift")).map(\.id) == [1, 4])
    #expect(graph.nodes(matching: .file("art.swift")).isEmpty)
    #expect(graph.nodes(matching: .file("Cart.swift", line: 9)).map(\.id) == [4])
    #expect(graph.nodes(matching: .kind("map").file("CartBadge.swift")).map(\.id) == [2])
    #expect(graph.nodes(matching: .kind("map").file("Cart.swift", line: 9)).map(\.id) == [4])
  }

  @Test("an owner type is named as the recorder names it")
  func ownerType() {
    final class CartBadge {}
    #expect(TraceGraph.NodeSelector.owner(CartBadge.self) == .owner("CartBadge"))
    #expect(graph.nodes(matching: .owner(CartBadge.self)).map(\.id) == [2, 3])
    #expect(graph.nodes(matching: .kind("map").owner(CartBadge.self)).map(\.id) == [2])
  }

  @Test("descriptions name the fields set, for failure messages")
  func descriptions() {
    #expect(TraceGraph.NodeSelector.any.description == "any node")
    #expect(("Cart" as TraceGraph.NodeSelector).description == #"owner or name "Cart""#)
    #expect(
      TraceGraph.NodeSelector.kind("map").owner("Cart").file("Cart.swift", line: 9).description
        == #"kind "map", owner "Cart", file "Cart.swift", line 9"#)
    #expect(
      TraceGraph.NodeSelector(id: 1, role: .subject, name: "Cart.items").description
        == #"id 1, role subject, name "Cart.items""#)
  }

  @Test("selected nodes print one a line")
  func nodeList() {
    #expect(
      graph.nodes(matching: .kind("map")).description
        == """
        map App/CartBadge.swift:9 (CartBadge)
        map App/Cart.swift:9 (Cart)
        map App/MyCart.swift:9 (MyCart)
        """)
  }
}
