extension TraceGraph {
  /// The deliveries one delivery caused, transitively, following `cause` links across threads,
  /// scheduler hops and tasks: what one event set off.
  ///
  /// ```swift
  /// // #1 tap -> subject (root), #2 subject -> subscribe (caused by #1), #3 ... (caused by #2)
  /// print(graph.chain(of: 1)!)
  /// // Prints "chain from #1 across 2 files (A.swift, B.swift):
  /// //   #1 next: PublishSubject A.swift:3 (A) -> subscribe A.swift:9 (A)
  /// //   ..."
  /// ```
  ///
  /// - Parameter delivery: The id of the delivery to start from.
  /// - Returns: That delivery and everything it caused, in the order of ``/StreamsTraceRecording/TraceGraph/deliveries`` (oldest
  ///   first), with the files they touched; `nil` when the graph has no such delivery (the
  ///   recorder keeps only the most recent deliveries).
  /// - Complexity: O(*d* log *d*) in the number of deliveries.
  public func chain(of delivery: UInt64) -> DeliveryChain? {
    let positions = deliveryPositions()
    guard let start = positions[delivery] else { return nil }
    var links: [(Int, Int)] = []
    for (position, delivery) in deliveries.enumerated() {
      if let cause = delivery.cause, let parent = positions[cause], parent != position {
        links.append((parent, position))
      }
    }
    let effects = Adjacency(count: deliveries.count, pairs: links)
    var inChain = [Bool](repeating: false, count: deliveries.count)
    inChain[start] = true
    var queue = [start]
    var head = 0
    while head < queue.count {
      let position = queue[head]
      head += 1
      for effect in effects[position] where !inChain[effect] {
        inChain[effect] = true
        queue.append(effect)
      }
    }
    // The starting delivery first even if a malformed trace lists it after its effects.
    let members = [start] + deliveries.indices.filter { inChain[$0] && $0 != start }
    return makeChain(members, labels: NodeLabels(self))
  }

  /// The root of a delivery's cause chain: the delivery with no cause that set it off.
  ///
  /// When the recorder's ring no longer holds a cause, the oldest cause still held is the root.
  ///
  /// ```swift
  /// // #1 (root) -> #2 (caused by #1) -> #3 (caused by #2)
  /// graph.root(of: 3)?.id  // 1
  /// ```
  ///
  /// - Parameter delivery: The id of a delivery.
  /// - Returns: The root delivery (the delivery itself when it has no cause), or `nil` when the
  ///   graph has no such delivery.
  /// - Complexity: O(*d*).
  public func root(of delivery: UInt64) -> Delivery? {
    let positions = deliveryPositions()
    guard var position = positions[delivery] else { return nil }
    var seen: Set<Int> = [position]
    while let cause = deliveries[position].cause, let parent = positions[cause],
      seen.insert(parent).inserted
    {
      position = parent
    }
    return deliveries[position]
  }

  /// The chains, one per root delivery, that touch at least `n` distinct files: one user action
  /// that sets off work across the app.
  ///
  /// A chain's files are those of its deliveries' `from` and `to` nodes, in the order the chain
  /// first touches them. A delivery whose cause the ring no longer holds counts as a root.
  ///
  /// ```swift
  /// // #1 into a subject in A.swift sets off deliveries in B.swift and C.swift
  /// graph.chainsCrossingFiles(atLeast: 3).map(\.files)
  /// // [["A.swift", "B.swift", "C.swift"]]
  /// ```
  ///
  /// - Parameter n: The least number of distinct files a chain must touch.
  /// - Returns: The chains, ordered by their root's place in ``/StreamsTraceRecording/TraceGraph/deliveries``.
  /// - Complexity: O(*d*) in the number of deliveries.
  public func chainsCrossingFiles(atLeast n: Int) -> [DeliveryChain] {
    let positions = deliveryPositions()
    // The root of each delivery, found once per delivery: -1 unknown, -2 being walked.
    var roots = [Int](repeating: -1, count: deliveries.count)
    var walk: [Int] = []
    for first in deliveries.indices where roots[first] == -1 {
      var position = first
      var root = first
      while true {
        if roots[position] >= 0 {
          root = roots[position]
          break
        }
        if roots[position] == -2 {  // a cause loop in a malformed trace: stop where it closes
          root = position
          break
        }
        roots[position] = -2
        walk.append(position)
        guard let cause = deliveries[position].cause, let parent = positions[cause] else {
          root = position
          break
        }
        position = parent
      }
      for member in walk {
        roots[member] = root
      }
      walk.removeAll(keepingCapacity: true)
    }

    var members: [Int: [Int]] = [:]
    var order: [Int] = []
    for position in deliveries.indices {
      let root = roots[position]
      if members[root] == nil {
        order.append(root)
      }
      members[root, default: []].append(position)
    }
    let labels = NodeLabels(self)
    return order.compactMap { root in
      var chainMembers = members[root]!
      if chainMembers[0] != root, let at = chainMembers.firstIndex(of: root) {
        chainMembers.remove(at: at)
        chainMembers.insert(root, at: 0)
      }
      let chain = makeChain(chainMembers, labels: labels)
      return chain.files.count >= n ? chain : nil
    }
  }

