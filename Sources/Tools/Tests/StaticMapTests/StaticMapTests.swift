import Foundation
import StaticMap
import StreamsTrace
import Testing

/// Maps `sources` (file name → text) as files of the folder `App`.
func map(_ sources: [String: String]) -> StaticMap {
  StaticMap(sources: sources.sorted { $0.key < $1.key }.map { ("App/" + $0.key, $0.value) })
}

extension StaticMap {
  func node(named name: String) -> TraceGraph.Node? {
    graph.nodes.first { $0.name == name }
  }

  /// `from => to` for each chain edge, by name or kind.
  var chainPairs: Set<String> {
    Set(
      graph.edges.filter { $0.kind == .chain }.map {
        "\(label($0.from)) => \(label($0.to))"
      })
  }

  func label(_ id: UInt64) -> String {
    let node = graph.nodes.first { $0.id == id }!
    return node.name ?? "\(node.kind)@\(node.file.split(separator: "/").last!):\(node.line)"
  }

  /// The names or kinds of a node's upstreams.
  func upstreams(of id: UInt64) -> [String] {
    graph.nodes.first { $0.id == id }!.upstreams.map(label)
  }
}

@Suite("Static map: streams and their names")
struct StaticMapStreamTests {
  @Test("subjects and relays held by stored properties are nodes named Owner.property")
  func storedSubjects() throws {
    let result = map([
      "CartStore.swift": """
      import RxSwift
      import RxRelay

      final class CartStore {
        let added = PublishSubject<String>()
        let total: BehaviorRelay<Int> = BehaviorRelay(value: 0)
        private let disposeBag = DisposeBag()
        static let shared = PublishSubject<Int>()
      }
      """
    ])
    let added = try #require(result.node(named: "CartStore.added"))
    #expect(added.kind == "PublishSubject")
    #expect(added.role == .subject)
    #expect(added.file == "App/CartStore.swift")
    #expect(added.line == 5)
    #expect(added.owner == "CartStore")
    // Kinds as a recorded trace gives them: a relay is a subject inside.
    #expect(result.node(named: "CartStore.total")?.kind == "BehaviorSubject")
    #expect(result.graph.nodes.count == 2)  // the bag and the static subject are no streams
    #expect(result.graph.origin == .static)
  }

  @Test("a derived sequence is its operator chain; the property names the last operator")
  func derivedChain() throws {
    let result = map([
      "Search.swift": """
      import RxSwift

      final class SearchViewModel {
        let query = PublishSubject<String>()
        let results: Observable<[String]>
        let count: Observable<Int>

        init(scheduler: SchedulerType) {
          results = query
            .debounce(.milliseconds(300), scheduler: scheduler)
            .observe(on: scheduler)
            .map { [$0] }
          self.count = results.map(\\.count)
        }
      }
      """
    ])
    let results = try #require(result.node(named: "SearchViewModel.results"))
    #expect(results.kind == "map")
    #expect(results.line == 12)
    let observe = try #require(result.graph.nodes.first { $0.id == results.upstreams.first })
    #expect(observe.kind == "observe(on:)")
    #expect(result.upstreams(of: observe.id) == ["debounce@Search.swift:10"])
    let count = try #require(result.node(named: "SearchViewModel.count"))
    #expect(result.upstreams(of: count.id) == ["SearchViewModel.results"])
    #expect(result.references.allSatisfy { $0.resolved })
  }

  @Test("combineLatest, merge and withLatestFrom take every stream they are given")
  func combining() throws {
    let result = map([
      "Form.swift": """
      import RxSwift

      final class FormViewModel {
        let name = BehaviorSubject<String>(value: "")
        let mail = BehaviorSubject<String>(value: "")
        let submit = PublishSubject<Void>()
        lazy var valid = Observable.combineLatest(name, mail) { !$0.isEmpty && !$1.isEmpty }
        lazy var any = Observable.merge([name, mail])
        lazy var sent = submit.withLatestFrom(valid)
      }
      """
    ])
    let valid = try #require(result.node(named: "FormViewModel.valid"))
    #expect(valid.kind == "combineLatest")
    #expect(result.upstreams(of: valid.id) == ["FormViewModel.name", "FormViewModel.mail"])
    let any = try #require(result.node(named: "FormViewModel.any"))
    #expect(result.upstreams(of: any.id) == ["FormViewModel.name", "FormViewModel.mail"])
    // withLatestFrom takes its elements from `submit` only: `valid` is a control upstream,
    // with a control edge, as a recorded trace shows it.
    let sent = try #require(result.node(named: "FormViewModel.sent"))
    #expect(result.upstreams(of: sent.id) == ["FormViewModel.submit"])
    #expect(sent.controlUpstreams == [valid.id])
    let edges = result.graph.edges.filter { $0.to == sent.id }
    #expect(edges.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.control, .subscription])
  }
}

