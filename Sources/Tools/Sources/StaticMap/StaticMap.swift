import Foundation
import StreamsTrace

/// The static map of an app's source: who subscribes to whom and who sends into what, read from
/// the Swift files under a folder without building them, in the graph a recorded trace gives
/// (``TraceGraph``, its ``TraceGraph/origin`` `.static`), so every query and export of
/// StreamsTrace works on it.
///
/// ```swift
/// let map = try StaticMap(folder: "Sources/MyApp")
/// print(map.summary)
/// try TraceFile.write(map.graph.dump(), to: "map.dump.json")
/// ```
///
/// It reads RxSwift, RxRelay, RxCocoa and Streams code alike. It follows stored properties, their
/// declared or inferred types, member chains (`viewModel.output.items`), locals, method calls of
/// known types and their returned streams, memberwise construction (`Output(items: ...)`, the
/// `transform(input:)` pattern), and the sends in a subscriber's closures and in the methods
/// those closures call. What it cannot resolve it counts and lists (``references``).
public struct StaticMap: Sendable {
  /// The graph.
  public let graph: TraceGraph
  /// Every file read, with what it imports and holds.
  public let files: [FileReport]
  /// Every place a stream was expected (the receiver of a send or a subscription, a
  /// `bind(to:)` target), resolved or not.
  public let references: [Reference]
  /// Subscriptions that may outlive what they serve.
  public let leakCandidates: [LeakCandidate]
  /// Files skipped or read with errors, each with why.
  public let warnings: [String]
  /// The files that send into each node (in a subscriber's closure or not), and the files that
  /// subscribe to it.
  public let writers: [UInt64: Set<String>]
  public let readers: [UInt64: Set<String>]
  /// The top-level types the source declares (classes, structs, enums, actors): the owners an
  /// app can move. Code in an extension of a type declared elsewhere (`extension Reactive`)
  /// is owned by that type, which is not among them.
  public let declaredTypes: Set<String>

  /// A place where the map expected a stream.
  public struct Reference: Sendable, Equatable {
    public var file: String
    public var line: UInt
    /// The expression, as written (cut at 80 characters).
    public var text: String
    /// Whether the map found the stream it names.
    public var resolved: Bool
  }

  /// A subscription that may outlive what it serves, with why.
  public struct LeakCandidate: Sendable, Equatable {
    /// The terminal node.
    public var node: UInt64
    /// `File.swift:12`.
    public var site: String
    public var reason: String
  }

  /// One file: its imports, and what it holds and does.
  public struct FileReport: Sendable, Equatable {
    public var path: String
    /// `RxSwift`, `RxCocoa`, `Streams`... (those the migration table reports).
    public var imports: [String]
    /// Stream nodes (subjects, relays, derived sequences) declared in it.
    public var streams: Int
    /// Terminal subscriptions made in it.
    public var subscriptions: Int
    /// Chain edges that start in this file and end in another (out), or start in another and end
    /// here (in).
    public var chainsOut: Int
    public var chainsIn: Int
  }

  /// Reads every `.swift` file under `folder`, skipping ``skippedFolders``, hidden
  /// folders and the folder names in `excluding`.
  ///
  /// - Throws: ``MapError`` when `folder` cannot be read.
  public init(folder: String, excluding: Set<String> = []) throws(MapError) {
    let found = try SourceFolder.swiftFiles(in: folder, excluding: excluding)
    self.init(sources: found.files, warnings: found.warnings)
  }

  /// The folders never read, wherever they are: dependencies and build output (`Pods`,
  /// `Carthage`, `.build`, `DerivedData`, `node_modules`), sorted.
  public static var skippedFolders: [String] { SourceFolder.skipped.sorted() }

  /// Maps the given sources: `(path, text)` pairs, the path as the map should name the file.
  public init(sources: [(path: String, text: String)], warnings: [String] = []) {
    var warnings = warnings
    let parsed = sources.map { ParsedFile(path: $0.path, text: $0.text) }
    for file in parsed where file.hasErrors {
      warnings.append("\(file.path): does not parse cleanly; read as far as the parser recovered")
    }
    let table = TypeTable(parsed)
    let extractor = Extractor(table: table)
    extractor.read(parsed)
    graph = extractor.graph.graph(
      passThrough: Set(extractor.parameterNodes.values).union(extractor.holderNodes))
    references = extractor.references
    leakCandidates = extractor.leakCandidates
    writers = extractor.graph.writers
    readers = extractor.graph.readers
    self.warnings = warnings
    declaredTypes = Set(
      table.types.values.filter(\.isDeclared).map { $0.name }.filter { !$0.contains(".") })
    files = Self.fileReports(parsed, graph: graph)
  }

  private static func fileReports(_ files: [ParsedFile], graph: TraceGraph) -> [FileReport] {
    var byID: [UInt64: TraceGraph.Node] = [:]
    for node in graph.nodes { byID[node.id] = node }
    var reports: [String: FileReport] = [:]
    for file in files {
      reports[file.path] = FileReport(
        path: file.path,
        imports: file.imports.filter {
          Vocabulary.rxModules.contains($0) || Vocabulary.streamsModules.contains($0)
        },
        streams: 0, subscriptions: 0, chainsOut: 0, chainsIn: 0)
    }
    for node in graph.nodes {
      if node.role == .terminal {
        reports[node.file]?.subscriptions += 1
      } else if node.name != nil || node.role == .subject {
        reports[node.file]?.streams += 1
      }
    }
    for edge in graph.edges where edge.kind == .chain {
      guard let from = byID[edge.from]?.file, let to = byID[edge.to]?.file, from != to else {
        continue
      }
      reports[from]?.chainsOut += edge.count
      reports[to]?.chainsIn += edge.count
    }
    return reports.values.sorted { $0.path < $1.path }
  }

  /// How many references were resolved.
  public var resolvedCount: Int { references.filter(\.resolved).count }
}

/// Why a folder could not be mapped.
public struct MapError: Error, Sendable, CustomStringConvertible {
  public var description: String
}
