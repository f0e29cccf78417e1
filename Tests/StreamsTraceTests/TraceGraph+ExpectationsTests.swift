import StreamsTrace
import Testing

private typealias Node = TraceGraph.Node
private typealias Edge = TraceGraph.Edge

private func node(
  _ id: UInt64, _ kind: String, _ role: TraceGraph.Role = .operator, file: String,
  owner: String? = nil, name: String? = nil, upstreams: [UInt64] = []
) -> Node {
  Node(
    id: id, kind: kind, role: role, file: file, line: UInt(id), owner: owner, name: name,
    upstreams: upstreams)
}

private func edge(
  _ from: UInt64, _ to: UInt64, _ kind: TraceGraph.EdgeKind = .subscription, count: Int = 1
) -> Edge {
  Edge(from: from, to: to, kind: kind, count: count, live: kind == .subscription ? 1 : 0)
}

/// Two files, no cycle; the header view's owner is gone while its subscription is live.
///
///     refresh(1) -> map(2) -> subscribe(3) =chain=> relay(4) -> bind(5)
private let feed = TraceGraph(
  nodes: [
    node(1, "PublishSubject", .subject, file: "Feed.swift", owner: "Feed", name: "Feed.refresh"),
    node(2, "map", file: "Feed.swift", owner: "Feed", upstreams: [1]),
    node(3, "subscribe", .terminal, file: "Feed.swift", owner: "Feed", upstreams: [2]),
    node(4, "BehaviorRelay", .subject, file: "Header.swift", owner: "Header"),
    node(5, "bind(to:)", .terminal, file: "Header.swift", owner: "HeaderView", upstreams: [4]),
  ],
  edges: [
    edge(1, 2), edge(1, 2, .emission, count: 3), edge(2, 3), edge(2, 3, .emission, count: 3),
    edge(3, 4, .chain, count: 3), edge(4, 5), edge(4, 5, .emission, count: 4),
  ],
  subscriptions: [
    .init(id: 1, node: 2, subscriber: 3, owner: "Feed", file: "Feed.swift", line: 3),
    .init(
      id: 2, node: 4, subscriber: 5, owner: "HeaderView", ownerGone: true, file: "Header.swift",
      line: 5),
  ])

/// `feed` closed into a cycle: the header's binding sends back into the refresh subject, and one
/// delivery came back round to the subscriber while it was running.
private let cyclic: TraceGraph = {
  var graph = feed
  graph.edges.append(edge(5, 1, .chain, count: 1))
  graph.deliveries = [
    .init(id: 1, from: 1, to: 3, event: .next),
    .init(id: 2, from: 3, to: 4, event: .next, cause: 1),
    .init(id: 3, from: 5, to: 1, event: .next, cause: 2),
    .init(id: 4, from: 1, to: 3, event: .next, cause: 3),
  ]
  return graph
}()

@Suite("TraceGraph expectations")
struct TraceGraphExpectationsTests {
  // MARK: - Edges

  @Test("edgeFailure is nil when some matching pair has an edge of the kind")
  func edgePasses() {
    #expect(feed.edgeFailure(from: "Feed", to: "Header") == nil)
    #expect(feed.edgeFailure(from: "Feed", to: "Header", kind: .chain) == nil)
    #expect(feed.edgeFailure(from: .kind("map"), to: .kind("subscribe"), kind: .emission) == nil)
    #expect(feed.edgeFailure(from: "Feed.refresh", to: .any, kind: .subscription) == nil)
  }

