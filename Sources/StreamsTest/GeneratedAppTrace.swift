import StreamsTrace

/// The trace of a generated app of many screens, shaped like a recorded one: for tests and
/// benchmarks of the trace tools at the size of a real app.
///
/// Each screen `Screen<i>ViewModel` (in `Feature<i % 10>/Screen<i>ViewModel.swift`) owns three
/// subjects (`input`, `state`, `events`) and `subscriptionsPerScreen` subscriptions, each a
/// `map` or a `map` and a `filter`, then a subscriber: some bind into the screen's own `state`,
/// some send into one of ten shared stores (`CartStore.added`, `SessionStore.changed`, ...), and
/// the first three stores' subscribers send back into screens 0 to 2's `input`, which send into
/// those stores: the cycles. The subscriptions of screens 3 and 4 that `SessionStore`'s bag keeps
/// leak. Recent deliveries hold one user action's chain, with values.
///
/// ```swift
/// let graph = GeneratedAppTrace.make(screens: 200, subscriptionsPerScreen: 25)
/// print(graph.nodes.count)  // 13,023
/// ```
public enum GeneratedAppTrace {
  /// The stores every screen may send into.
  public static let stores = [
    "CartStore", "SessionStore", "FeedStore", "InboxStore", "SearchStore", "ProfileStore",
    "SettingsStore", "NotificationsStore", "PaymentsStore", "MediaStore",
  ]

  /// A trace of `screens` screens with `subscriptionsPerScreen` subscriptions each.
  public static func make(screens: Int, subscriptionsPerScreen: Int) -> TraceGraph {
    var builder = Builder()
    // The stores: a subject each, and a subscriber that sends back into screens' input.
    var storeSubjects: [UInt64] = []
    for (number, store) in stores.enumerated() {
      let file = "Stores/\(store).swift"
      storeSubjects.append(
        builder.node(
          "PublishSubject", .subject, file: file, line: 8, owner: store,
          name: "\(store).\(number == 1 ? "changed" : "added")"))
    }
    var screenInputs: [UInt64] = []
    for screen in 0..<screens {
      let owner = "Screen\(screen)ViewModel"
      let file = "Feature\(screen % 10)/\(owner).swift"
      let input = builder.node(
        "PublishSubject", .subject, file: file, line: 6, owner: owner, name: "\(owner).input")
      let state = builder.node(
        "BehaviorSubject", .subject, file: file, line: 7, owner: owner, name: "\(owner).state")
      let events = builder.node(
        "PublishSubject", .subject, file: file, line: 8, owner: owner, name: "\(owner).events")
      screenInputs.append(input)
      for index in 0..<subscriptionsPerScreen {
        let line = UInt(20 + index * 4)
        let source = [input, state, events][index % 3]
        var upstream = builder.node(
          "map", .operator, file: file, line: line, owner: owner, upstreams: [source])
        builder.subscribe(source, upstream, events: index % 7 + 1)
        if index % 2 == 1 {
          let filter = builder.node(
            "filter", .operator, file: file, line: line + 1, owner: owner, upstreams: [upstream])
          builder.subscribe(upstream, filter, events: index % 5 + 1)
          upstream = filter
        }
        let kind = index % 3 == 0 ? "bind(to:)" : "subscribe"
        let terminal = builder.node(
          kind, .terminal, file: file, line: line + 2, owner: owner, upstreams: [upstream])
        builder.subscribe(upstream, terminal, events: index % 4 + 1)
        let leaked = (screen == 3 || screen == 4) && index == 4
        builder.live(upstream, terminal, owner: owner, file: file, line: line + 2, gone: leaked)
        if index % 3 == 0 {
          builder.send(terminal, into: state, count: 1)
        } else if index % 5 == 2 {
          let store = (screen + index) % stores.count
          builder.send(terminal, into: storeSubjects[store], count: index % 3 + 1)
        }
        if leaked {
          builder.send(terminal, into: storeSubjects[1], count: 1)
        }
      }
    }
    // Each store's subscriber sends back into three screens' input; screens 0 to 2 send into
    // their store, so those loops close.
    for (number, store) in stores.enumerated() {
      let file = "Stores/\(store).swift"
      let terminal = builder.node(
        "subscribe", .terminal, file: file, line: 14, owner: store,
        upstreams: [storeSubjects[number]])
      builder.subscribe(storeSubjects[number], terminal, events: 3)
      builder.live(storeSubjects[number], terminal, owner: store, file: file, line: 14, gone: false)
      if number < 3, number < screenInputs.count {
        builder.send(terminal, into: screenInputs[number], count: 2)
      }
    }
    for screen in 0..<min(3, screens) {
      let owner = "Screen\(screen)ViewModel"
      let file = "Feature\(screen % 10)/\(owner).swift"
      let source = screenInputs[screen]
      let terminal = builder.node(
        "subscribe", .terminal, file: file, line: 200, owner: owner, upstreams: [source])
      builder.subscribe(source, terminal, events: 2)
      builder.live(source, terminal, owner: owner, file: file, line: 200, gone: false)
      builder.send(terminal, into: storeSubjects[screen], count: 2)
    }
    builder.deliveries(from: storeSubjects[0], values: ["coffee", "tea", "cake"])
    return builder.graph
  }

