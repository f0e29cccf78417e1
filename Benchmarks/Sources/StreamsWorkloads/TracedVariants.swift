import Streams
import StreamsTrace

/// The Streams workloads with a `TraceRecorder` installed while they are set up and run: the
/// cost of tracing on. Each entry's baseline is the same workload untraced, so the ratio the
/// benchmark shows is traced ÷ untraced.
public enum TracedVariants {
  /// Installs a recorder, sets up `make`'s workload under it, and uninstalls it at teardown.
  static func traced(recentValues: Int, _ make: () -> Workload) -> Workload {
    let recorder = TraceRecorder(configuration: TraceConfiguration(recentValues: recentValues))
    Tracing.install(recorder)
    let inner = make()
    return Workload(
      prepare: inner.prepare, run: inner.run,
      checksum: { inner.finish() &+ recorder.graph.edges.count },
      tearDown: { Tracing.install(nil) })
  }
}

extension Workloads {
  /// The workloads of the tracing budget, traced with values recorded and without.
  public static let traced: [Entry] = [
    Entry(
      name: "subject-map-filter-traced",
      streams: { TracedVariants.traced(recentValues: 8, StreamsVariants.subjectMapFilter) },
      baseline: StreamsVariants.subjectMapFilter, mallocsPerOperation: 0),
    Entry(
      name: "subject-map-filter-traced-novalues",
      streams: { TracedVariants.traced(recentValues: 0, StreamsVariants.subjectMapFilter) },
      baseline: StreamsVariants.subjectMapFilter, mallocsPerOperation: 0),
    Entry(
      name: "fanout-1000-traced",
      streams: { TracedVariants.traced(recentValues: 8, StreamsVariants.fanout1000) },
      baseline: StreamsVariants.fanout1000, mallocsPerOperation: 0),
    Entry(
      name: "fanout-1000-traced-novalues",
      streams: { TracedVariants.traced(recentValues: 0, StreamsVariants.fanout1000) },
      baseline: StreamsVariants.fanout1000, mallocsPerOperation: 0),
  ]
}
