import Foundation
import Streams
import StreamsTrace
import Testing

extension TraceGraphPerfettoTests {
  // MARK: Checks every trace passes

  /// Checks what every trace of `graph` must satisfy, as a consumer reads it.
  func expectConsistent(_ trace: ChromeTraceReading, _ graph: TraceGraph) throws {
    #expect(trace.inexactTimes.isEmpty, "\(trace.inexactTimes.prefix(5))")
    #expect(trace.unsortedEvents.isEmpty, "\(trace.unsortedEvents.prefix(5))")
    #expect(trace.overlaps.isEmpty, "\(trace.overlaps.prefix(5))")
    #expect(trace.keyOrderProblems.isEmpty, "\(trace.keyOrderProblems.prefix(5))")
    // Tracks: one pid per file, one tid per track, never a pid.
    var files: [String] = []
    var ids: Set<UInt64> = []
    for node in graph.nodes where ids.insert(node.id).inserted && !files.contains(node.file) {
      files.append(node.file)
    }
    #expect(
      Array(trace.processNames.values.sorted().filter { $0 != "(not in the graph)" })
        == files.sorted())
    #expect(Set(trace.threadNames.keys.map(\.tid)).isDisjoint(with: trace.processNames.keys))
    #expect(Set(trace.threadNames.keys.map(\.tid)).count == trace.threadNames.count)
    for id in ids {
      #expect(trace.threadNames.values.contains(chromeLabel(graph, id)), "node \(id)")
    }
    // A slice per delivery, on its receiver's track (or an overlap track of it).
    #expect(trace.slices.count == graph.deliveries.count)
    #expect(trace.slices.map(\.delivery).sorted() == graph.deliveries.map(\.id).sorted())
    for slice in trace.slices {
      let name = try #require(trace.threadNames[slice.track])
      let receiver = try #require(ChromeTraceReading.id(slice.args["to"]))
      let expected = chromeLabel(graph, receiver)
      #expect(name == expected || name.hasPrefix(expected + " [overlap "), "\(slice)")
      #expect(slice.end >= slice.start)
    }
    // Slices start in the order the deliveries happened (by time, then id), each at a time of
    // its own, at its recorded time or just after.
    let base = Int64(trace.clockBase ?? "") ?? -1
    let ordered = graph.deliveries.sorted { ($0.time, $0.id) < ($1.time, $1.id) }
    var slicesByID = Dictionary(grouping: trace.slices, by: \.delivery)
      .mapValues { $0.sorted { $0.start < $1.start } }
    var startsInOrder: [Int64] = []
    for delivery in ordered {
      let slice = try #require(slicesByID[delivery.id]?.first, "no slice for #\(delivery.id)")
      slicesByID[delivery.id]?.removeFirst()
      startsInOrder.append(slice.start)
      #expect(slice.args["time_ns"] as? Int == Int(delivery.time))
      let recorded = Int64(delivery.time) - base
      #expect(slice.start >= recorded && slice.start - recorded < Int64(ordered.count))
    }
    #expect(zip(startsInOrder, startsInOrder.dropFirst()).allSatisfy { $0 < $1 })
    // Every arrow joins a cause to its effect, bound the same way by Perfetto and by time.
    let flows = try trace.boundFlows()
    #expect(flows == chromeExpectedFlows(graph))
    #expect(try trace.timeBoundFlows() == flows)
    #expect(trace.instants.count == chromeExpectedInstants(graph))
  }
}

// MARK: - Expectations

/// A node's track name, as the trace names it.
func chromeLabel(_ graph: TraceGraph, _ id: UInt64) -> String {
  guard graph.nodes.contains(where: { $0.id == id }) else {
    return "node #\(id) (not in the graph)"
  }
  return graph.describe(node: id) + " #\(id)"
}

/// The (cause, effect) delivery ids of the arrows: every delivery whose cause the graph holds
/// (its first entry of that id) and happened before it, by time, then id, then position.
func chromeExpectedFlows(_ graph: TraceGraph) -> [[UInt64]] {
  var positions: [UInt64: Int] = [:]
  for (position, delivery) in graph.deliveries.enumerated() where positions[delivery.id] == nil {
    positions[delivery.id] = position
  }
  var pairs: [[UInt64]] = []
  for (position, delivery) in graph.deliveries.enumerated() {
    guard let cause = delivery.cause, let parent = positions[cause], parent != position else {
      continue
    }
    let before = graph.deliveries[parent]
    if (before.time, before.id, parent) < (delivery.time, delivery.id, position) {
      pairs.append([cause, delivery.id])
    }
  }
  return pairs.sorted { $0.lexicographicallyPrecedes($1) }
}

/// One instant per subscription or control edge with a first time, and one more for its last
/// time when it counts two or more subscriptions.
func chromeExpectedInstants(_ graph: TraceGraph) -> Int {
  graph.edges.reduce(0) { count, edge in
    guard edge.kind == .subscription || edge.kind == .control, edge.firstTime > 0 else {
      return count
    }
    let latest = edge.count >= 2 && edge.lastTime > 0 && edge.lastTime != edge.firstTime
    return count + (latest ? 2 : 1)
  }
}

/// Writes the trace and what a consumer must find in it to `STREAMS_EXPORT_DIR`, if set.
func chromeExport(_ name: String, _ trace: ChromeTraceReading, _ graph: TraceGraph) throws {
  guard let directory = ProcessInfo.processInfo.environment["STREAMS_EXPORT_DIR"],
    !directory.isEmpty
  else { return }
  let folder = URL(fileURLWithPath: directory, isDirectory: true)
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  try trace.text.write(
    to: folder.appendingPathComponent("\(name).trace.json"), atomically: true, encoding: .utf8)
  var tracks: [String: String] = [:]
  for delivery in graph.deliveries {
    tracks[String(delivery.id)] = chromeLabel(graph, delivery.to)
  }
  // The files in the order their first nodes come, then one process for nodes the graph lacks.
  var processes: [String] = []
  var known: Set<UInt64> = []
  for node in graph.nodes where known.insert(node.id).inserted && !processes.contains(node.file) {
    processes.append(node.file)
  }
  let subscribers = graph.edges.filter {
    ($0.kind == .subscription || $0.kind == .control) && $0.firstTime > 0
  }.map(\.to)
  if !(graph.deliveries.map(\.to) + subscribers).allSatisfy(known.contains) {
    processes.append("(not in the graph)")
  }
  let expectations: [String: Any] = [
    "slices": graph.deliveries.count,
    "flows": chromeExpectedFlows(graph).map { $0.map { $0 <= 1 << 53 ? $0 as Any : String($0) } },
    "slice_tracks": tracks,
    "instants": chromeExpectedInstants(graph),
    "processes": processes,
  ]
  let data = try JSONSerialization.data(
    withJSONObject: expectations, options: [.sortedKeys, .prettyPrinted])
  try data.write(to: folder.appendingPathComponent("\(name).expect.json"))
}
