import Foundation
import StreamsTest
import StreamsTrace

// The command line's answer times on the trace of a generated app (`GeneratedAppTrace`, 200
// screens × 25 subscriptions by default): each query as `streams-trace` runs it, reading the dump
// from a file, timed over several runs (the median and the slowest).
//
//   trace-queries [SCREENS] [RUNS]        # defaults: 200 5
//
// Run it in a release build (`swift run --package-path Benchmarks -c release trace-queries`).
// Times are wall-clock and move with the machine's load.

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let screens = arguments.first ?? 200
let runs = arguments.count > 1 ? arguments[1] : 5

let graph = GeneratedAppTrace.make(screens: screens, subscriptionsPerScreen: 25)
let folder = NSTemporaryDirectory() + "trace-queries-\(getpid())"
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
let dump = folder + "/app.dump.json"
try TraceFile.write(graph.dump(), to: dump)
let size = (try FileManager.default.attributesOfItem(atPath: dump)[.size] as? Int) ?? 0
print(
  "generated app: \(screens) screens, \(graph.nodes.count) nodes, \(graph.edges.count) edges, "
    + "dump \(size / 1000) kB; \(runs) runs per query")

let queries: [[String]] = [
  ["summary", dump],
  ["cycles", dump],
  ["leaks", dump],
  ["coupling", dump],
  ["path", dump, "--from", "CartStore.added", "--to", "Screen7ViewModel.state"],
  ["reach", dump, "Screen3ViewModel.input"],
  ["chain", dump, "1"],
  ["chain", dump, "--files", "3"],
  [
    "graph", dump, "--format", "dot", "--focus", "CartStore.added", "--depth", "1",
    "--output", folder + "/focus.dot",
  ],
  ["coupling", dump, "--format", "dot", "--output", folder + "/coupling.dot"],
  ["diff", dump, dump],
  ["report", dump, "--output", folder + "/report"],
]
print("query".padding(toLength: 44, withPad: " ", startingAt: 0) + "median      slowest")
for query in queries {
  var times: [Double] = []
  for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    let result = TraceCommand.run(query, environment: .files)
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    precondition(
      result.status == .success || result.status == .found,
      "trace-queries: \(query.joined(separator: " ")) failed: \(result.error)")
  }
  times.sort()
  let shown = query.map { $0.hasPrefix(folder) ? "…" + $0.dropFirst(folder.count) : $0 }
    .joined(separator: " ")
  print(
    String(shown.prefix(43)).padding(toLength: 44, withPad: " ", startingAt: 0)
      + String(format: "%.3f s     %.3f s", times[times.count / 2], times[times.count - 1]))
}
try? FileManager.default.removeItem(atPath: folder)
