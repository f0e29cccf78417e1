import StreamsTest
import StreamsTrace
import XCTest

/// One subject feeding one subscriber that sends into a relay, which sends back: a cycle.
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

private final class Header {}

final class XCTestTraceHelpersTests: XCTestCase {
  func testPassingAssertions() {
    XCTAssertEdge(from: "Feed", to: "Header", kind: .chain, in: graph)
    XCTAssertEdge(from: .kind("PublishSubject"), to: .kind("subscribe"), in: graph)
    XCTAssertNoCycle(through: "Nobody", in: graph)
    XCTAssertEmissionCount(2, from: "Feed", to: "Header", in: graph)
    XCTAssertNoLiveSubscriptions(owner: "Header", in: graph)
    XCTAssertNoLiveSubscriptions(owner: Header.self, in: graph)
  }

  #if !canImport(Darwin)
    /// The failures recorded while `body` runs, instead of failing the test.
    private func failures(_ body: () -> Void) -> [(description: String, line: Int)] {
      let recorder = FailureCapture()
      capture = recorder
      body()
      capture = nil
      return recorder.failures
    }

    private var capture: FailureCapture?

    override func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
      expected: Bool
    ) {
      guard let capture else {
        return super.recordFailure(
          withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      }
      capture.failures.append((description, lineNumber))
    }

    func testFailingAssertionsReportTheMessage() {
      let failures = failures {
        XCTAssertEdge(from: "Header", to: .kind("subscribe"), in: graph, "after the fix")
        XCTAssertNoCycle(in: graph)
        XCTAssertEmissionCount(5, to: "Header", in: graph)
        XCTAssertNoLiveSubscriptions(owner: "Feed", in: graph)
        XCTAssertNoLiveSubscriptions(owner: "Feed", in: graph, file: #filePath, line: 7)
      }
      XCTAssertEqual(failures.count, 5)
      guard failures.count == 5 else { return }
      XCTAssertTrue(
        failures[0].description.contains(
          "after the fix\nexpected an edge from owner or name \"Header\" to kind \"subscribe\""),
        failures[0].description)
      XCTAssertTrue(
        failures[1].description.contains("expected no cycle, found 1:"), failures[1].description)
      XCTAssertTrue(
        failures[2].description.contains("expected 5 emissions to owner or name \"Header\""),
        failures[2].description)
      XCTAssertTrue(
        failures[3].description.contains("the owner is gone: a leak"), failures[3].description)
      XCTAssertEqual(failures[4].line, 7)
    }
  #endif
}

/// Failures captured by ``XCTestTraceHelpersTests``.
private final class FailureCapture {
  var failures: [(description: String, line: Int)] = []
}
