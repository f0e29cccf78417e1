import Foundation
import Streams
import StreamsTrace
import Testing

// MARK: - Fixtures

/// Two files, a named subject, a chain through a map and a terminal into a relay, then a
/// completion.
let chromeTwoFiles = TraceGraph(
  nodes: [
    .init(
      id: 1, kind: "PublishSubject", role: .subject, file: "App/Feed.swift", line: 10,
      owner: "FeedViewModel", name: "Feed.items"),
    .init(
      id: 2, kind: "map", role: .operator, file: "App/Feed.swift", line: 12,
      owner: "FeedViewModel", upstreams: [1]),
    .init(
      id: 3, kind: "subscribe", role: .terminal, file: "App/Header.swift", line: 5,
      owner: "Header", upstreams: [2]),
    .init(
      id: 4, kind: "BehaviorRelay", role: .subject, file: "App/Header.swift", line: 3,
      owner: "Header"),
  ],
  edges: [.init(from: 1, to: 2, kind: .subscription, count: 1, live: 1)],
  deliveries: [
    .init(id: 10, from: 1, to: 1, event: .next, time: 1_000_000, value: "a"),
    .init(id: 11, from: 1, to: 2, event: .next, cause: 10, time: 1_000_250, value: "a"),
    .init(id: 12, from: 2, to: 3, event: .next, cause: 11, time: 1_000_400, value: "A"),
    .init(id: 13, from: 3, to: 4, event: .next, cause: 12, time: 1_000_700, value: "A"),
    .init(id: 14, from: 1, to: 1, event: .completed, time: 1_005_000),
    .init(id: 15, from: 1, to: 2, event: .completed, cause: 14, time: 1_005_100),
  ])

func chromeChainNodes(_ kinds: [String]) -> [TraceGraph.Node] {
  kinds.enumerated().map { index, kind in
    TraceGraph.Node(
      id: UInt64(index + 1), kind: kind, role: index == 0 ? .subject : .operator,
      file: "A.swift", line: UInt(index + 1))
  }
}

/// R sets off A (which sets off B) and C on its thread, C hops D to thread 2; E comes later.
let chromeDurationGraph = TraceGraph(
  nodes: chromeChainNodes(["PublishSubject", "map", "filter", "observe(on:)", "subscribe"]),
  deliveries: [
    .init(id: 1, from: 1, to: 1, event: .next, time: 1000),
    .init(id: 2, from: 1, to: 2, event: .next, cause: 1, time: 1200),
    .init(id: 3, from: 2, to: 3, event: .next, cause: 2, time: 1300),
    .init(id: 4, from: 1, to: 4, event: .next, cause: 1, time: 1500),
    .init(id: 5, from: 4, to: 5, event: .next, cause: 4, hop: .scheduler, thread: 2, time: 5000),
    .init(id: 6, from: 1, to: 1, event: .next, time: 10000),
  ])

/// Four deliveries at one coarse reading: a send, a delivery, a send back into the same subject
/// from inside it, and its delivery.
let chromeTiedGraph = TraceGraph(
  nodes: chromeChainNodes(["PublishSubject", "subscribe", "map"]),
  deliveries: [
    .init(id: 1, from: 1, to: 1, event: .next, time: 5000),
    .init(id: 2, from: 1, to: 2, event: .next, cause: 1, time: 5000),
    .init(id: 3, from: 2, to: 1, event: .next, cause: 2, time: 5000),
    .init(id: 4, from: 1, to: 3, event: .next, cause: 3, time: 5000),
  ])

