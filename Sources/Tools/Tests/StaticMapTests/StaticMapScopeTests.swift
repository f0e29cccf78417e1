import StaticMap
import StreamsTrace
import Testing

@Suite("Static map: statics, scopes, kinds")
struct StaticMapScopeTests {
  @Test("a static subject is one node named Type.property wherever it is used; a cycle through it")
  func staticSubject() throws {
    let result = map([
      "Bus.swift": "import RxSwift\nenum Bus { static let events = PublishSubject<Int>() }\n",
      "A.swift": """
      import RxSwift

      final class A {
        let out = PublishSubject<Int>()
        let bag = DisposeBag()
        init() { Bus.events.subscribe(onNext: { self.out.onNext($0) }).disposed(by: bag) }
      }
      """,
      "B.swift": """
      import RxSwift

      final class B {
        let a = A()
        let bag = DisposeBag()
        init() { a.out.subscribe(onNext: { Bus.events.onNext($0) }).disposed(by: bag) }
      }
      """,
    ])
    #expect(result.graph.nodes.filter { $0.name == "Bus.events" }.count == 1)
    #expect(result.graph.structuralCycles().count == 1)
  }

  @Test("a static property whose initializer reads itself is unknown, not a crash")
  func selfReferentialStatic() {
    let result = map([
      "A.swift": """
      import RxSwift

      final class A {
        static let shared = A.shared
        let s = PublishSubject<Int>()
        func f() { A.shared.s.onNext(1) }
      }
      """
    ])
    #expect(result.references.contains { $0.text == "A.shared.s" && !$0.resolved })
  }

  @Test("block locals, closure parameters and loop variables shadow the properties they name")
  func shadowing() {
    let result = map([
      "Screen.swift": """
      import RxSwift

      final class Screen {
        let sections = PublishSubject<Int>()
        let input = PublishSubject<Int>()
        let bag = DisposeBag()

        init(flag: Bool) {
          if flag {
            let sections = PublishSubject<Int>()
            sections.onNext(1)
          }
          input.subscribe(onNext: { _ in
            [1, 2].forEach { sections in print(sections) }
            for sections in [3] { print(sections) }
          }).disposed(by: bag)
          input.subscribe(onNext: { _ in self.sections.onNext(2) }).disposed(by: bag)
        }
      }
      """
    ])
    // Only the last subscriber sends into the property.
    #expect(result.chainPairs == ["subscribe@Screen.swift:17 => Screen.sections"])
  }

  @Test("bind(onNext:), bind(with:) and emit(onNext:) get the kinds a recording gives them")
  func terminalKinds() {
    let result = map([
      "V.swift": """
      import RxSwift
      import RxCocoa

      final class V {
        let taps = PublishRelay<Int>()
        let bag = DisposeBag()
        init() {
          taps.bind(onNext: { print($0) }).disposed(by: bag)
          taps.bind(with: self, onNext: { _, _ in }).disposed(by: bag)
          taps.asSignal().emit(onNext: { print($0) }).disposed(by: bag)
        }
      }
      """
    ])
    let kinds = result.graph.nodes.filter { $0.role == .terminal }.map(\.kind).sorted()
    #expect(kinds == ["bind", "bind(with:)", "emit"])
  }

  @Test("a closure or tuple type that mentions a stream is not a stream")
  func closureTypes() {
    let result = map([
      "H.swift": """
      import RxSwift

      final class H {
        let handler: (Observable<Int>) -> Void = { _ in }
        let pair: (PublishSubject<Int>, Int) = (PublishSubject<Int>(), 1)
        let real: Observable<Int> = .never()
      }
      """
    ])
    #expect(result.node(named: "H.handler") == nil)
    #expect(result.node(named: "H.pair") == nil)
  }

  @Test("property observers and accessors, top-level functions and nested functions are read")
  func everyBody() {
    let result = map([
      "Cell.swift": """
      import RxSwift

      final class Cell {
        let taps = PublishSubject<Int>()
        var bag = DisposeBag()
        var model: Int = 0 {
          didSet { taps.subscribe(onNext: { print($0) }).disposed(by: bag) }
        }
        var doubled: Observable<Int> {
          let source = taps.asObservable()
          return source.map { $0 * 2 }
        }
        func configure() {
          func bindAll() { taps.subscribe(onNext: { print($0) }).disposed(by: bag) }
          bindAll()
        }
      }

      func startLogging(_ cell: Cell) {
        _ = cell.taps.subscribe(onNext: { print($0) })
      }
      """
    ])
    let terminals = result.graph.nodes.filter { $0.role == .terminal }.map(\.line).sorted()
    #expect(terminals == [7, 14, 20])
    #expect(result.graph.nodes.contains { $0.kind == "map" && $0.line == 11 })
  }

  @Test(
    "rx.disposeBag is the object's own; rx.items and rx.setDelegate make no stream; reassigning")
  func cocoaIdioms() {
    let result = map([
      "List.swift": """
      import RxSwift
      import RxCocoa

      final class ListController: UIViewController {
        let tableView = UITableView()
        let rows = BehaviorRelay<[String]>(value: [])
        let input = PublishSubject<String>()
        var title: Driver<String>

        init() {
          title = Driver.never()
          title = input.asDriver(onErrorJustReturn: "")
          rows.bind(to: tableView.rx.items(cellIdentifier: "Cell")) { _, row, cell in }
            .disposed(by: rx.disposeBag)
          tableView.rx.setDelegate(self).disposed(by: rx.disposeBag)
        }
      }
      """
    ])
    #expect(result.leakCandidates.isEmpty)
    #expect(!result.graph.nodes.contains { $0.kind.hasPrefix("rx.") })
    // The first stream assigned stays the property's; the second is no upstream of it.
    let never = result.graph.nodes.first { $0.kind == "Driver.never" || $0.kind == "never" }
    #expect(never.map(\.upstreams.isEmpty) ?? true)
  }
}
