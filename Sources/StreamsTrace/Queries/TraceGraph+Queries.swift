// Queries on the shape of a recorded trace: reachability, paths, fan-in and fan-out, leaks,
// unused nodes. Cycles, delivery chains and diffs have their own files.
//
// Every query builds the graph's adjacency once (`TraceGraphIndex`) and walks it iteratively, so
// graphs of hundreds of thousands of nodes cannot overflow the stack.

extension TraceGraph {
  /// The nodes that `id` reaches by following data flow, by ascending id.
  ///
  /// Data flow goes from an upstream to its subscriber (subscription edges and each node's
  /// `upstreams`), along emission edges, and along chain edges from a subscriber to the subject
  /// it sends into (the cross-file chain). Control edges (`take(until:)`'s trigger, `sample`'s
  /// sampler, ...) are followed only when `includingControl` is `true`.
  ///
  /// ```swift
  /// // subject(1) -> map(2) -> subscribe(3) -chain-> otherSubject(4)
  /// graph.reachable(from: 1)  // [2, 3, 4]
  /// ```
  ///
  /// - Parameters:
  ///   - id: The node to start from.
  ///   - includingControl: Whether to follow control edges too.
  /// - Returns: The ids reached by one edge or more: `id` itself only when it lies on a cycle;
  ///   empty when the graph does not name `id`.
  /// - Complexity: O(*n* + *e*).
  public func reachable(from id: UInt64, includingControl: Bool = false) -> [UInt64] {
    TraceGraphIndex(self).reach(from: id, forward: true, includingControl: includingControl)
  }

  /// The nodes that reach `id` by following data flow, by ascending id: everything whose
  /// elements can end up in `id`.
  ///
  /// The edges are those of ``reachable(from:includingControl:)``, walked backwards.
  ///
  /// ```swift
  /// // subject(1) -> map(2) -> subscribe(3) -chain-> otherSubject(4)
  /// graph.reaching(4)  // [1, 2, 3]
  /// ```
  ///
  /// - Parameters:
  ///   - id: The node to end at.
  ///   - includingControl: Whether to follow control edges too.
  /// - Returns: The ids that reach `id` by one edge or more: `id` itself only when it lies on a
  ///   cycle; empty when the graph does not name `id`.
  /// - Complexity: O(*n* + *e*).
  public func reaching(_ id: UInt64, includingControl: Bool = false) -> [UInt64] {
    TraceGraphIndex(self).reach(from: id, forward: false, includingControl: includingControl)
  }

  /// A shortest data-flow path from one node to another, as node ids from `source` to
  /// `destination`; its hop count is `count - 1`.
  ///
  /// The edges are those of ``reachable(from:includingControl:)``. Among paths of the same
  /// length, the one through smaller ids wins.
  ///
  /// ```swift
  /// // subject(1) -> map(2) -> subscribe(3) -chain-> otherSubject(4)
  /// graph.shortestPath(from: 1, to: 4)  // [1, 2, 3, 4]: 3 hops
  /// graph.shortestPath(from: 4, to: 1)  // nil
  /// ```
  ///
  /// - Parameters:
  ///   - source: The node to start from.
  ///   - destination: The node to end at.
  ///   - includingControl: Whether to follow control edges too.
  /// - Returns: The path, `[source]` when both are the same node, or `nil` when there is none
  ///   (or the graph does not name one of them).
  /// - Complexity: O(*n* + *e*).
  public func shortestPath(
    from source: UInt64, to destination: UInt64, includingControl: Bool = false
  ) -> [UInt64]? {
    let index = TraceGraphIndex(self)
    guard let start = index.position(of: source), let end = index.position(of: destination)
    else { return nil }
    if start == end { return [source] }
    var parent = [Int](repeating: -1, count: index.count)
    parent[start] = start
    var queue = [start]
    var head = 0
    while head < queue.count, parent[end] < 0 {
      let position = queue[head]
      head += 1
      index.forEachNeighbour(of: position, forward: true, includingControl: includingControl) {
        if parent[$0] < 0 {
          parent[$0] = position
          queue.append($0)
        }
      }
    }
    guard parent[end] >= 0 else { return nil }
    var path = [end]
    while path[path.count - 1] != start {
      path.append(parent[path[path.count - 1]])
    }
    return path.reversed().map { index.ids[$0] }
  }