  private struct Builder {
    var graph = TraceGraph()
    var nextID: UInt64 = 1
    var nextSubscription: UInt64 = 1
    var edgeSlots: [String: Int] = [:]

    mutating func node(
      _ kind: String, _ role: TraceGraph.Role, file: String, line: UInt, owner: String,
      name: String? = nil, upstreams: [UInt64] = []
    ) -> UInt64 {
      let id = nextID
      nextID += 1
      graph.nodes.append(
        TraceGraph.Node(
          id: id, kind: kind, role: role, file: file, line: line, owner: owner, name: name,
          upstreams: upstreams, subscriptionCount: 1))
      return id
    }

    mutating func subscribe(_ from: UInt64, _ to: UInt64, events: Int) {
      edge(from, to, .subscription, count: 1, live: 1)
      edge(from, to, .emission, count: events, live: 0)
    }

    mutating func send(_ from: UInt64, into to: UInt64, count: Int) {
      edge(from, to, .chain, count: count, live: 0)
    }

    mutating func live(
      _ node: UInt64, _ subscriber: UInt64, owner: String, file: String, line: UInt, gone: Bool
    ) {
      graph.subscriptions.append(
        TraceGraph.Subscription(
          id: nextSubscription, node: node, subscriber: subscriber, owner: owner,
          ownerGone: gone, file: file, line: line,
          bag: gone
            ? TraceGraph.Bag(file: "Stores/SessionStore.swift", line: 5, owner: "SessionStore")
            : nil))
      nextSubscription += 1
    }

    mutating func edge(
      _ from: UInt64, _ to: UInt64, _ kind: TraceGraph.EdgeKind, count: Int, live: Int
    ) {
      let key = "\(from) \(to) \(kind.rawValue)"
      if let slot = edgeSlots[key] {
        graph.edges[slot].count += count
        graph.edges[slot].live += live
        return
      }
      edgeSlots[key] = graph.edges.count
      graph.edges.append(
        TraceGraph.Edge(
          from: from, to: to, kind: kind, count: count, live: live, firstTime: 1_000,
          lastTime: 2_000))
    }

    /// A user action's chain: a send into `subject`, then what its subscribers sent, with values.
    mutating func deliveries(from subject: UInt64, values: [String]) {
      var id: UInt64 = 1
      var time: UInt64 = 1_000
      for value in values {
        let root = id
        graph.deliveries.append(
          TraceGraph.Delivery(
            id: root, from: subject, to: subject, event: .next, time: time, value: value))
        id += 1
        var cause = root
        var current = subject
        for _ in 0..<6 {
          guard
            let subscriber = graph.edges.first(where: {
              $0.from == current && $0.kind == .subscription
            })?.to,
            let next = graph.edges.first(where: { $0.from == subscriber && $0.kind == .chain })?.to
          else { break }
          time += 10
          graph.deliveries.append(
            TraceGraph.Delivery(
              id: id, from: current, to: subscriber, event: .next, cause: cause, time: time,
              value: value))
          cause = id
          id += 1
          time += 10
          graph.deliveries.append(
            TraceGraph.Delivery(
              id: id, from: subscriber, to: next, event: .next, cause: cause, time: time,
              value: value))
          cause = id
          id += 1
          current = next
        }
        time += 1_000
      }
    }
  }
}
