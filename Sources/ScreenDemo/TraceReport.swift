// What the demo prints and writes about the recorded trace.

import StreamsTrace

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Prints the cross-file chain of the "add coffee" tap and the trace's summary, and writes the
/// trace as a dump, Graphviz DOT, Mermaid and a Perfetto timeline into `folder`.
func report(_ graph: TraceGraph, into folder: String) {
  print("")
  print("== who emits to whom ==")
  if let tap = graph.deliveries.first(where: { $0.cause == nil && $0.value == "coffee" }),
    let chain = graph.chain(of: tap.id)
  {
    let subjects = Set(graph.nodes.filter { $0.role == .subject }.map(\.id))
    print(
      "the tap on \"add coffee\" set off \(chain.deliveries.count) deliveries across"
        + " \(chain.files.count) files: \(chain.files.joined(separator: ", "))")
    print("its sends into subjects and relays, the steps from one object to another:")
    for (delivery, step) in zip(chain.deliveries, chain.steps) where subjects.contains(delivery.to)
    {
      print("  \(step)")
    }
  }
  print("")
  print(graph.summary)
  for cycle in graph.dynamicCycles() {
    print("  \(cycle)")
  }
  for leak in graph.leaks() {
    print("  \(leak)")
  }
  print("")
  mkdir(folder, 0o755)
  let files = [
    ("screen.dump.json", graph.dump()),
    ("screen.dot", graph.dot()),
    ("screen.mmd", graph.mermaid()),
    ("screen.trace.json", graph.chromeTrace()),
  ]
  for (name, text) in files {
    let path = folder + "/" + name
    do throws(TraceFile.Error) {
      try TraceFile.write(text, to: path)
      print("wrote \(path)")
    } catch {
      print("could not write \(path): \(error)")
    }
  }
  print("look at it:")
  print("  swift run --package-path Sources/Tools streams-trace cycles \(folder)/screen.dump.json")
  print("  swift run --package-path Sources/Tools streams-trace leaks \(folder)/screen.dump.json")
  print("  dot -Tsvg \(folder)/screen.dot -o screen.svg")
  print("  open \(folder)/screen.trace.json at https://ui.perfetto.dev")
}
