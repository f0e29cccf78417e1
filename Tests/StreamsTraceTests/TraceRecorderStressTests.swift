import Dispatch
import Streams
import StreamsTrace
import Testing

@Suite("Trace recorder stress", .serialized)
struct TraceRecorderStressTests {
  @Test("4 threads subscribing, emitting, sending on and disposing with tracing on: exact counts")
  func fourThreads() throws {
    let threads = 4
    let rounds = 200
    let events = 10
    let recorder = TraceRecorder(configuration: TraceConfiguration(recentDeliveries: 64))
    try Tracing.withTracer(recorder) {
      let shared = PublishSubject<Int>()
      let received = Counter()
      let sharedSubscription = shared.subscribe(onNext: { _ in received.add(1) })
      concurrentlyTraced(iterations: threads) { _ in
        for _ in 0..<rounds {
          let own = PublishSubject<Int>()
          let subscription = own.map { $0 + 1 }.subscribe(onNext: { shared.onNext($0) })
          for value in 0..<events { own.onNext(value) }
          subscription.dispose()
        }
      }
      sharedSubscription.dispose()
      let graph = recorder.graph
      let total = threads * rounds * events
      #expect(received.value == total)

      let subjects = graph.nodes.filter { $0.kind == "PublishSubject" }
      let own = try #require(
        subjects.first { $0.line != 0 && $0.subscriptionCount == threads * rounds })
      let sharedNode = try #require(subjects.first { $0.id == shared.traceNodeID })
      let map = try #require(graph.nodes.first { $0.kind == "map" })
      let terminals = graph.nodes.filter { $0.role == .terminal && $0.upstreams == [map.id] }
      #expect(terminals.count == 1)
      let terminal = try #require(terminals.first)
      func edge(_ from: UInt64, _ to: UInt64, _ kind: TraceGraph.EdgeKind) -> TraceGraph.Edge? {
        graph.edges.first { $0.from == from && $0.to == to && $0.kind == kind }
      }
      #expect(own.eventCount == total)
      #expect(edge(own.id, map.id, .subscription)?.count == threads * rounds)
      #expect(edge(own.id, map.id, .subscription)?.live == 0)
      #expect(edge(own.id, map.id, .emission)?.count == total)
      #expect(edge(map.id, terminal.id, .emission)?.count == total)
      #expect(edge(map.id, terminal.id, .subscription)?.live == 0)
      #expect(
        edge(terminal.id, sharedNode.id, .chain)?.count == total,
        "\(graph.nodes.map { "#\($0.id) \(graph.describe(node: $0.id)) \($0.eventCount)" })")
      #expect(sharedNode.eventCount == total, "\(graph.edges.filter { $0.kind == .chain })")
      #expect(graph.subscriptions.isEmpty)
      #expect(graph.deliveries.count == 64)
    }
  }
}

/// A counter that several threads add to.
final class Counter: @unchecked Sendable {
  // `@unchecked Sendable`: `count` is only touched on the serial `queue`.
  private let queue = DispatchQueue(label: "Counter")
  private var count = 0

  func add(_ amount: Int) { queue.sync { count += amount } }

  var value: Int { queue.sync { count } }
}
