import Streams
import StreamsTest
import StreamsTrace
import Testing

/// Each fixture records with a recorder bound to its own work (`Tracing.withTracer`), so these
/// tests run beside the others.
@Suite("Trace recorder")
struct TraceRecorderTests {
  /// The observer-sprawl fixture (`Sprawl/`), wired and driven by one user action.
  struct Sprawl {
    let graph: TraceGraph
    let cart: CartViewModel
    let analytics: Analytics

    init(configuration: TraceConfiguration = TraceConfiguration()) {
      let recorder = TraceRecorder(configuration: configuration)
      (graph, cart, analytics) = Tracing.withTracer(recorder) {
        let catalog = CatalogViewModel()
        let analytics = Analytics(catalog: catalog)
        let cart = CartViewModel(catalog: catalog, analytics: analytics)
        let badge = CartBadge(cart: cart, analytics: analytics)
        var banner: PromoBanner? = PromoBanner(catalog: catalog, analytics: analytics)
        banner = nil  // its subscription stays live: the leak
        catalog.selection.accept("apple")  // the user's action
        defer { withExtendedLifetime((badge, banner)) {} }
        return (recorder.graph, cart, analytics)
      }
    }

    func node(_ kind: String, owner: String) -> TraceGraph.Node {
      let matches = graph.nodes.filter { $0.kind == kind && $0.owner == owner }
      #expect(matches.count == 1, "one \(kind) owned by \(owner): \(matches)")
      return matches[0]
    }

    func edge(_ from: TraceGraph.Node, _ to: TraceGraph.Node, _ kind: TraceGraph.EdgeKind)
      -> TraceGraph.Edge?
    {
      graph.edges.first { $0.from == from.id && $0.to == to.id && $0.kind == kind }
    }
  }

