import Streams
import Testing

@testable import StreamsTrace
@testable import StreamsTraceRecording

@Suite("Trace recorder: bounded memory", .serialized)
struct TraceRecorderBoundedTests {
  @Test("a pipeline rebuilt for every element keeps the recorder's maps bounded (soak finding)")
  func rebuiltPipelinesStayBounded() throws {
    let recorder = TraceRecorder()
    try Tracing.withTracer(recorder) {
      let subject = PublishSubject<Int>()
      // Made first and kept: its merged ids are named by live records through every trim.
      let kept = subject.map { $0 + 1 }.subscribe(onNext: { _ in })
      let rounds = 3 * RecorderState.aliasTrimThreshold
      var bound = 0
      for round in 0..<rounds {
        let subscription = subject.map { $0 * 2 }.filter { $0 >= 0 }.subscribe(onNext: { _ in })
        subject.onNext(round)
        subscription.dispose()
        recorder.withState { state in
          bound = max(bound, state.aliases.count, state.values.count - state.nodes.count)
        }
      }
      subject.onNext(-1)
      kept.dispose()
      // Without trimming, every rebuilt pipeline left three aliases and three values objects.
      #expect(bound <= 2 * RecorderState.aliasTrimThreshold + 8)
      let graph = recorder.graph
      let ids = Set(graph.nodes.map(\.id))
      #expect(graph.edges.allSatisfy { ids.contains($0.from) && ids.contains($0.to) })
      #expect(graph.deliveries.allSatisfy { ids.contains($0.from) && ids.contains($0.to) })
      let maps = graph.nodes.filter { $0.kind == "map" }
      #expect(maps.map(\.subscriptionCount).sorted() == [1, rounds])
      let filter = try #require(graph.nodes.first { $0.kind == "filter" })
      #expect(filter.subscriptionCount == rounds)
      let rebuilt = try #require(maps.first { $0.subscriptionCount == rounds })
      let keptMap = try #require(maps.first { $0.subscriptionCount == 1 })
      func emissions(_ from: UInt64, _ to: UInt64) -> Int? {
        graph.edges.first { $0.from == from && $0.to == to && $0.kind == .emission }?.count
      }
      #expect(emissions(rebuilt.id, filter.id) == rounds)
      #expect(emissions(subject.traceNodeID, keptMap.id) == rounds + 1)
      #expect(graph.subscriptions.isEmpty)
    }
  }
}