  /// The number of data-flow hops on a shortest path from one node to another.
  ///
  /// ```swift
  /// // subject(1) -> map(2) -> subscribe(3) -chain-> otherSubject(4)
  /// graph.hopCount(from: 1, to: 4)  // 3
  /// ```
  ///
  /// - Returns: `shortestPath(from:to:)`'s count minus one: 0 from a node to itself, `nil` when
  ///   there is no path.
  public func hopCount(
    from source: UInt64, to destination: UInt64, includingControl: Bool = false
  ) -> Int? {
    shortestPath(from: source, to: destination, includingControl: includingControl).map {
      $0.count - 1
    }
  }

  /// The `n` nodes with the most distinct data-flow predecessors: what many things feed.
  ///
  /// ```swift
  /// // a(1) -> subject(3), b(2) -> subject(3), a(1) -> c(4)
  /// print(graph.topFanIn(1))
  /// // Prints "[PublishSubject Feed.swift:3 (Feed): 2]"
  /// ```
  ///
  /// - Parameter n: How many nodes to list at most.
  /// - Returns: The nodes with at least one predecessor, most first, ties by ascending id.
  /// - Complexity: O(*e* log *e* + *n* log *n*).
  public func topFanIn(_ n: Int) -> [FanCount] {
    let index = TraceGraphIndex(self)
    return Self.top(n, in: index) { index.dataIn.degree($0) }
  }

  /// The `n` nodes with the most distinct data-flow successors: what feeds many things.
  ///
  /// ```swift
  /// // subject(1) -> a(2), subject(1) -> b(3), a(2) -> c(4)
  /// print(graph.topFanOut(1))
  /// // Prints "[PublishSubject Feed.swift:1 (Feed): 2]"
  /// ```
  ///
  /// - Parameter n: How many nodes to list at most.
  /// - Returns: The nodes with at least one successor, most first, ties by ascending id.
  /// - Complexity: O(*e* log *e* + *n* log *n*).
  public func topFanOut(_ n: Int) -> [FanCount] {
    let index = TraceGraphIndex(self)
    return Self.top(n, in: index) { index.dataOut.degree($0) }
  }

  private static func top(
    _ n: Int, in index: TraceGraphIndex, degree: (Int) -> Int
  ) -> [FanCount] {
    guard n > 0 else { return [] }
    let ranked = (0..<index.count).map { (position: $0, count: degree($0)) }
      .filter { $0.count > 0 }
      .sorted { $0.count != $1.count ? $0.count > $1.count : $0.position < $1.position }
    return ranked.prefix(n).map {
      FanCount(node: index.ids[$0.position], label: index.label($0.position), count: $0.count)
    }
  }

  /// The live subscriptions whose owner is gone: leaks, by ascending subscription id.
  ///
  /// ```swift
  /// for leak in graph.leaks() { print(leak) }
  /// // Prints "leak: FeedViewModel is gone but subscribe Feed.swift:30 (FeedViewModel) still
  /// //   subscribes to PublishSubject Store.swift:8 (Store), subscribed at Feed.swift:30"
  /// ```
  ///
  /// - Returns: One ``Leak`` per live subscription with `ownerGone`.
  public func leaks() -> [Leak] {
    var byID: [UInt64: Node] = [:]
    for node in nodes where byID[node.id] == nil {
      byID[node.id] = node
    }
    return subscriptions.filter(\.ownerGone).sorted { $0.id < $1.id }.map {
      Leak(
        subscription: $0.id, owner: $0.owner, node: $0.node, subscriber: $0.subscriber,
        file: $0.file, line: $0.line, nodeLabel: Self.describe(byID[$0.node], id: $0.node),
        subscriberLabel: Self.describe(byID[$0.subscriber], id: $0.subscriber), bag: $0.bag)
    }
  }

