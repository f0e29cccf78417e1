import Streams

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Names a trace's nodes after the stored properties that hold them, from the app's source:
/// `let added = PublishSubject<Item>()` in `final class CartStore` is `CartStore.added`.
///
/// A node's call site is a `#fileID` (`App/CartStore.swift`) and a line. To read that line it
/// finds the file:
/// 1. by the full path (`#filePath`) a subject or relay recorded when it was created, so that a
///    run on the developer's machine (tests, the simulator) names without any setup;
/// 2. under the module's folder that those paths reveal (`…/Sources/App/` for `App/…`), or the
///    folder beside it named after another module;
/// 3. under the folders given (``TraceConfiguration/sourceRoots``, `--sources DIR` on the command
///    line), where one file of that name, preferring one in a folder named after the module.
///
/// A file it cannot find, or finds twice, names nothing: it never guesses.
///
/// Which nodes it names: subjects and relays declared as stored properties, and the sequences a
/// stored property derives (`let results = query.debounce(...).flatMapLatest(...)`: the last
/// operator of the statement is `SearchViewModel.results`; the ones before it get the owner).
/// Also a property assigned in a method (`self.results = ...`). Locals are not named. A name
/// given with ``TraceRecorder/name(_:_:owner:)`` wins.
final class SourceNames: Sendable {
  private struct State {
    /// Parsed files by full path (`nil`: unreadable).
    var files: [String: SourceDeclarations?] = [:]
    /// File names to full paths, per folder searched.
    var indexes: [String: [String: [String]]] = [:]
  }

  private let roots: [String]
  private let state = Locked(State())

  /// A library searching `roots` (folders) besides the paths nodes carry.
  init(roots: [String] = []) {
    self.roots = roots
  }

  /// Names `graph`'s nodes; `paths` maps a `#fileID` to the full path recorded for it.
  func apply(to graph: inout TraceGraph, paths: [String: String] = [:]) {
    let moduleRoots = Self.moduleRoots(paths)
    var declarations: [Int: SourceDeclarations.Declaration] = [:]
    var resolvedFiles: [String: String?] = [:]
    for (index, node) in graph.nodes.enumerated() where node.role != .terminal && node.line > 0 {
      let path: String?
      if let known = resolvedFiles[node.file] {
        path = known
      } else {
        path = locate(node.file, paths: paths, moduleRoots: moduleRoots)
        resolvedFiles[node.file] = path
      }
      guard let path, let line = Int(exactly: node.line), let source = parsed(path),
        let declaration = source.declaration(atLine: line)
      else { continue }
      declarations[index] = declaration
    }
    // Within one statement, the node no other node of it subscribes to is the property's value.
    var statements: [String: [Int]] = [:]
    for (index, declaration) in declarations {
      let file = graph.nodes[index].file
      statements["\(file):\(declaration.statementLine)", default: []].append(index)
    }
    for members in statements.values {
      let inner = Set(
        members.flatMap { graph.nodes[$0].upstreams + graph.nodes[$0].controlUpstreams })
      for index in members {
        let declaration = declarations[index]!
        // A node named already (`recorder.name`) keeps its name and its owner.
        guard graph.nodes[index].name == nil else { continue }
        graph.nodes[index].owner = declaration.owner
        let node = graph.nodes[index]
        if node.role == .subject || !inner.contains(node.id) {
          graph.nodes[index].name = declaration.name
        }
      }
    }
  }

  /// The declarations of the file at `path`, read once.
  private func parsed(_ path: String) -> SourceDeclarations? {
    if let known = state.withLock({ $0.files[path] }) { return known }
    let parsed = (try? TraceFile.read(path)).map(SourceDeclarations.init)
    state.withLock { $0.files[path] = parsed }
    return parsed
  }

  // MARK: Finding files

