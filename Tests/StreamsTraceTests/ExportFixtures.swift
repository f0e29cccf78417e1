import Foundation
import StreamsTrace
import Testing

/// The export tests' shared fixture: two modules, four files, every edge kind, a cycle through
/// two files, a named node, an id that only an edge names.
///
///     App/Feed.swift:    refresh(1, named) -> map(2) -> subscribe(3)
///     App/Header.swift:  relay(4) -> bind(5, owner HeaderView), relay(4) -> takeUntil(7)
///     Kit/Timer.swift:   interval(6) -control-> takeUntil(7)
///     subscribe(3) =chain=> relay(4), bind(5) =chain=> refresh(1): the cycle 1-2-3-4-5
///     takeUntil(7) -> node #99, which the trace does not have
let exportSample = TraceGraph(
  nodes: [
    .init(
      id: 1, kind: "PublishSubject", role: .subject, file: "App/Feed.swift", line: 3,
      owner: "Feed", name: "Feed.refresh"),
    .init(
      id: 2, kind: "map", role: .operator, file: "App/Feed.swift", line: 4, owner: "Feed",
      upstreams: [1]),
    .init(
      id: 3, kind: "subscribe", role: .terminal, file: "App/Feed.swift", line: 5, owner: "Feed",
      upstreams: [2]),
    .init(
      id: 4, kind: "BehaviorSubject", role: .subject, file: "App/Header.swift", line: 7,
      owner: "Header"),
    .init(
      id: 5, kind: "bind(to:)", role: .terminal, file: "App/Header.swift", line: 9,
      owner: "HeaderView", upstreams: [4]),
    .init(
      id: 6, kind: "interval", role: .source, file: "Kit/Timer.swift", line: 2, owner: "Timer"),
    .init(
      id: 7, kind: "take(until:)", role: .operator, file: "App/Header.swift", line: 10,
      owner: "Header", upstreams: [4], controlUpstreams: [6]),
  ],
  edges: [
    .init(from: 1, to: 2, kind: .subscription, count: 1, live: 1),
    .init(from: 1, to: 2, kind: .emission, count: 3),
    .init(from: 2, to: 3, kind: .subscription, count: 1, live: 1),
    .init(from: 2, to: 3, kind: .emission, count: 3),
    .init(from: 3, to: 4, kind: .chain, count: 3),
    .init(from: 4, to: 5, kind: .subscription, count: 2, live: 1),
    .init(from: 4, to: 5, kind: .emission, count: 4),
    .init(from: 5, to: 1, kind: .chain, count: 1),
    .init(from: 6, to: 7, kind: .control, count: 1, live: 1),
    .init(from: 4, to: 7, kind: .subscription, count: 1, live: 1),
    .init(from: 7, to: 99, kind: .emission, count: 2),
  ])

/// Names nobody should give a node, but someone will: quotes, backslashes, newlines, Mermaid's
/// link and shape syntax and keywords, HTML, entities, a directive, the pattern Mermaid rewrites,
/// non-ASCII, a control character. The literal each box must show is in `hostileLiterals`.
let hostileGraph = TraceGraph(
  nodes: [
    .init(
      id: 1, kind: "end", role: .subject, file: "Evil\"Mod/Fi le\\[x].swift", line: 1,
      owner: "Evil\"Owner\\", name: "a --> b ---o c ---x d | e"),
    .init(
      id: 2, kind: "<script>alert(1)</script>", role: .operator, file: "Evil\"Mod/Other.swift",
      line: 2, owner: "&lt; #quot; &amp;", upstreams: [1]),
    .init(
      id: 3, kind: "subgraph", role: .terminal, file: "Plain.swift", line: 3,
      owner: "%%{init: {\"theme\": \"dark\"}}%%", name: "style x:y#z; [a]{b}(c)", upstreams: [2]),
    .init(
      id: 4, kind: "emoji 😀 é 漢字", role: .source, file: "Ünïcode/Ёж.swift", line: 4,
      owner: "line\nbreak", name: "bell\u{7}tab\tend"),
  ],
  edges: [
    .init(from: 1, to: 2, kind: .subscription, count: 1, live: 1),
    .init(from: 1, to: 2, kind: .emission, count: 2),
    .init(from: 2, to: 3, kind: .emission, count: 2),
    .init(from: 3, to: 4, kind: .chain, count: 1),
    .init(from: 4, to: 1, kind: .control, count: 1, live: 0),
  ])

/// The texts the hostile graph's drawing must show as written (each within one label line).
let hostileLiterals = [
  "Evil\"Owner\\ · a --> b ---o c ---x d | e", "end  Fi le\\[x].swift:1",
  "&lt; #quot; &amp; · <script>alert(1)</script>", "Other.swift:2",
  "%%{init: {\"theme\": \"dark\"}}%% · style x:y#z; [a]{b}(c)", "subgraph  Plain.swift:3",
  "bell\\u{7}tab\\u{9}end", "emoji 😀 é 漢字  Ёж.swift:4", "Evil\"Mod", "Ünïcode",
]

/// Writes the exports the tests make to `$STREAMS_EXPORT_DIR`, when it is set, for
/// `.ci/check-graph-exports.sh` to render with Graphviz and Mermaid: `name` as given
/// (`*.dot`, `*.mmd`), and beside it `name.expect.json`, the literals its rendering must show.
enum ExportFiles {
  static func write(_ text: String, as name: String, showing literals: [String] = []) throws {
    guard let directory = ProcessInfo.processInfo.environment["STREAMS_EXPORT_DIR"],
      !directory.isEmpty
    else { return }
    let folder = URL(fileURLWithPath: directory, isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    if !literals.isEmpty {
      let json = try JSONSerialization.data(withJSONObject: literals, options: [.prettyPrinted])
      try json.write(to: folder.appendingPathComponent(name + ".expect.json"))
    }
  }
}