  /// The live subscriptions kept in a `DisposeBag` of another type than the one whose file made
  /// them: they live as long as that other object, not as long as the code that subscribed
  /// (a subscription parked in a longer-lived object's bag is a leak waiting for the object that
  /// made it to go), by ascending subscription id.
  ///
  /// A bag made in another module (a library's `rx.disposeBag`) is left out. A bag declared in a
  /// base class lists its subclasses' subscriptions here: they do live as long as the object
  /// holding that bag, which is then the subscriber itself.
  ///
  /// ```swift
  /// for held in graph.heldElsewhere() { print(held) }
  /// // Prints "held elsewhere: subscribe Banner.swift:14 (Banner) subscribes to PublishSubject
  /// //   Analytics.swift:8 (Analytics) and is kept by Analytics' bag (Analytics.swift:6), so it
  /// //   lives as long as Analytics"
  /// ```
  ///
  /// - Returns: One ``HeldElsewhere`` per live subscription whose ``/StreamsTraceRecording/TraceGraph/Subscription/bag`` names an
  ///   owner other than the type its own file names.
  public func heldElsewhere() -> [HeldElsewhere] {
    var byID: [UInt64: Node] = [:]
    for node in nodes where byID[node.id] == nil {
      byID[node.id] = node
    }
    return subscriptions.sorted { $0.id < $1.id }.compactMap { subscription in
      guard let bag = subscription.bag, let holder = bag.owner,
        let maker = RecorderState.ownerFromFile(subscription.file), maker != holder,
        Self.module(of: bag.file) == Self.module(of: subscription.file)
      else { return nil }
      return HeldElsewhere(
        subscription: subscription.id, madeBy: maker, bag: bag, file: subscription.file,
        line: subscription.line,
        nodeLabel: Self.describe(byID[subscription.node], id: subscription.node),
        subscriberLabel: Self.describe(byID[subscription.subscriber], id: subscription.subscriber))
    }
  }

  /// The module a `#fileID` names (`App/Cart.swift` → `App`).
  static func module(of file: String) -> Substring {
    file.split(separator: "/", maxSplits: 1).first ?? ""
  }

  /// The nodes declared but never subscribed to: dead code, or a subject nobody reads.
  ///
  /// Terminal subscribers are left out: nothing subscribes to them.
  ///
  /// ```swift
  /// print(graph.neverSubscribed())
  /// // Prints "BehaviorSubject Settings.swift:9 (SettingsViewModel)"
  /// ```
  ///
  /// - Returns: The nodes with `subscriptionCount == 0` whose role is not `.terminal`, by
  ///   ascending id.
  public func neverSubscribed() -> NodeList {
    NodeList(
      nodes: nodes.filter { $0.subscriptionCount == 0 && $0.role != .terminal }
        .sorted { $0.id < $1.id })
  }

  /// The nodes subscribed to that never emitted: a subject nobody sends into, a request that
  /// never answered.
  ///
  /// ```swift
  /// print(graph.neverEmitted())
  /// // Prints "PublishSubject Login.swift:5 (LoginViewModel)"
  /// ```
  ///
  /// - Returns: The nodes with `subscriptionCount > 0` and `eventCount == 0` whose role is not
  ///   `.terminal`, by ascending id.
  public func neverEmitted() -> NodeList {
    NodeList(
      nodes: nodes.filter {
        $0.subscriptionCount > 0 && $0.eventCount == 0 && $0.role != .terminal
      }
      .sorted { $0.id < $1.id })
  }
}

extension TraceGraph {
  /// A node and how many distinct neighbours it has in one direction
  /// (``TraceGraph/topFanIn(_:)``, ``TraceGraph/topFanOut(_:)``).
  public struct FanCount: Sendable, Equatable, CustomStringConvertible {
    /// The node's id.
    public var node: UInt64
    /// The node as ``TraceGraph/describe(node:)`` prints it.
    public var label: String
    /// How many distinct nodes feed it (fan-in) or it feeds (fan-out).
    public var count: Int

