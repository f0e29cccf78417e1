#if canImport(XCTest)
  public import StreamsTrace
  import XCTest

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Fails the test unless some node `from` matches has an edge of `kind` (any kind when `nil`)
  /// to some node `to` matches (the XCTest form of `expectEdge`).
  ///
  /// ```swift
  /// XCTAssertEdge(from: "CartViewModel", to: "Analytics", kind: .chain, in: graph)
  /// ```
  ///
  /// The failure message (``/StreamsTrace/StreamsTraceRecording/TraceGraph/edgeFailure(from:to:kind:)``) prints the
  /// nodes each selector matches with their edges in and out.
  public func XCTAssertEdge(
    from: TraceGraph.NodeSelector, to: TraceGraph.NodeSelector,
    kind: TraceGraph.EdgeKind? = nil, in graph: TraceGraph,
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
  ) {
    failTrace(
      graph.edgeFailure(from: from, to: to, kind: kind), message(), file: file, line: line)
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Fails the test when the trace has a cycle (through a node `through` matches), structural or
  /// re-entrant (the XCTest form of `expectNoCycle`).
  ///
  /// ```swift
  /// XCTAssertNoCycle(in: graph)
  /// ```
  ///
  /// The failure message (``/StreamsTrace/StreamsTraceRecording/TraceGraph/cycleFailure(through:)``) prints each cycle's
  /// nodes, files and edges.
  public func XCTAssertNoCycle(
    through: TraceGraph.NodeSelector = .any, in graph: TraceGraph,
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
  ) {
    failTrace(graph.cycleFailure(through: through), message(), file: file, line: line)
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Fails the test unless `expected` events went from the nodes `from` matches to the nodes
  /// `to` matches (the XCTest form of `expectEmissionCount`).
  ///
  /// ```swift
  /// XCTAssertEmissionCount(3, from: .kind("subscribe(with:)").owner("CartBadge"), in: graph)
  /// ```
  ///
  /// The failure message (``/StreamsTrace/StreamsTraceRecording/TraceGraph/emissionCountFailure(_:from:to:)``) prints
  /// the edges counted and the nodes each selector matches.
  public func XCTAssertEmissionCount(
    _ expected: Int, from: TraceGraph.NodeSelector = .any, to: TraceGraph.NodeSelector = .any,
    in graph: TraceGraph, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
  ) {
    failTrace(
      graph.emissionCountFailure(expected, from: from, to: to), message(), file: file, line: line)
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Fails the test when a subscription owned by `owner` is still live (the XCTest form of
  /// `expectNoLiveSubscriptions`).
  ///
  /// ```swift
  /// XCTAssertNoLiveSubscriptions(owner: "PromoBanner", in: graph)
  /// ```
  ///
  /// The failure message (``/StreamsTrace/StreamsTraceRecording/TraceGraph/liveSubscriptionsFailure(owner:)-(String)``)
  /// prints each live subscription with its subscribe site.
  public func XCTAssertNoLiveSubscriptions(
    owner: String, in graph: TraceGraph, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
  ) {
    failTrace(graph.liveSubscriptionsFailure(owner: owner), message(), file: file, line: line)
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// ``XCTAssertNoLiveSubscriptions(owner:in:_:file:line:)-(String,_,_,_,_)`` for the owner
  /// type `owner`.
  ///
  /// ```swift
  /// XCTAssertNoLiveSubscriptions(owner: PromoBanner.self, in: graph)
  /// ```
  public func XCTAssertNoLiveSubscriptions(
    owner: Any.Type, in graph: TraceGraph, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
  ) {
    failTrace(graph.liveSubscriptionsFailure(owner: owner), message(), file: file, line: line)
  }

  /// Fails with `failure`, after `message`, when there is one.
  private func failTrace(_ failure: String?, _ message: String, file: StaticString, line: UInt) {
    guard let failure else { return }
    XCTFail(message.isEmpty ? failure : message + "\n" + failure, file: file, line: line)
  }
#endif
