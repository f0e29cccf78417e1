import Foundation
import StaticMap
import StreamsTrace
import Testing

@Suite("Static map: leak candidates, migration table, the dump and bad input")
struct StaticMapFindingsTests {
  @Test("a subscription never kept, one keeping self in another object's bag, one in a reused cell")
  func leakCandidates() {
    let result = map([
      "Leaks.swift": """
      import RxSwift

      final class Session {
        let events = PublishSubject<Int>()
        let disposeBag = DisposeBag()
      }

      final class Screen {
        let session = Session()
        let local = PublishSubject<Int>()
        var count = 0

        func start() {
          _ = local.subscribe(onNext: { print($0) })
          session.events.subscribe(onNext: { self.count += $0 }).disposed(by: session.disposeBag)
        }
      }

      final class ItemCell {
        let disposeBag = DisposeBag()
        let session = Session()

        func configure() {
          session.events.subscribe(onNext: { print($0) }).disposed(by: disposeBag)
        }
      }
      """
    ])
    let reasons = result.leakCandidates.map { "\($0.site): \($0.reason)" }
    #expect(reasons.count == 3)
    #expect(reasons[0].hasPrefix("App/Leaks.swift:14: the result of subscribe is never disposed"))
    #expect(reasons[1].hasPrefix("App/Leaks.swift:15: subscribe captures self strongly"))
    #expect(reasons[1].contains("kept in session.disposeBag"))
    #expect(reasons[2].hasPrefix("App/Leaks.swift:24: ItemCell is a reused cell"))
  }

  @Test("a subscription disposed at once, kept in an array, or handed back is no candidate")
  func handedOver() {
    let result = map([
      "Kept.swift": """
      import RxSwift

      final class Screen {
        let events = PublishSubject<Int>()
        var subscriptions: [Disposable] = []
        var composite = CompositeDisposable()

        func once() {
          events.subscribe(onNext: { print($0) }).dispose()
        }
        func keep() {
          subscriptions.append(events.subscribe(onNext: { print($0) }))
          subscriptions += [events.subscribe(onNext: { print($0) })]
          _ = composite.insert(events.subscribe(onNext: { print($0) }))
        }
        func handBack() -> Disposable {
          return events.subscribe(onNext: { print($0) })
        }
        func handBackImplicitly() -> Disposable {
          events.subscribe(onNext: { print($0) })
        }
        func bindings() -> [Disposable] {
          [events.subscribe(onNext: { print($0) })]
        }
        func forgotten() {
          events.subscribe(onNext: { print($0) })
        }
      }
      """
    ])
    // Only the subscription that nothing keeps: the one statement of a function with no result.
    #expect(result.leakCandidates.map(\.site) == ["App/Kept.swift:26"])
    #expect(result.graph.nodes.filter { $0.role == .terminal }.count == 8)
  }

  @Test("a cell that gives itself a fresh bag, with weak and strong captures, has no candidates")
  func notLeaks() {
    let result = map([
      "Fine.swift": """
      import RxSwift

      final class Session {
        let events = PublishSubject<Int>()
        let disposeBag = DisposeBag()
      }

      final class ItemCell {
        var disposeBag = DisposeBag()
        let session = Session()

        func prepareForReuse() {
          disposeBag = DisposeBag()
        }

        func configure() {
          session.events.subscribe(onNext: { [weak self] _ in _ = self }).disposed(by: disposeBag)
          session.events.subscribe(onNext: { print($0) }).disposed(by: disposeBag)
        }
      }
      """
    ])
    #expect(result.leakCandidates.isEmpty)
  }

  @Test("the migration table: imports per file, files free of Rx, owners without cross-file chains")
  func migration() {
    let result = map([
      "A.swift": """
      import RxSwift

      final class Source {
        let out = PublishSubject<Int>()
      }
      """,
      "B.swift": """
      import RxSwift

      final class Sink {
        let source = Source()
        let seen = PublishSubject<Int>()
        let bag = DisposeBag()
        init() { source.out.bind(to: seen).disposed(by: bag) }
      }
      """,
      "C.swift": """
      import Streams

      final class Alone {
        let value = BehaviorRelay<Int>(value: 0)
      }
      """,
      "D.swift": "struct Plain {}\n",
      // Code in extensions of types declared elsewhere: owned by them, and they do not move.
      "E.swift": """
      import RxSwift
      import RxCocoa

      extension Reactive where Base: UILabel {
        var shout: Binder<String> { Binder(base) { label, text in label.text = text } }
      }
      extension ObservableType {
        func logged() -> Observable<Element> {
          let tap = PublishSubject<Int>()
          _ = tap.subscribe(onNext: { print($0) })
          return asObservable()
        }
      }
      """,
    ])
    let table = result.migrationTable.joined(separator: "\n")
    #expect(table.contains("App/A.swift"))
    #expect(result.graph.nodes.contains { $0.owner == "ObservableType" })
    #expect(result.declaredTypes == ["Source", "Sink", "Alone", "Plain"])
    #expect(table.contains("files free of Rx: 2 of 5"))
    #expect(table.contains("owners with no edge to another file (move first): Alone"))
    let byPath = Dictionary(uniqueKeysWithValues: result.files.map { ($0.path, $0) })
    #expect(byPath["App/B.swift"]?.imports == ["RxSwift"])
    #expect(byPath["App/B.swift"]?.subscriptions == 1)
    #expect(byPath["App/C.swift"]?.imports == ["Streams"])
    #expect(byPath["App/D.swift"]?.imports == [])
  }