@Suite("Static map: subscriptions, sends and the cross-file chain")
struct StaticMapChainTests {
  static let store = """
    import RxSwift

    final class CartStore {
      let added = PublishSubject<String>()
      let count = BehaviorRelay<Int>(value: 0)
      private let bag = DisposeBag()

      func reset() {
        count.accept(0)
      }
    }
    """

  @Test("a send in a subscriber's closure is a chain edge from the subscriber to the subject")
  func sendInClosure() throws {
    let result = map([
      "CartStore.swift": Self.store,
      "Promo.swift": """
      import RxSwift

      final class PromoBanner {
        let store: CartStore
        let shown = PublishSubject<String>()
        private let disposeBag = DisposeBag()

        init(store: CartStore) {
          self.store = store
          shown
            .subscribe(onNext: { [weak self] item in
              self?.store.added.onNext(item)
            })
            .disposed(by: disposeBag)
        }
      }
      """,
    ])
    #expect(result.chainPairs == ["subscribe@Promo.swift:11 => CartStore.added"])
    let terminal = try #require(result.graph.nodes.first { $0.role == .terminal })
    #expect(terminal.owner == "PromoBanner")
    #expect(result.upstreams(of: terminal.id) == ["PromoBanner.shown"])
    #expect(result.leakCandidates.isEmpty)
    #expect(
      result.summary.contains("subscribe App/Promo.swift:11 (PromoBanner) => CartStore.added"))
  }

  @Test("bind(to:), drive and emit(to:) send into their targets")
  func bindDriveEmit() throws {
    let result = map([
      "CartStore.swift": Self.store,
      "Screen.swift": """
      import RxSwift
      import RxCocoa

      final class CartScreen {
        let store = CartStore()
        let taps = PublishRelay<String>()
        let badge = BehaviorRelay<Int>(value: 0)
        let signal: Signal<Int>
        let disposeBag = DisposeBag()

        init() {
          signal = badge.asSignal()
          taps.bind(to: store.added).disposed(by: disposeBag)
          store.count.asDriver().drive(badge).disposed(by: disposeBag)
          signal.emit(to: store.count).disposed(by: disposeBag)
        }
      }
      """,
    ])
    #expect(
      result.chainPairs == [
        "bind(to:)@Screen.swift:13 => CartStore.added",
        "drive@Screen.swift:14 => CartScreen.badge",
        "emit(to:)@Screen.swift:15 => CartStore.count",
      ])
  }

  @Test("a method that a subscriber's closure calls sends during its delivery")
  func sendThroughMethod() {
    let result = map([
      "CartStore.swift": Self.store,
      "Checkout.swift": """
      import RxSwift

      final class Checkout {
        let store = CartStore()
        let paid = PublishSubject<Void>()
        let bag = DisposeBag()

        init() {
          paid.subscribe(onNext: { [unowned self] in self.finish() }).disposed(by: bag)
        }

        private func finish() {
          store.reset()
        }
      }
      """,
    ])
    #expect(result.chainPairs == ["subscribe@Checkout.swift:9 => CartStore.count"])
  }

  @Test("a flatMap closure that returns a known stream makes it an upstream")
  func flatMapReturn() throws {
    let result = map([
      "Feed.swift": """
      import RxSwift

      final class Feed {
        let refresh = PublishSubject<Void>()
        let items = BehaviorRelay<[Int]>(value: [])
        lazy var shown = refresh.flatMapLatest { [unowned self] in self.items.asObservable() }
      }
      """
    ])
    let shown = try #require(result.node(named: "Feed.shown"))
    #expect(shown.kind == "flatMapLatest")
    let upstreams = result.upstreams(of: shown.id)
    #expect(upstreams.first == "Feed.refresh")
    #expect(upstreams.contains("Feed.items"))
  }

  @Test("a subscriber that sends back into its own source is a cycle, found by the queries")
  func cycle() {
    let result = map([
      "Loop.swift": """
      import RxSwift

      final class Loop {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let bag = DisposeBag()

        init() {
          a.subscribe(onNext: { self.b.onNext($0) }).disposed(by: bag)
          b.filter { $0 < 10 }.subscribe(onNext: { self.a.onNext($0 + 1) }).disposed(by: bag)
        }
      }
      """
    ])
    let cycles = result.graph.structuralCycles()
    #expect(cycles.count == 1)
    #expect(result.summary.contains("cycles: 1"))
  }
}
