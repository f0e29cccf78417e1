import Dispatch
import Foundation
import Streams
import StreamsState
import StreamsTrace
import Synchronization
import Testing

/// Tracing off, or StreamsTrace's recorder installed (with a timeline, so that every delivery
/// also goes through the recorder's per-thread queues).
enum StressTracing: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case off
  case on

  var testDescription: String { "tracing \(rawValue)" }

  /// Runs `body` with the recorder bound (`.on`, ``Tracing/withTracer(_:_:)``) or not; with it,
  /// the graph read afterwards must have no live terminal subscription left and no edge or
  /// delivery naming an unknown node.
  func run(_ body: () -> Void) {
    guard self == .on else { return body() }
    let recorder = Self.makeRecorder()
    Tracing.withTracer(recorder, body)
    Self.check(recorder)
  }

  /// Runs `body` counting its objects in `scope`, with the recorder bound (`.on`) or not.
  func run(
    counting scope: Resources.Scope, isolation: isolated (any Actor)? = #isolation,
    _ body: () async -> Void
  ) async {
    guard self == .on else { return await scope.run(body) }
    let recorder = Self.makeRecorder()
    await scope.run { await Tracing.withTracer(recorder, body) }
    Self.check(recorder)
  }

  private static func makeRecorder() -> TraceRecorder {
    TraceRecorder(configuration: TraceConfiguration(recentDeliveries: 256, timeline: true))
  }

  private static func check(_ recorder: TraceRecorder) {
    let graph = recorder.graph
    let ids = Set(graph.nodes.map(\.id))
    #expect(graph.subscriptions.map(\.file) == [], "live subscriptions left in the trace")
    #expect(graph.edges.allSatisfy { ids.contains($0.from) && ids.contains($0.to) })
    #expect(graph.deliveries.allSatisfy { ids.contains($0.from) && ids.contains($0.to) })
  }
}
