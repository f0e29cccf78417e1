import StreamsTest
import StreamsTrace
import Testing

/// One subject feeding one subscriber that sends into a relay.
private let graph = TraceGraph(
  nodes: [
    .init(
      id: 1, kind: "PublishSubject", role: .subject, file: "Feed.swift", line: 1, owner: "Feed"),
    .init(
      id: 2, kind: "subscribe", role: .terminal, file: "Feed.swift", line: 2, owner: "Feed",
      upstreams: [1]),
    .init(
      id: 3, kind: "BehaviorRelay", role: .subject, file: "Header.swift", line: 3, owner: "Header"),
  ],
  edges: [
    .init(from: 1, to: 2, kind: .subscription, count: 1, live: 1),
    .init(from: 1, to: 2, kind: .emission, count: 2),
    .init(from: 2, to: 3, kind: .chain, count: 2),
    .init(from: 3, to: 1, kind: .chain, count: 1),
  ],
  subscriptions: [
    .init(
      id: 1, node: 1, subscriber: 2, owner: "Feed", ownerGone: true, file: "Feed.swift", line: 2)
  ])

private final class Feed {}

@Suite("Swift Testing trace helpers")
struct SwiftTestingTraceHelpersTests {
  @Test("expectEdge passes on an edge and records the message otherwise")
  func expectEdgeHelper() {
    #expect(expectEdge(from: "Feed", to: "Header", kind: .chain, in: graph))
    #expect(expectEdge(from: .kind("PublishSubject"), to: .kind("subscribe"), in: graph))
    withKnownIssue {
      expectEdge(from: "Header", to: .kind("subscribe"), in: graph, "after the fix")
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.hasPrefix(
          "after the fix\nexpected an edge from owner or name \"Header\" to kind \"subscribe\"")
          && $0.rawValue.contains("  BehaviorRelay Header.swift:3 (Header)")
      }
    }
  }

  @Test("expectNoCycle records the cycle")
  func expectNoCycleHelper() {
    var acyclic = graph
    acyclic.edges.removeLast()
    #expect(expectNoCycle(in: acyclic))
    #expect(expectNoCycle(through: "Nobody", in: graph))
    withKnownIssue {
      expectNoCycle(in: graph)
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.hasPrefix("expected no cycle, found 1:\n  cycle of 3 nodes across")
      }
    }
  }

  @Test("expectEmissionCount records both numbers")
  func expectEmissionCountHelper() {
    #expect(expectEmissionCount(2, from: "Feed", to: "Header", in: graph))
    #expect(expectEmissionCount(2, from: .kind("PublishSubject"), in: graph))
    withKnownIssue {
      expectEmissionCount(5, to: "Header", in: graph)
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.hasPrefix("expected 5 emissions to owner or name \"Header\", found 2:")
      }
    }
  }

  @Test("expectNoLiveSubscriptions records the live subscriptions, by name or by type")
  func expectNoLiveSubscriptionsHelper() {
    #expect(expectNoLiveSubscriptions(owner: "Header", in: graph))
    withKnownIssue {
      expectNoLiveSubscriptions(owner: "Feed", in: graph)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("the owner is gone: a leak") }
    }
    withKnownIssue {
      expectNoLiveSubscriptions(owner: Feed.self, in: graph, "the feed is closed")
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.hasPrefix(
          "the feed is closed\nexpected no live subscriptions owned by Feed, found 1:")
      }
    }
  }

  @Test("the issue points at the caller's source location")
  func sourceLocation() {
    let location = SourceLocation(
      fileID: "App/Tests.swift", filePath: "/App/Tests.swift", line: 42, column: 1)
    withKnownIssue {
      expectNoCycle(in: graph, sourceLocation: location)
    } matching: { issue in
      issue.sourceLocation == location
    }
  }
}