  /// The position in ``deliveries`` of each delivery id (the first, should one repeat).
  private func deliveryPositions() -> [UInt64: Int] {
    var positions: [UInt64: Int] = [:]
    positions.reserveCapacity(deliveries.count)
    for (position, delivery) in deliveries.enumerated() where positions[delivery.id] == nil {
      positions[delivery.id] = position
    }
    return positions
  }

  /// A delivery's event as a step shows it: `next(coffee)` with the value when it was recorded
  /// (cut at 80 characters), `next`, `completed`, `error(…)`.
  static func describe(_ delivery: Delivery) -> String {
    guard let value = delivery.value else { return delivery.event.rawValue }
    let shown = value.count > 80 ? value.prefix(79) + "…" : Substring(value)
    return "\(delivery.event.rawValue)(\(shown))"
  }

  /// The chain of the deliveries at `members`, the first being where it starts.
  private func makeChain(_ members: [Int], labels: NodeLabels) -> DeliveryChain {
    var files: [String] = []
    var steps: [String] = []
    for position in members {
      let delivery = deliveries[position]
      for end in [delivery.from, delivery.to] {
        if let file = labels.file(end) {
          files.append(file)
        }
      }
      var step =
        "#\(delivery.id) \(Self.describe(delivery)): "
        + "\(labels.label(delivery.from)) -> \(labels.label(delivery.to))"
      if delivery.hop != .direct {
        // The queue as the developer named it; the thread only where no scheduler said.
        step +=
          delivery.queue.map { " [via \($0)]" }
          ?? " [\(delivery.hop.rawValue), thread \(delivery.thread)]"
      }
      steps.append(step)
    }
    return DeliveryChain(
      deliveries: members.map { deliveries[$0] }, files: Self.distinct(files), steps: steps)
  }
}

/// Node labels and files by id, for the queries over deliveries.
private struct NodeLabels {
  private var nodes: [UInt64: TraceGraph.Node] = [:]

  init(_ graph: TraceGraph) {
    for node in graph.nodes where nodes[node.id] == nil {
      nodes[node.id] = node
    }
  }

  func label(_ id: UInt64) -> String { TraceGraph.describe(nodes[id], id: id) }

  /// The node's file; `nil` for one without a call site (an observer subscribed through the
  /// protocol's `subscribe(_:)`), which no chain counts as a file.
  func file(_ id: UInt64) -> String? {
    guard let file = nodes[id]?.file, !file.isEmpty else { return nil }
    return file
  }
}

extension TraceGraph {
  /// A delivery and the deliveries it caused, transitively (``TraceGraph/chain(of:)``,
  /// ``TraceGraph/chainsCrossingFiles(atLeast:)``).
  public struct DeliveryChain: Sendable, Equatable, CustomStringConvertible {
    /// The deliveries, the one the chain starts from first, then the rest oldest first.
    public var deliveries: [Delivery]
    /// The distinct files of the deliveries' `from` and `to` nodes, in first-touched order.
    public var files: [String]
    /// One line per delivery: `#id next(value): from -> to` (the value when recorded), with the
    /// scheduler or queue it hopped through (`[via main queue]`; the hop and thread where no
    /// scheduler said) when it did not run directly inside its cause.
    public var steps: [String]

    /// The delivery the chain starts from.
    public var origin: Delivery { deliveries[0] }

    /// A header line with the files, then one delivery a line.
    public var description: String {
      let header =
        "chain from #\(origin.id) across \(files.count) file\(files.count == 1 ? "" : "s")"
        + " (\(files.joined(separator: ", "))):"
      return ([header] + steps.map { "  \($0)" }).joined(separator: "\n")
    }
  }
}
