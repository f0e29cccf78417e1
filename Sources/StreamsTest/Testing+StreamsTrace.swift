#if canImport(Testing)
  public import StreamsTrace
  public import Testing

  /// Records a Swift Testing issue unless some node `from` matches has an edge of `kind` (any
  /// kind when `nil`) to some node `to` matches.
  ///
  /// ```swift
  /// let graph = TraceRecorder.record {
  ///   // build the screen, send the user's action
  /// }
  /// expectEdge(from: "CartViewModel", to: "Analytics", kind: .chain, in: graph)
  /// expectEdge(from: .kind("map").owner("CartBadge"), to: "CartBadge", in: graph)
  /// ```
  ///
  /// The issue's message (``/StreamsTrace/StreamsTraceRecording/TraceGraph/edgeFailure(from:to:kind:)``) prints the
  /// nodes each selector matches with their edges in and out, or the owners and names the trace
  /// has when a selector matches nothing.
  ///
  /// - Parameters:
  ///   - from: The nodes the edge may start at; a string literal selects by owner or name.
  ///   - to: The nodes the edge may end at.
  ///   - kind: The edge's kind; `nil` (the default) accepts any.
  ///   - graph: The recorded trace.
  ///   - comment: A comment put before the message.
  ///   - sourceLocation: Where the check is called; the issue is reported there.
  /// - Returns: `true` when the edge exists.
  @discardableResult
  public func expectEdge(
    from: TraceGraph.NodeSelector, to: TraceGraph.NodeSelector,
    kind: TraceGraph.EdgeKind? = nil, in graph: TraceGraph, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    recordTraceIssue(
      graph.edgeFailure(from: from, to: to, kind: kind), comment, sourceLocation: sourceLocation)
  }

  /// Records a Swift Testing issue when the trace has a cycle (through a node `through` matches),
  /// structural or re-entrant.
  ///
  /// ```swift
  /// expectNoCycle(in: graph)
  /// expectNoCycle(through: "CatalogViewModel", in: graph)
  /// ```
  ///
  /// The issue's message (``/StreamsTrace/StreamsTraceRecording/TraceGraph/cycleFailure(through:)``) prints each cycle's
  /// nodes and files, the edges between them, and the re-entrant deliveries on it.
  ///
  /// - Parameters:
  ///   - through: The nodes a cycle must contain to count; every cycle counts by default.
  ///   - graph: The recorded trace.
  ///   - comment: A comment put before the message.
  ///   - sourceLocation: Where the check is called; the issue is reported there.
  /// - Returns: `true` when there is no such cycle.
  @discardableResult
  public func expectNoCycle(
    through: TraceGraph.NodeSelector = .any, in graph: TraceGraph, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    recordTraceIssue(graph.cycleFailure(through: through), comment, sourceLocation: sourceLocation)
  }

  /// Records a Swift Testing issue unless `expected` events went from the nodes `from` matches
  /// to the nodes `to` matches (emission edges, counted once per receiving subscriber, and chain
  /// edges: sends into a subject or relay).
  ///
  /// ```swift
  /// let cartListener = TraceGraph.NodeSelector.kind("subscribe").owner("CartViewModel")
  /// expectEmissionCount(2, from: "CatalogViewModel", to: cartListener, in: graph)
  /// expectEmissionCount(3, from: .kind("subscribe(with:)").owner("CartBadge"), in: graph)
  /// ```
  ///
  /// The issue's message (``/StreamsTrace/StreamsTraceRecording/TraceGraph/emissionCountFailure(_:from:to:)``) prints
  /// the edges counted and the nodes each selector matches with their edges.
  ///
  /// - Parameters:
  ///   - expected: The number of events.
  ///   - from: The senders; any node by default.
  ///   - to: The receivers; any node by default.
  ///   - graph: The recorded trace.
  ///   - comment: A comment put before the message.
  ///   - sourceLocation: Where the check is called; the issue is reported there.
  /// - Returns: `true` when the count is `expected`.
  @discardableResult
  public func expectEmissionCount(
    _ expected: Int, from: TraceGraph.NodeSelector = .any, to: TraceGraph.NodeSelector = .any,
    in graph: TraceGraph, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    recordTraceIssue(
      graph.emissionCountFailure(expected, from: from, to: to), comment,
      sourceLocation: sourceLocation)
  }

  /// Records a Swift Testing issue when a subscription owned by `owner` is still live.
  ///
  /// ```swift
  /// var banner: PromoBanner? = PromoBanner(catalog: catalog)
  /// banner = nil
  /// expectNoLiveSubscriptions(owner: "PromoBanner", in: recorder.graph)
  /// ```
  ///
  /// The issue's message (``/StreamsTrace/StreamsTraceRecording/TraceGraph/liveSubscriptionsFailure(owner:)-(String)``)
  /// prints each live subscription with the node it listens to and that node's upstreams, its
  /// subscribe site, and whether its owner is gone.
  ///
  /// - Parameters:
  ///   - owner: The owner's type name, as the recorder writes it (`String(describing:)`).
  ///   - graph: The recorded trace.
  ///   - comment: A comment put before the message.
  ///   - sourceLocation: Where the check is called; the issue is reported there.
  /// - Returns: `true` when no such subscription is live.
  @discardableResult
  public func expectNoLiveSubscriptions(
    owner: String, in graph: TraceGraph, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    recordTraceIssue(
      graph.liveSubscriptionsFailure(owner: owner), comment, sourceLocation: sourceLocation)
  }

  /// ``expectNoLiveSubscriptions(owner:in:_:sourceLocation:)-(String,_,_,_)`` for the owner
  /// type `owner`.
  ///
  /// ```swift
  /// expectNoLiveSubscriptions(owner: PromoBanner.self, in: recorder.graph)
  /// ```
  @discardableResult
  public func expectNoLiveSubscriptions(
    owner: Any.Type, in graph: TraceGraph, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    recordTraceIssue(
      graph.liveSubscriptionsFailure(owner: owner), comment, sourceLocation: sourceLocation)
  }

  /// Records `failure`, after `comment`, as an issue; `true` when there is none.
  private func recordTraceIssue(
    _ failure: String?, _ comment: Comment?, sourceLocation: SourceLocation
  ) -> Bool {
    guard let failure else { return true }
    let text = comment.map { $0.rawValue + "\n" + failure } ?? failure
    Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
    return false
  }
#endif