  @Test("the dump is marked static, reads back equal, and the command line answers on it")
  func dumpAndCommands() throws {
    let result = map([
      "Loop.swift": """
      import RxSwift

      final class Loop {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let bag = DisposeBag()

        init() {
          a.subscribe(onNext: { self.b.onNext($0) }).disposed(by: bag)
          b.subscribe(onNext: { self.a.onNext($0) }).disposed(by: bag)
        }
      }
      """
    ])
    let dump = result.graph.dump()
    #expect(dump.hasPrefix(#"{"format":"streams-trace","version":1,"origin":"static","#))
    let read = try TraceGraph(dump: dump)
    #expect(read == result.graph)
    let environment = TraceCommand.Environment(
      read: { path throws(TraceFile.Error) in
        guard path == "map.dump.json" else { throw TraceFile.Error("No such file") }
        return dump
      },
      write: { _, _ throws(TraceFile.Error) in })
    let cycles = TraceCommand.run(["cycles", "map.dump.json"], environment: environment)
    #expect(cycles.status == .found)
    #expect(cycles.output.contains("Loop.a"))
    let path = TraceCommand.run(
      ["path", "map.dump.json", "--from", "Loop.a", "--to", "Loop.b"], environment: environment)
    #expect(path.status == .success)
    for command in [["leaks"], ["summary"], ["chain", "--files", "1"], ["coupling"]] {
      let answer = TraceCommand.run(
        [command[0], "map.dump.json"] + command.dropFirst(), environment: environment)
      #expect([.success, .found].contains(answer.status), "\(command): \(answer.error)")
    }
  }

  @Test("a file that does not parse is read as far as it goes, with a warning naming it")
  func brokenFile() throws {
    let result = map([
      "Broken.swift": """
      import RxSwift

      final class Broken {
        let ok = PublishSubject<Int>()
        func half( {
      }
      """
    ])
    #expect(result.node(named: "Broken.ok") != nil)
    #expect(
      result.warnings == [
        "App/Broken.swift: does not parse cleanly; read as far as the parser recovered"
      ])
  }

  @Test("a folder: skipped folders, a binary file, a link loop, and no folder at all")
  func folder() throws {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("static-map-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
      .appendingPathComponent("Shop")
    let manager = FileManager.default
    try manager.createDirectory(
      at: root.appendingPathComponent("Pods/Lib"), withIntermediateDirectories: true)
    try manager.createDirectory(
      at: root.appendingPathComponent("Cart"), withIntermediateDirectories: true)
    defer { try? manager.removeItem(at: root.deletingLastPathComponent()) }
    try "import RxSwift\nfinal class Cart { let added = PublishSubject<Int>() }\n"
      .write(to: root.appendingPathComponent("Cart/Cart.swift"), atomically: true, encoding: .utf8)
    try "final class Pod { let x = PublishSubject<Int>() }\n"
      .write(
        to: root.appendingPathComponent("Pods/Lib/Pod.swift"), atomically: true, encoding: .utf8)
    try Data([0x00, 0x01, 0xFF]).write(to: root.appendingPathComponent("Blob.swift"))
    try manager.createSymbolicLink(
      at: root.appendingPathComponent("Cart/Loop"), withDestinationURL: root)

    let result = try StaticMap(folder: root.path)
    #expect(result.files.map(\.path) == ["Shop/Cart/Cart.swift"])
    #expect(result.node(named: "Cart.added")?.file == "Shop/Cart/Cart.swift")
    #expect(result.warnings.contains("Shop/Blob.swift: skipped, not UTF-8 text"))
    #expect(result.warnings.contains("Shop/Cart/Loop: skipped, a link to a folder already read"))

    let excluded = try StaticMap(folder: root.path, excluding: ["Cart"])
    #expect(excluded.files.isEmpty)

    #expect(throws: MapError.self) { try StaticMap(folder: root.path + "/nowhere") }
  }
}