  @Test("the fixture ran as written: the promoted item came back through analytics")
  func fixtureRan() {
    let sprawl = Sprawl()
    #expect(sprawl.cart.items.value == ["apple", "promoted"])
    // "badge 0": the cart's BehaviorRelay replays its empty list when the badge subscribes.
    #expect(
      sprawl.analytics.log == ["badge 0", "badge 1", "added apple", "badge 2", "added promoted"])
  }

  @Test("subjects, operators and terminal subscribers are nodes with call sites and owners")
  func nodes() {
    let sprawl = Sprawl()
    let selection = sprawl.node("PublishSubject", owner: "CatalogViewModel")
    #expect(selection.role == .subject)
    #expect(selection.file == "StreamsTraceTests/CatalogViewModel.swift")
    #expect(selection.line == 5)
    let items = sprawl.node("BehaviorSubject", owner: "CartViewModel")
    #expect(items.role == .subject)
    let badge = sprawl.node("subscribe(with:)", owner: "CartBadge")
    #expect(badge.role == .terminal)
    #expect(badge.file == "StreamsTraceTests/CartBadge.swift")
    let map = sprawl.node("map", owner: "CartBadge")
    #expect(map.upstreams == [items.id])
    #expect(map.role == .operator)
    let distinct = sprawl.node("distinctUntilChanged", owner: "CartBadge")
    #expect(distinct.upstreams == [map.id])
    #expect(badge.upstreams == [distinct.id])
    #expect(map.recentValues == ["0", "1", "2"])
  }

  @Test("subscription and emission edges, with counts")
  func dataEdges() throws {
    let sprawl = Sprawl()
    let selection = sprawl.node("PublishSubject", owner: "CatalogViewModel")
    let cartListener = sprawl.node("subscribe", owner: "CartViewModel")
    let subscription = try #require(sprawl.edge(selection, cartListener, .subscription))
    #expect(subscription.live == 1)
    #expect(subscription.count == 1)
    let emission = try #require(sprawl.edge(selection, cartListener, .emission))
    #expect(emission.count == 2)  // "apple", then "promoted"
    let filter = sprawl.node("filter", owner: "PromoBanner")
    #expect(sprawl.edge(selection, filter, .emission)?.count == 2)
    let banner = sprawl.node("subscribe(with:)", owner: "PromoBanner")
    #expect(sprawl.edge(filter, banner, .emission)?.count == 1)
  }

  @Test("the cross-file chain: a subscriber's closure sending into another file's subject")
  func chainEdges() throws {
    let sprawl = Sprawl()
    let cartListener = sprawl.node("subscribe", owner: "CartViewModel")
    let items = sprawl.node("BehaviorSubject", owner: "CartViewModel")
    let events = sprawl.node("PublishSubject", owner: "Analytics")
    let badge = sprawl.node("subscribe(with:)", owner: "CartBadge")
    let analyticsListener = sprawl.node("subscribe", owner: "Analytics")
    let selection = sprawl.node("PublishSubject", owner: "CatalogViewModel")
    #expect(sprawl.edge(cartListener, items, .chain)?.count == 2)
    #expect(sprawl.edge(cartListener, events, .chain)?.count == 2)
    #expect(sprawl.edge(badge, events, .chain)?.count == 3)
    #expect(sprawl.edge(analyticsListener, selection, .chain)?.count == 1)
    let chains = sprawl.graph.edges.filter { $0.kind == .chain }
    #expect(chains.count == 4)
  }

  @Test("one root event's chain crosses the fixture's files")
  func rootChain() throws {
    let sprawl = Sprawl()
    // Two roots: the cart's replay when the badge subscribed, and the user's accept, which is a
    // send into the selection relay from no delivery.
    let roots = sprawl.graph.deliveries.filter { $0.cause == nil }
    #expect(roots.count == 2)
    let root = try #require(roots.first { $0.from == $0.to })
    let selection = sprawl.node("PublishSubject", owner: "CatalogViewModel")
    #expect(root.to == selection.id)
    #expect(root.value == "apple")
    let chain = try #require(sprawl.graph.chain(of: root.id))
    let crossing = sprawl.graph.chainsCrossingFiles(atLeast: 4)
    #expect(crossing.count == 1)
    let files = Set(crossing.first?.files ?? [])
    #expect(
      files.isSuperset(of: [
        "StreamsTraceTests/CatalogViewModel.swift", "StreamsTraceTests/CartViewModel.swift",
        "StreamsTraceTests/CartBadge.swift", "StreamsTraceTests/Analytics.swift",
      ]))
    // By default the ring keeps the sends: the user's, and those the subscribers made.
    let subjects = Set(sprawl.graph.nodes.filter { $0.role == .subject }.map(\.id))
    #expect(chain.deliveries.allSatisfy { subjects.contains($0.to) })
    #expect(chain.deliveries.count == 8)
    #expect(chain.deliveries.dropFirst().allSatisfy { $0.cause != nil })
  }

  @Test("with a timeline, the chain holds every delivery between nodes as well")
  func rootChainTimeline() throws {
    let sprawl = Sprawl(configuration: TraceConfiguration(timeline: true))
    let root = try #require(sprawl.graph.deliveries.first { $0.cause == nil && $0.from == $0.to })
    let chain = try #require(sprawl.graph.chain(of: root.id))
    #expect(chain.deliveries.count > 10)
    #expect(Set(chain.files).count >= 4)
    let subjects = Set(sprawl.graph.nodes.filter { $0.role == .subject }.map(\.id))
    #expect(chain.deliveries.contains { !subjects.contains($0.to) })
  }

  @Test("the cycle through analytics back into the catalog is found, with its files")
  func cycle() throws {
    let sprawl = Sprawl()
    let cycles = sprawl.graph.structuralCycles()
    #expect(cycles.count == 1)
    let selection = sprawl.node("PublishSubject", owner: "CatalogViewModel")
    let events = sprawl.node("PublishSubject", owner: "Analytics")
    let cycle = try #require(cycles.first)
    #expect(cycle.nodes.contains(selection.id))
    #expect(cycle.nodes.contains(events.id))
    #expect(
      Set(cycle.files).isSuperset(of: [
        "StreamsTraceTests/CatalogViewModel.swift", "StreamsTraceTests/Analytics.swift",
      ]))
    // Dynamically too: analytics sent into the selection relay during a delivery that the
    // selection relay's own delivery caused.
    let dynamic = sprawl.graph.dynamicCycles()
    #expect(dynamic.map(\.node) == [selection.id])
  }

  @Test("the banner's subscription outlives the banner: a leak, with its subscribe site")
  func leak() throws {
    let sprawl = Sprawl()
    let leaks = sprawl.graph.leaks()
    #expect(leaks.count == 1)
    let leak = try #require(leaks.first)
    #expect(leak.owner == "PromoBanner")
    #expect(leak.file == "StreamsTraceTests/PromoBanner.swift")
  }

  @Test("subjects made at one call site are one node, and sends into any of them land on it")
  func subjectsOfOneCallSite() {
    func makeSubject() -> PublishSubject<Int> { PublishSubject() }
    let graph = TraceRecorder.record {
      let first = makeSubject()
      let second = makeSubject()
      _ = first.subscribe(onNext: { second.onNext($0 + 1) })
      _ = second.subscribe(onNext: { _ in })
      first.onNext(1)
    }
    let subjects = graph.nodes.filter { $0.kind == "PublishSubject" }
    #expect(subjects.count == 1)
    let ids = Set(graph.nodes.map(\.id))
    for edge in graph.edges {
      #expect(ids.contains(edge.from) && ids.contains(edge.to), "edge to a missing node: \(edge)")
    }
    for delivery in graph.deliveries {
      #expect(ids.contains(delivery.from) && ids.contains(delivery.to), "\(delivery)")
    }
    #expect(graph.edges.filter { $0.kind == .chain }.map(\.count) == [1])
  }

  @Test("a subscription deferred by subscribe(on:) is recorded against the node that made it")
  func deferredSubscription() throws {
    let scheduler = TestScheduler(initialClock: 0)
    let graph = TraceRecorder.record {
      _ = Observable.just(1).subscribe(on: scheduler).subscribe(onNext: { _ in })
      scheduler.start()
    }
    let just = try #require(graph.nodes.first { $0.kind == "just" })
    let subscribeOn = try #require(graph.nodes.first { $0.kind == "subscribe(on:)" })
    #expect(
      graph.edges.contains {
        $0.from == just.id && $0.to == subscribeOn.id && $0.kind == .subscription
      })
  }

  @Test("with no recorder installed nothing is recorded")
  func notInstalled() {
    let recorder = TraceRecorder()
    let subject = PublishSubject<Int>()
    _ = subject.subscribe(onNext: { _ in })
    subject.onNext(1)
    #expect(recorder.graph.nodes.isEmpty)
  }
}