  @Test("edgeFailure names the selectors and prints each side's nodes with their edges")
  func edgeFails() throws {
    let message = try #require(feed.edgeFailure(from: "Header", to: "Feed"))
    #expect(
      message == """
        expected an edge from owner or name "Header" to owner or name "Feed", found none
        from: 1 node matches owner or name "Header":
          BehaviorRelay Header.swift:4 (Header)
            in:  <- subscribe Feed.swift:3 (Feed): chain ×3
            out: -> bind(to:) Header.swift:5 (HeaderView): subscription ×1 (1 live), emission ×4
        to: 3 nodes match owner or name "Feed":
          Feed.refresh (PublishSubject Feed.swift:1)
            out: -> map Feed.swift:2 (Feed): subscription ×1 (1 live), emission ×3
          map Feed.swift:2 (Feed)
            in:  <- Feed.refresh (PublishSubject Feed.swift:1): subscription ×1 (1 live), emission ×3
            out: -> subscribe Feed.swift:3 (Feed): subscription ×1 (1 live), emission ×3
          subscribe Feed.swift:3 (Feed)
            in:  <- map Feed.swift:2 (Feed): subscription ×1 (1 live), emission ×3
            out: -> BehaviorRelay Header.swift:4 (Header): chain ×3
        """)
  }

  @Test("edgeFailure with a kind lists the edges of other kinds between the two sides")
  func edgeOfOtherKind() throws {
    let message = try #require(
      feed.edgeFailure(from: .kind("map"), to: .kind("subscribe"), kind: .chain))
    #expect(
      message.hasPrefix(
        """
        expected a chain edge from kind "map" to kind "subscribe", found none
        edges of other kinds between them:
          map Feed.swift:2 (Feed) -> subscribe Feed.swift:3 (Feed): subscription ×1 (1 live), \
        emission ×3
        from: 1 node matches kind "map":
        """))
  }

  @Test("edgeFailure for a selector that matches nothing lists the owners and names")
  func edgeNoMatch() throws {
    let message = try #require(feed.edgeFailure(from: "Feeed", to: .kind("bind(to:)")))
    #expect(
      message.hasPrefix(
        """
        expected an edge from owner or name "Feeed" to kind "bind(to:)", found none
        from: no node matches owner or name "Feeed"
          owners in the trace: Feed, Header, HeaderView
          names in the trace: Feed.refresh
        to: 1 node matches kind "bind(to:)":
          bind(to:) Header.swift:5 (HeaderView)
            in:  <- BehaviorRelay Header.swift:4 (Header): subscription ×1 (1 live), emission ×4
        """))
    let empty = TraceGraph()
    #expect(
      empty.edgeFailure(from: "A", to: "B")
        == """
        expected an edge from owner or name "A" to owner or name "B", found none
        from: no node matches owner or name "A"
          owners in the trace: none
        to: no node matches owner or name "B"
          owners in the trace: none
        """)
  }

  @Test("a node without edges says so; a hub lists twelve neighbours and how many more")
  func excerptLimits() throws {
    let lonely = TraceGraph(nodes: [node(1, "just", .source, file: "A.swift")])
    let message = try #require(lonely.edgeFailure(from: .kind("just"), to: .any, kind: .chain))
    #expect(message.contains("  just A.swift:1\n    (no edges)"))

    let hub = TraceGraph(
      nodes: [node(1, "PublishSubject", .subject, file: "Hub.swift")]
        + (2...21).map { node($0, "subscribe", .terminal, file: "Hub.swift", upstreams: [1]) },
      edges: (2...21).map { edge(1, $0) })
    let hubMessage = try #require(hub.edgeFailure(from: .id(1), to: .id(1)))
    #expect(hubMessage.contains("out: -> subscribe Hub.swift:13: subscription ×1 (1 live)"))
    #expect(!hubMessage.contains("Hub.swift:14"))
    #expect(hubMessage.contains("out: ... and 8 more"))
    let manyMessage = try #require(hub.edgeFailure(from: .kind("subscribe"), to: .id(1)))
    #expect(manyMessage.contains("from: 20 nodes match kind \"subscribe\":"))
    #expect(manyMessage.contains("  ... and 8 more"))
  }

  // MARK: - Cycles

  @Test("cycleFailure is nil without a cycle, or without one through the selected nodes")
  func noCycle() {
    #expect(feed.cycleFailure() == nil)
    var twoParts = cyclic
    twoParts.nodes.append(node(9, "just", .source, file: "Other.swift", owner: "Other"))
    #expect(twoParts.cycleFailure(through: "Other") == nil)
    #expect(twoParts.cycleFailure(through: "Nobody") == nil)
  }

  @Test("cycleFailure prints the cycle's nodes, files, edges and re-entrant deliveries")
  func cycleFails() throws {
    let message = try #require(cyclic.cycleFailure())
    #expect(
      message == """
        expected no cycle, found 1:
          cycle of 5 nodes across Feed.swift, Header.swift:
            Feed.refresh (PublishSubject Feed.swift:1)
            map Feed.swift:2 (Feed)
            subscribe Feed.swift:3 (Feed)
            BehaviorRelay Header.swift:4 (Header)
            bind(to:) Header.swift:5 (HeaderView)
            edges on the cycle (chain edges close it):
              Feed.refresh (PublishSubject Feed.swift:1) -> map Feed.swift:2 (Feed): subscription ×1 (1 live), emission ×3
              map Feed.swift:2 (Feed) -> subscribe Feed.swift:3 (Feed): subscription ×1 (1 live), emission ×3
              subscribe Feed.swift:3 (Feed) -> BehaviorRelay Header.swift:4 (Header): chain ×3
              BehaviorRelay Header.swift:4 (Header) -> bind(to:) Header.swift:5 (HeaderView): subscription ×1 (1 live), emission ×4
              bind(to:) Header.swift:5 (HeaderView) -> Feed.refresh (PublishSubject Feed.swift:1): chain ×1
            re-entrant deliveries on it:
              re-entrant delivery to subscribe Feed.swift:3 (Feed): #1 -> #2 -> #3 -> #4 across Feed.swift, Header.swift
        """)
    #expect(cyclic.cycleFailure(through: "HeaderView") != nil)
    #expect(
      cyclic.cycleFailure(through: .file("Header.swift"))?.hasPrefix(
        #"expected no cycle through file "Header.swift", found 1:"#) == true)
  }

  @Test("a re-entrant delivery off every structural cycle fails too (a hand-made graph)")
  func strayReentrance() throws {
    var graph = feed
    graph.deliveries = [
      .init(id: 1, from: 1, to: 3, event: .next),
      .init(id: 2, from: 1, to: 3, event: .next, cause: 1),
    ]
    let message = try #require(graph.cycleFailure())
    #expect(
      message == """
        expected no cycle, found 1:
          re-entrant delivery to subscribe Feed.swift:3 (Feed): #1 -> #2 across Feed.swift
        """)
    #expect(graph.cycleFailure(through: "Header") == nil)
  }

  // MARK: - Emission counts

  @Test("emissionCount adds emission and chain edges between the selected nodes")
  func emissionCounts() {
    #expect(feed.emissionCount(from: .id(1)) == 3)
    #expect(feed.emissionCount(from: .id(3)) == 3)  // the chain sends into the relay
    #expect(feed.emissionCount(to: .id(4)) == 3)
    #expect(feed.emissionCount(from: "Feed", to: "Header") == 3)
    #expect(feed.emissionCount(from: "Feed") == 9)
    #expect(feed.emissionCount() == 13)
    #expect(feed.emissionCount(from: "Nobody") == 0)
    #expect(feed.emissionCountFailure(4, from: .kind("BehaviorRelay"), to: "HeaderView") == nil)
    #expect(feed.emissionCountFailure(0, from: "Header", to: "Feed") == nil)
  }

  @Test("emissionCountFailure prints both numbers, the edges counted and the selected nodes")
  func emissionCountFails() throws {
    let message = try #require(feed.emissionCountFailure(2, from: "Feed", to: "Header"))
    #expect(
      message == """
        expected 2 emissions from owner or name "Feed" to owner or name "Header", found 3:
          subscribe Feed.swift:3 (Feed) -> BehaviorRelay Header.swift:4 (Header): chain ×3
        from: 3 nodes match owner or name "Feed":
          Feed.refresh (PublishSubject Feed.swift:1)
            out: -> map Feed.swift:2 (Feed): subscription ×1 (1 live), emission ×3
          map Feed.swift:2 (Feed)
            in:  <- Feed.refresh (PublishSubject Feed.swift:1): subscription ×1 (1 live), emission ×3
            out: -> subscribe Feed.swift:3 (Feed): subscription ×1 (1 live), emission ×3
          subscribe Feed.swift:3 (Feed)
            in:  <- map Feed.swift:2 (Feed): subscription ×1 (1 live), emission ×3
            out: -> BehaviorRelay Header.swift:4 (Header): chain ×3
        to: 1 node matches owner or name "Header":
          BehaviorRelay Header.swift:4 (Header)
            in:  <- subscribe Feed.swift:3 (Feed): chain ×3
            out: -> bind(to:) Header.swift:5 (HeaderView): subscription ×1 (1 live), emission ×4
        """)
    #expect(
      feed.emissionCountFailure(1, to: "Nobody")
        == """
        expected 1 emission to owner or name "Nobody", found 0
        to: no node matches owner or name "Nobody"
          owners in the trace: Feed, Header, HeaderView
          names in the trace: Feed.refresh
        """)
    #expect(
      feed.emissionCountFailure(12)?.hasPrefix(
        """
        expected 12 emissions, found 13:
          Feed.refresh (PublishSubject Feed.swift:1) -> map Feed.swift:2 (Feed): emission ×3
        """) == true)
  }

  // MARK: - Live subscriptions

  @Test("liveSubscriptionsFailure is nil when the owner has no live subscription")
  func noLiveSubscriptions() {
    #expect(feed.liveSubscriptionsFailure(owner: "Header") == nil)
    #expect(feed.liveSubscriptionsFailure(owner: "Nobody") == nil)
    #expect(feed.liveSubscriptions(owner: "HeaderView").map(\.id) == [2])
  }

  @Test("liveSubscriptionsFailure prints each one with its upstreams and subscribe site")
  func liveSubscriptionsFail() throws {
    #expect(
      feed.liveSubscriptionsFailure(owner: "HeaderView")
        == """
        expected no live subscriptions owned by HeaderView, found 1:
          bind(to:) Header.swift:5 (HeaderView) subscribes to BehaviorRelay Header.swift:4 (Header),
            subscribed at Header.swift:5; the owner is gone: a leak
            upstream: BehaviorRelay Header.swift:4 (Header)
        """)
    #expect(
      feed.liveSubscriptionsFailure(owner: "Feed")
        == """
        expected no live subscriptions owned by Feed, found 1:
          subscribe Feed.swift:3 (Feed) subscribes to map Feed.swift:2 (Feed),
            subscribed at Feed.swift:3
            upstream: map Feed.swift:2 (Feed) <- Feed.refresh (PublishSubject Feed.swift:1)
        (whether the owner is gone is known for `subscribe(with:)` only; other owners are named \
        by their file)
        """)
  }

  @Test("the upstream walk follows first upstreams, marks merges, unknown ids and loops")
  func upstreamWalk() throws {
    let graph = TraceGraph(
      nodes: [
        node(1, "merge", file: "A.swift", upstreams: [2, 3]),
        node(2, "map", file: "A.swift", upstreams: [4]),
        node(3, "just", .source, file: "A.swift"),
        node(5, "map", file: "B.swift", upstreams: [6]),
        node(6, "map", file: "B.swift", upstreams: [5]),
        node(7, "subscribe", .terminal, file: "A.swift", owner: "A", upstreams: [1]),
        node(8, "subscribe", .terminal, file: "B.swift", owner: "B", upstreams: [5]),
      ],
      subscriptions: [
        .init(id: 1, node: 1, subscriber: 7, owner: "A", file: "A.swift", line: 7),
        .init(id: 2, node: 5, subscriber: 8, owner: "B", file: "B.swift", line: 8),
      ])
    let merged = try #require(graph.liveSubscriptionsFailure(owner: "A"))
    #expect(
      merged.contains(
        "upstream: merge A.swift:1 (first of 2 upstreams) <- map A.swift:2 <- node #4 (not in "
          + "the trace)"))
    let looped = try #require(graph.liveSubscriptionsFailure(owner: "B"))
    #expect(looped.contains("upstream: map B.swift:5 <- map B.swift:6\n"))
  }

  @Test("an owner type is named as the recorder names it")
  func ownerType() {
    final class HeaderView {}
    #expect(feed.liveSubscriptionsFailure(owner: HeaderView.self) != nil)
    #expect(
      feed.liveSubscriptionsFailure(owner: HeaderView.self)
        == feed.liveSubscriptionsFailure(owner: "HeaderView"))
  }

  // MARK: - The sprawl fixture

  @Test("on the sprawl fixture: the chain edges pass, the cycle and the leak fail")
  func sprawl() throws {
    let graph = TraceRecorderTests.Sprawl().graph
    #expect(graph.edgeFailure(from: "CartViewModel", to: "Analytics", kind: .chain) == nil)
    #expect(graph.edgeFailure(from: "CartBadge", to: "Analytics", kind: .chain) == nil)
    #expect(graph.edgeFailure(from: "Analytics", to: "CatalogViewModel", kind: .chain) == nil)
    #expect(
      graph.edgeFailure(
        from: .role(.subject).owner("CatalogViewModel"),
        to: .kind("subscribe").owner("CartViewModel"),
        kind: .emission) == nil)
    #expect(
      graph.emissionCountFailure(
        2, from: "CatalogViewModel", to: .kind("subscribe").owner("CartViewModel")) == nil)
    #expect(
      graph.emissionCountFailure(
        3, from: .kind("subscribe(with:)").owner("CartBadge"), to: "Analytics") == nil)
    #expect(graph.liveSubscriptionsFailure(owner: "CartBadge") != nil)  // its bag is alive

    let noEdge = try #require(graph.edgeFailure(from: "PromoBanner", to: "Analytics"))
    #expect(noEdge.contains("subscribe(with:) StreamsTraceTests/PromoBanner.swift:"))

    let cycle = try #require(graph.cycleFailure())
    #expect(cycle.hasPrefix("expected no cycle, found 1:\n  cycle of "))
    #expect(cycle.contains("StreamsTraceTests/Analytics.swift"))
    #expect(cycle.contains("StreamsTraceTests/CatalogViewModel.swift"))
    #expect(
      cycle.contains(
        "subscribe StreamsTraceTests/Analytics.swift:12 (Analytics) -> CatalogViewModel.selection"
          + " (PublishSubject StreamsTraceTests/CatalogViewModel.swift:5): chain ×1"))
    #expect(cycle.contains("re-entrant deliveries on it:"))
    #expect(graph.cycleFailure(through: "PromoBanner") == nil)

    let leak = try #require(graph.liveSubscriptionsFailure(owner: "PromoBanner"))
    #expect(leak.contains("the owner is gone: a leak"))
    #expect(leak.contains("subscribed at StreamsTraceTests/PromoBanner.swift:"))
    #expect(
      leak.contains(
        "upstream: filter StreamsTraceTests/PromoBanner.swift:9 (PromoBanner) <- "
          + "CatalogViewModel.selection (PublishSubject StreamsTraceTests/CatalogViewModel.swift:5)"
      ))
  }
}