/// A send fanned out to three subscribers; the second sends on, which hops to another thread.
let chromeFanOutGraph = TraceGraph(
  nodes: chromeChainNodes([
    "PublishSubject", "subscribe", "map", "filter", "BehaviorRelay", "drive",
  ]),
  deliveries: [
    .init(id: 1, from: 1, to: 1, event: .next, time: 100),
    .init(id: 2, from: 1, to: 2, event: .next, cause: 1, time: 150),
    .init(id: 3, from: 1, to: 3, event: .next, cause: 1, time: 300),
    .init(id: 5, from: 3, to: 5, event: .next, cause: 3, time: 400),
    .init(id: 4, from: 1, to: 4, event: .next, cause: 1, time: 900),
    .init(id: 6, from: 5, to: 6, event: .next, cause: 5, hop: .scheduler, thread: 2, time: 950),
  ])

/// Two threads deliver to node 1 at once.
let chromeConcurrentGraph = TraceGraph(
  nodes: chromeChainNodes(["PublishSubject", "map"]),
  deliveries: [
    .init(id: 1, from: 1, to: 1, event: .next, thread: 1, time: 1000),
    .init(id: 2, from: 1, to: 1, event: .next, thread: 2, time: 1500),
    .init(id: 3, from: 1, to: 2, event: .next, cause: 2, thread: 2, time: 2700),
  ])

/// Subscription and control edges: exactly known live counts for nodes 1, 2 and 6; three
/// subscriptions (7), a disposed one (8) and one without a time (9) for the others.
let chromeSubscriptionGraph = TraceGraph(
  nodes: [
    .init(id: 1, kind: "S", role: .subject, file: "A.swift", line: 1, subscriptionCount: 3),
    .init(id: 2, kind: "map", role: .operator, file: "A.swift", line: 2, subscriptionCount: 1),
    .init(id: 3, kind: "subscribe", role: .terminal, file: "A.swift", line: 3, owner: "Screen"),
    .init(id: 4, kind: "subscribe", role: .terminal, file: "A.swift", line: 4),
    .init(
      id: 5, kind: "take(until:)", role: .operator, file: "A.swift", line: 5,
      controlUpstreams: [6]),
    .init(
      id: 6, kind: "PublishSubject", role: .subject, file: "A.swift", line: 6,
      subscriptionCount: 1),
    .init(id: 7, kind: "interval", role: .source, file: "A.swift", line: 7, subscriptionCount: 3),
  ],
  edges: [
    .init(from: 1, to: 2, kind: .subscription, count: 1, live: 1, firstTime: 2000, lastTime: 2000),
    .init(from: 1, to: 4, kind: .subscription, count: 2, live: 2, firstTime: 3000, lastTime: 4000),
    .init(from: 2, to: 3, kind: .subscription, count: 1, live: 1, firstTime: 2500, lastTime: 2500),
    .init(from: 6, to: 5, kind: .control, count: 1, live: 1, firstTime: 3500, lastTime: 3500),
    .init(from: 7, to: 5, kind: .subscription, count: 3, live: 3, firstTime: 1000, lastTime: 6000),
    .init(from: 8, to: 3, kind: .subscription, count: 2, live: 1, firstTime: 1500, lastTime: 1600),
    .init(from: 9, to: 3, kind: .subscription, count: 1, live: 1),
  ],
  subscriptions: [
    .init(id: 1, node: 2, subscriber: 3, owner: "Screen", ownerGone: true, file: "A.swift", line: 3)
  ])

/// Quotes, backslashes, every kind of control character, emoji, non-BMP scalars and the
/// separators JavaScript chokes on (the dump tests' string).
let chromeAwkward = TraceGraphDumpTests.awkward

let chromeLongAwkward = String(repeating: chromeAwkward, count: 4)

let chromeHostileGraph = TraceGraph(
  nodes: [
    .init(
      id: 1, kind: chromeAwkward, role: .subject, file: chromeAwkward, line: 7,
      owner: chromeAwkward, name: chromeAwkward
    )
  ],
  edges: [.init(from: 1, to: 1, kind: .subscription, count: 1, live: 1, firstTime: 5)],
  deliveries: [.init(id: 1, from: 1, to: 1, event: .next, time: 10, value: chromeLongAwkward)])