  /// The full path of the file `fileID` names, or `nil` when not found or found twice.
  func locate(_ fileID: String, paths: [String: String], moduleRoots: [String: String])
    -> String?
  {
    if let path = paths[fileID] { return path }
    let parts = fileID.split(separator: "/").map(String.init)
    guard let name = parts.last, name.hasSuffix(".swift") else { return nil }
    let module = parts.count > 1 ? parts[parts.count - 2] : nil
    var folders: [String] = []
    if let module {
      if let root = moduleRoots[module] {
        folders.append(root)
      } else {
        // A module beside one whose folder is known (`Sources/Feature` beside `Sources/App`).
        for root in moduleRoots.values.sorted() {
          let sibling = Self.parent(of: root) + "/" + module
          if Self.isDirectory(sibling) { folders.append(sibling) }
        }
      }
    }
    for folder in folders {
      let found = index(of: folder)[name] ?? []
      if found.count == 1 { return found[0] }
    }
    var found = roots.flatMap { index(of: $0)[name] ?? [] }
    if found.count > 1, let module {
      found = found.filter { $0.contains("/\(module)/") }
    }
    return found.count == 1 ? found[0] : nil
  }

  /// The folder of each module whose files' full paths are known: the nearest folder above a
  /// file named after its module (`/src/Sources/App/Cart/CartStore.swift` for `App/…` gives
  /// `/src/Sources/App`), or the file's own folder when none is.
  static func moduleRoots(_ paths: [String: String]) -> [String: String] {
    var roots: [String: String] = [:]
    for (fileID, path) in paths {
      let parts = fileID.split(separator: "/")
      guard parts.count == 2 else { continue }
      let module = String(parts[0])
      var folder = parent(of: path)
      var root = folder
      while !folder.isEmpty, folder != "/" {
        if folder.split(separator: "/").last.map(String.init) == module {
          root = folder
          break
        }
        folder = parent(of: folder)
      }
      roots[module] = roots[module].map { min($0, root) } ?? root
    }
    return roots
  }

  /// File names to full paths under `folder`, listed once.
  private func index(of folder: String) -> [String: [String]] {
    if let known = state.withLock({ $0.indexes[folder] }) { return known }
    var index: [String: [String]] = [:]
    var pending = [folder]
    var listed = 0
    while let current = pending.popLast(), listed < 200_000 {
      guard let directory = opendir(current) else { continue }
      defer { closedir(directory) }
      while let entry = readdir(directory) {
        listed += 1
        let name = withUnsafePointer(to: entry.pointee.d_name) {
          $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
        }
        if name.hasPrefix(".") || Self.skippedFolders.contains(name) { continue }
        let path = current + "/" + name
        if name.hasSuffix(".swift") {
          index[name, default: []].append(path)
        } else if Self.isDirectory(path) {
          pending.append(path)
        }
      }
    }
    state.withLock { $0.indexes[folder] = index }
    return index
  }

  /// Folders never searched: dependencies and build products.
  static let skippedFolders: Set<String> = [
    "Pods", "Carthage", "DerivedData", "node_modules", "build", "Build",
  ]

  static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  static func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
  }
}

extension TraceGraph {
  /// This graph with its nodes named after the stored properties that hold them, reading the
  /// source under `folders` (see `Guides/Tracing.md`, "Names"): `CartStore.added` for
  /// `let added = PublishSubject<Item>()` in `CartStore`. Names already given stay.
  ///
  /// For a dump recorded on another machine: a node's file is a `#fileID` (`App/CartStore.swift`),
  /// found as the one file of that name under `folders` (one in a folder named after the module
  /// when there are several); a file found nowhere or twice names nothing.
  ///
  /// ```swift
  /// let named = graph.namedFromSources(in: ["/src/MyApp"])
  /// print(named.nodes(matching: "CartStore.added").count)
  /// ```
  public func namedFromSources(in folders: [String]) -> TraceGraph {
    var graph = self
    SourceNames(roots: folders).apply(to: &graph)
    return graph
  }
}
