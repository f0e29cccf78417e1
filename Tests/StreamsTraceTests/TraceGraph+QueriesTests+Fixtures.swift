import StreamsTrace
import Testing

// Hand-built graphs. Node ids double as line numbers, so every node has its own stable key.

func queryNode(
  _ id: UInt64, _ kind: String = "map", _ role: TraceGraph.Role = .operator,
  file: String = "A.swift", owner: String? = nil, upstreams: [UInt64] = [],
  controlUpstreams: [UInt64] = [], subscriptions: Int = 1, events: Int = 1
) -> TraceGraph.Node {
  TraceGraph.Node(
    id: id, kind: kind, role: role, file: file, line: UInt(id), owner: owner,
    upstreams: upstreams, controlUpstreams: controlUpstreams, subscriptionCount: subscriptions,
    eventCount: events)
}

func queryEdge(
  _ from: UInt64, _ to: UInt64, _ kind: TraceGraph.EdgeKind = .subscription, count: Int = 1
) -> TraceGraph.Edge {
  TraceGraph.Edge(from: from, to: to, kind: kind, count: count, live: kind == .subscription ? 1 : 0)
}

func queryDelivery(
  _ id: UInt64, _ from: UInt64, _ to: UInt64, cause: UInt64? = nil,
  hop: TraceGraph.Hop = .direct, thread: UInt32 = 1
) -> TraceGraph.Delivery {
  TraceGraph.Delivery(
    id: id, from: from, to: to, event: .next, cause: cause, hop: hop, thread: thread)
}

/// Two files: `Feed.swift`'s subscriber (3) sends into `Header.swift`'s relay (4) by a chain
/// edge; node 7 is a subject nobody subscribes to.
///
///     refresh(1) -> map(2) -> subscribe(3) =chain=> relay(4) -> filter(5) -> bind(6)
let appGraph = TraceGraph(
  nodes: [
    queryNode(1, "PublishSubject", .subject, file: "Feed.swift", owner: "FeedViewModel"),
    queryNode(2, "map", file: "Feed.swift", owner: "FeedViewModel", upstreams: [1]),
    queryNode(
      3, "subscribe", .terminal, file: "Feed.swift", owner: "FeedViewModel", upstreams: [2]),
    queryNode(4, "BehaviorRelay", .subject, file: "Header.swift", owner: "HeaderViewModel"),
    queryNode(5, "filter", file: "Header.swift", upstreams: [4]),
    queryNode(6, "bind(to:)", .terminal, file: "Header.swift", owner: "HeaderView", upstreams: [5]),
    queryNode(7, "PublishSubject", .subject, file: "Header.swift", subscriptions: 0, events: 0),
  ],
  edges: [
    queryEdge(1, 2), queryEdge(1, 2, .emission, count: 3), queryEdge(2, 3),
    queryEdge(2, 3, .emission, count: 3),
    queryEdge(3, 4, .chain, count: 3), queryEdge(4, 5), queryEdge(4, 5, .emission, count: 4),
    queryEdge(5, 6),
    queryEdge(5, 6, .emission, count: 2),
  ])

/// A cycle that closes through chain edges across two files, with a tail (5) off it:
///
///     subject(1) -> subscribe(2) =chain=> subject(3) -> subscribe(4) =chain=> subject(1)
///     subject(1) -> subscribe(5)
let cycleGraph = TraceGraph(
  nodes: [
    queryNode(1, "PublishSubject", .subject, file: "A.swift", owner: "A"),
    queryNode(2, "subscribe", .terminal, file: "A.swift", owner: "A"),
    queryNode(3, "PublishSubject", .subject, file: "B.swift", owner: "B"),
    queryNode(4, "subscribe", .terminal, file: "B.swift", owner: "B"),
    queryNode(5, "subscribe", .terminal, file: "A.swift", owner: "A"),
  ],
  edges: [
    queryEdge(1, 2), queryEdge(2, 3, .chain, count: 2), queryEdge(3, 4),
    queryEdge(4, 1, .chain, count: 2),
    queryEdge(1, 5),
  ])