    /// `label: count`.
    public var description: String { "\(label): \(count)" }
  }

  /// A live subscription whose owner was deallocated (``TraceGraph/leaks()``).
  public struct Leak: Sendable, Equatable, CustomStringConvertible {
    /// The subscription's id.
    public var subscription: UInt64
    /// The owner's type, if known.
    public var owner: String?
    /// The node subscribed to.
    public var node: UInt64
    /// The subscriber node.
    public var subscriber: UInt64
    /// Where the subscription was made.
    public var file: String
    public var line: UInt
    /// The subscribed node and the subscriber as ``TraceGraph/describe(node:)`` prints them.
    public var nodeLabel: String
    public var subscriberLabel: String
    /// The `DisposeBag` that keeps the subscription alive, if it went into one: where to fix it.
    public var bag: Bag?

    /// A leak of these parts.
    public init(
      subscription: UInt64, owner: String?, node: UInt64, subscriber: UInt64, file: String,
      line: UInt, nodeLabel: String, subscriberLabel: String, bag: Bag? = nil
    ) {
      self.subscription = subscription
      self.owner = owner
      self.node = node
      self.subscriber = subscriber
      self.file = file
      self.line = line
      self.nodeLabel = nodeLabel
      self.subscriberLabel = subscriberLabel
      self.bag = bag
    }

    /// One line: who is gone, what still listens to what, the subscribe site, and the bag that
    /// keeps it.
    public var description: String {
      var text =
        "leak: \(owner ?? "an unknown owner") is gone but \(subscriberLabel) still subscribes to "
        + "\(nodeLabel), subscribed at \(file):\(line)"
      if let bag {
        text +=
          "; kept alive by \(bag.owner.map { possessive($0) + " bag" } ?? "a bag") made at "
          + "\(bag.file):\(bag.line)"
      } else {
        text += "; its disposable went into no bag (kept by a property or never disposed)"
      }
      return text
    }
  }

  /// A live subscription kept in another type's bag (``TraceGraph/heldElsewhere()``).
  public struct HeldElsewhere: Sendable, Equatable, CustomStringConvertible {
    /// The subscription's id.
    public var subscription: UInt64
    /// The type whose file made the subscription.
    public var madeBy: String
    /// The bag that keeps it.
    public var bag: Bag
    /// Where the subscription was made.
    public var file: String
    public var line: UInt
    /// The subscribed node and the subscriber as ``TraceGraph/describe(node:)`` prints them.
    public var nodeLabel: String
    public var subscriberLabel: String

    /// One line: what listens to what, whose bag keeps it, and what that means.
    public var description: String {
      let holder = bag.owner ?? "another object"
      return "held elsewhere: \(subscriberLabel) subscribes to \(nodeLabel) and is kept by "
        + "\(possessive(holder)) bag (\(bag.file):\(bag.line)), so it lives as long as \(holder)"
    }
  }

  /// A list of nodes (``TraceGraph/neverSubscribed()``, ``TraceGraph/neverEmitted()``), usable as
  /// a collection of ``/StreamsTraceRecording/TraceGraph/Node``; its description prints one node a line.
  public struct NodeList: Sendable, Equatable, RandomAccessCollection, CustomStringConvertible {
    /// The nodes, by ascending id.
    public var nodes: [Node]

    public var startIndex: Int { nodes.startIndex }
    public var endIndex: Int { nodes.endIndex }
    public subscript(position: Int) -> Node { nodes[position] }

    /// Each node as ``TraceGraph/describe(node:)`` prints it, one a line.
    public var description: String {
      nodes.map { TraceGraph.describe($0, id: $0.id) }.joined(separator: "\n")
    }
  }
}

/// `Analytics'`, `CartStore's`.
func possessive(_ name: String) -> String {
  name.hasSuffix("s") ? name + "'" : name + "'s"
}
