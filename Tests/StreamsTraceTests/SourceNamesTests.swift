import Streams
import Testing

@testable import StreamsTrace
@testable import StreamsTraceRecording

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A type whose streams a trace names by their properties.
private final class Checkout {
  let placed = PublishSubject<String>()
  let total = BehaviorRelay(value: 0)
  let receipts: Observable<String>
  let bag = DisposeBag()

  init() {
    receipts =
      placed
      .filter { !$0.isEmpty }
      .map { "receipt for \($0)" }
  }
}

@Suite("Names from the source")
struct SourceNamesTests {
  // MARK: Reading declarations

  @Test("a stored property, a chain over lines and the type around it")
  func declarations() throws {
    let source = SourceDeclarations(
      """
      import Streams

      final class CartStore: Store {
        let added = PublishSubject<Item>()
        private(set) lazy var count: Observable<Int> = items
          .map(\\.count)
          .distinctUntilChanged()
        struct Output {
          let results = query.flatMapLatest { text in
            search(text)
          }.share()
        }
        func load() {
          let local = PublishSubject<Int>()
          self.loaded = local.map { $0 }
          count = local
            .asObservable()
        }
      }
      """)
    #expect(
      source.declaration(atLine: 4)
        == .init(owner: "CartStore", property: "added", statementLine: 4))
    #expect(source.declaration(atLine: 6)?.name == "CartStore.count")
    #expect(source.declaration(atLine: 7)?.statementLine == 5)
    #expect(source.declaration(atLine: 9)?.name == "CartStore.Output.results")
    #expect(source.declaration(atLine: 11)?.name == "CartStore.Output.results")
    // Inside a closure: a statement of its own, not a property.
    #expect(source.declaration(atLine: 10) == nil)
    // A local is not named; `self.loaded =` is, and `count =` since the type declares `count`.
    #expect(source.declaration(atLine: 14) == nil)
    #expect(source.declaration(atLine: 15)?.name == "CartStore.loaded")
    #expect(source.declaration(atLine: 17)?.name == "CartStore.count")
    #expect(source.declaration(atLine: 1) == nil)
    #expect(source.declaration(atLine: 99) == nil)
  }

  @Test("braces in strings, interpolations, raw strings and comments do not count")
  func lexing() {
    let source = SourceDeclarations(
      #"""
      enum Feed {
        static let title = "{ not a block \("}" + "{")"
        /* { a comment { nested } */ static let raw = #"}"# // }
        static let long = """
          }
          """
        static let items = PublishSubject<String>()
      }
      extension Feed.Row where Item: Equatable {
        static let taps = PublishRelay<Void>()
      }
      class Shop { class func make() -> Shop { Shop() }
        let opened = PublishSubject<Void>()
      }
      """#)
    #expect(source.declaration(atLine: 2)?.name == "Feed.title")
    #expect(source.declaration(atLine: 3)?.name == "Feed.raw")
    #expect(source.declaration(atLine: 7)?.name == "Feed.items")
    #expect(source.declaration(atLine: 10)?.name == "Feed.Row.taps")
    #expect(source.declaration(atLine: 13)?.name == "Shop.opened")
  }

  @Test("line counts survive CRLF, line continuations, regex quotes and hostile nesting")
  func lineCounting() {
    let crlf = SourceDeclarations(
      "final class A {\r\n  let one = PublishSubject<Int>()\r\n  let two = PublishSubject<Int>()\r\n}\r\n"
    )
    #expect(crlf.declaration(atLine: 2)?.name == "A.one")
    #expect(crlf.declaration(atLine: 3)?.name == "A.two")
    let continued = SourceDeclarations(
      #"""
      final class B {
        let text = """
          one \
          two
          """
        let quote = /"/
        let after = PublishSubject<Int>()
      }
      """#)
    #expect(continued.declaration(atLine: 2)?.name == "B.text")
    #expect(continued.declaration(atLine: 7)?.name == "B.after")
    // Unterminated strings and comments at the end, and deep interpolations, end the scan.
    let nested = String(repeating: "\"\\(", count: 200)
    for text in ["final class C { let s = \"open", "final class C { /* open", nested] {
      let source = SourceDeclarations(text)
      #expect(source.declaration(atLine: 2) == nil)
    }
  }

  // MARK: Recorded traces

  @Test("a recorded trace names subjects, relays and derived sequences Owner.property")
  func recorded() throws {
    let checkout = Checkout()
    let graph = TraceRecorder.record {
      checkout.receipts.subscribe(onNext: { _ in }).disposed(by: checkout.bag)
      checkout.total.subscribe(onNext: { _ in }).disposed(by: checkout.bag)
      checkout.placed.onNext("tea")
    }
    let placed = try #require(graph.nodes(matching: "Checkout.placed").first)
    #expect(placed.kind == "PublishSubject")
    #expect(placed.owner == "Checkout")
    let total = try #require(graph.nodes(matching: "Checkout.total").first)
    #expect(total.kind == "BehaviorSubject")
    let receipts = try #require(graph.nodes(matching: "Checkout.receipts").first)
    #expect(receipts.kind == "map")
    #expect(receipts.recentValues == ["receipt for tea"])
    // The operator before it in the statement gets the owner, not the name.
    let filter = try #require(graph.nodes(matching: .kind("filter")).first)
    #expect(filter.name == nil)
    #expect(filter.owner == "Checkout")
    // A property alone selects when no owner or name matches it exactly.
    #expect(graph.nodes(matching: "receipts").map(\.id) == [receipts.id])
    #expect(graph.describe(node: placed.id).hasPrefix("Checkout.placed (PublishSubject "))
  }

  @Test("a name given to the recorder wins over the source's")
  func givenNameWins() throws {
    let checkout = Checkout()
    let recorder = TraceRecorder()
    Tracing.withTracer(recorder) {
      checkout.placed.subscribe(onNext: { _ in }).disposed(by: checkout.bag)
      recorder.name(checkout.placed, "Orders.placed")
      let graph = recorder.graph
      #expect(graph.nodes(matching: "Orders.placed").count == 1)
      #expect(graph.nodes(matching: "Checkout.placed").isEmpty)
    }
  }

  // MARK: Dumps made elsewhere

  @Test("a dump's nodes are named from a source folder; a file found twice names nothing")
  func fromFolders() throws {
    let root = try temporaryFolder()
    try makeFile(
      root + "/App/Cart/CartStore.swift",
      "final class CartStore {\n  let added = PublishSubject<String>()\n}\n")
    try makeFile(
      root + "/App/Twice.swift", "final class A {\n  let one = PublishSubject<Int>()\n}\n")
    try makeFile(
      root + "/Other/Twice.swift", "final class B {\n  let two = PublishSubject<Int>()\n}\n")
    try makeFile(
      root + "/Pods/X/Hidden.swift", "final class H {\n  let h = PublishSubject<Int>()\n}\n")
    let graph = TraceGraph(nodes: [
      .init(id: 1, kind: "PublishSubject", role: .subject, file: "App/CartStore.swift", line: 2),
      .init(id: 2, kind: "PublishSubject", role: .subject, file: "Lib/Twice.swift", line: 2),
      .init(id: 3, kind: "PublishSubject", role: .subject, file: "App/Twice.swift", line: 2),
      .init(id: 4, kind: "PublishSubject", role: .subject, file: "X/Hidden.swift", line: 2),
    ])
    let named = graph.namedFromSources(in: [root])
    #expect(named.nodes.map(\.name) == ["CartStore.added", nil, "A.one", nil])
    #expect(named.nodes[0].owner == "CartStore")
  }

  @Test("the command line names a dump's nodes with --sources and selects them by name")
  func commandLine() throws {
    let root = try temporaryFolder()
    try makeFile(
      root + "/App/CartStore.swift",
      "final class CartStore {\n  let added = PublishSubject<String>()\n"
        + "  let count = added.map { _ in 1 }\n}\n")
    let graph = TraceGraph(
      nodes: [
        .init(id: 1, kind: "PublishSubject", role: .subject, file: "App/CartStore.swift", line: 2),
        .init(
          id: 2, kind: "map", role: .operator, file: "App/CartStore.swift", line: 3,
          upstreams: [1]),
      ],
      edges: [.init(from: 1, to: 2, kind: .subscription, count: 1, live: 1)])
    let dump = root + "/cart.dump.json"
    try TraceFile.write(graph.dump(), to: dump)
    let named = TraceCommand.run(
      ["path", dump, "--from", "added", "--sources", root, "--to", "CartStore.count"],
      environment: .files)
    #expect(named.status == .success, "\(named.error)")
    #expect(named.output.contains("CartStore.added (PublishSubject App/CartStore.swift:2)"))
    #expect(named.output.contains("CartStore.count (map App/CartStore.swift:3)"))
    let unnamed = TraceCommand.run(
      ["path", dump, "--from", "added", "--to", "2"], environment: .files)
    #expect(unnamed.status == .usage)
    #expect(unnamed.error.contains("--from 'added' matches no node of the trace"))
    let missing = TraceCommand.run(["summary", dump, "--sources"], environment: .files)
    #expect(missing.error.contains("--sources needs a value"))
  }

  private func temporaryFolder() throws -> String {
    var template = Array("/tmp/streams-sources-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    return String(cString: try #require(made))
  }

  private func makeFile(_ path: String, _ text: String) throws {
    var folder = ""
    for part in path.split(separator: "/").dropLast() {
      folder += "/" + part
      mkdir(folder, 0o755)
    }
    try TraceFile.write(text, to: path)
  }
}
