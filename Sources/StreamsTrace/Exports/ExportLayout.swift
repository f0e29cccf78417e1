/// What an export draws: boxes (nodes or merged groups of nodes) and one link per (from, to,
/// kind) pair of boxes, with the cycle marks and the clusters the boxes sit in.
struct ExportLayout {
  /// One box of the drawing.
  struct Box {
    /// The writers' identifier: `n<node id>` for a node, `g<number>` for a merged box.
    var id: String
    /// The first line: `owner · kind`, `owner · name`, or the group's owner, file or module.
    var title: String
    /// The second line: the kind (when named) and `File.swift:line`, or the group's size.
    var detail: String
    /// The node as ``TraceGraph/describe(node:)`` prints it, or the merged nodes one a line.
    var tooltip: String
    /// The node's role; `nil` for a merged box and for a node the trace does not have.
    var role: TraceGraph.Role?
    var isGroup: Bool
    /// `false` for an id that only an edge or an upstream list names.
    var isKnown: Bool
    /// The module cluster the box sits in, if any.
    var module: String?
    /// The `#fileID` of the file cluster the box sits in, if any (inside its module's).
    var file: String?
    /// Whether the box holds a node on a cycle.
    var onCycle: Bool
    /// Whether the box holds the subscriber of a leaked subscription.
    var leaked: Bool
  }

  /// One edge of the drawing: every edge of one kind between two boxes, counts summed.
  struct Link {
    /// Indices in ``ExportLayout/boxes``.
    var from: Int
    var to: Int
    var kind: TraceGraph.EdgeKind
    var count: Int
    var live: Int
    var recorded: Bool
    var onCycle: Bool
    var leaked: Bool

    /// `3 events` for emission and chain edges, `1 live / 2 ever` for subscription and control
    /// edges; empty when no recorded edge stands for it (only an upstream list names it).
    var label: String {
      guard recorded else { return "" }
      switch kind {
      case .emission, .chain: return "\(count) event\(count == 1 ? "" : "s")"
      case .subscription, .control: return "\(live) live / \(count) ever"
      }
    }
  }

  /// A cluster: a module holding file clusters, or a file holding boxes.
  struct Cluster {
    var label: String
    var boxes: [Int]
    var children: [Cluster]
  }

  var boxes: [Box]
  var links: [Link]
  var grouping: ExportGrouping
  /// What the export did, for the writers' comments (never user text).
  var notes: [String]
  /// When there is nothing to draw, what the one placeholder box says.
  var emptyMessage: String?

  /// The drawing's top level: boxes outside any cluster, then one cluster per module holding a
  /// cluster per file, then clusters of files without a module; each sorted by name.
  func clusters() -> Cluster {
    var loose: [Int] = []
    var modules: [String: [String: [Int]]] = [:]
    var moduleBoxes: [String: [Int]] = [:]
    var moduleless: [String: [Int]] = [:]
    for (number, box) in boxes.enumerated() {
      switch (box.module, box.file) {
      case (let module?, let file?): modules[module, default: [:]][file, default: []].append(number)
      case (let module?, nil):
        moduleBoxes[module, default: []].append(number)
        if modules[module] == nil { modules[module] = [:] }
      case (nil, let file?): moduleless[file, default: []].append(number)
      case (nil, nil): loose.append(number)
      }
    }
    // A cluster's label is never empty: Mermaid rejects an empty quoted title.
    func label(_ text: String) -> String {
      text.isEmpty ? "(no file name)" : ExportText.clean(text)
    }
    var children: [Cluster] = modules.keys.sorted().map { module in
      let files = modules[module]!
      return Cluster(
        label: label(module), boxes: moduleBoxes[module] ?? [],
        children: files.keys.sorted().map {
          Cluster(label: label(ExportText.fileName(of: $0)), boxes: files[$0]!, children: [])
        })
    }
    children += moduleless.keys.sorted().map {
      Cluster(label: label($0), boxes: moduleless[$0]!, children: [])
    }
    return Cluster(label: "", boxes: loose, children: children)
  }

  /// This layout with only the links at `kept` (indices in ``links``), in their order.
  func keeping(links kept: [Int]) -> ExportLayout {
    var copy = self
    copy.links = kept.sorted().map { links[$0] }
    return copy
  }
}

/// Text helpers shared by the writers.
enum ExportText {
  /// How many Unicode scalars of one name, kind or owner a label shows.
  static let limit = 60

  /// The module of a `#fileID`: its first path component, when it has more than one.
  static func module(of file: String) -> String? {
    guard let slash = file.firstIndex(of: "/"), slash != file.startIndex else { return nil }
    return String(file[..<slash])
  }

  /// A `#fileID` without its module: `TopViewModel.swift` for `ScreenDemo/TopViewModel.swift`.
  static func fileName(of file: String) -> String {
    guard module(of: file) != nil, let slash = file.firstIndex(of: "/") else { return file }
    return String(file[file.index(after: slash)...])
  }

  /// `text` as a label shows it: control characters other than newlines written as `\u{…}`,
  /// and cut to ``limit`` scalars with an ellipsis.
  static func clean(_ text: String) -> String {
    var result = String.UnicodeScalarView()
    var count = 0
    for scalar in text.unicodeScalars {
      if count == limit {
        result.append("…")
        break
      }
      count += 1
      let value = scalar.value
      if scalar == "\n" {
        result.append(scalar)
      } else if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
      {
        result.append(contentsOf: "\\u{\(String(value, radix: 16))}".unicodeScalars)
      } else {
        result.append(scalar)
      }
    }
    return String(result)
  }
}
