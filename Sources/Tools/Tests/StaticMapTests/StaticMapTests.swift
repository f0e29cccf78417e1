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

@Suite("Static map: member chains and transform(input:)")
struct StaticMapResolutionTests {
  @Test("viewModel.output.items resolves through the types of stored properties")
  func memberChain() {
    let result = map([
      "ViewModel.swift": """
      import RxSwift

      final class ListViewModel {
        struct Output {
          let items = BehaviorRelay<[String]>(value: [])
        }
        let output = Output()
      }
      """,
      "Controller.swift": """
      import RxSwift

      final class ListController {
        var viewModel: ListViewModel!
        let shown = PublishRelay<[String]>()
        let disposeBag = DisposeBag()

        func bind() {
          viewModel.output.items.bind(to: shown).disposed(by: disposeBag)
        }
      }
      """,
    ])
    #expect(result.chainPairs == ["bind(to:)@Controller.swift:9 => ListController.shown"])
    let terminal = result.graph.nodes.first { $0.role == .terminal }!
    #expect(result.upstreams(of: terminal.id) == ["ListViewModel.Output.items"])
  }

  @Test("transform(input:): Input and Output built at the call site connect both sides")
  func transform() throws {
    let result = map([
      "LoginViewModel.swift": """
      import RxSwift
      import RxCocoa

      final class LoginViewModel {
        struct Input {
          let name: Driver<String>
          let login: Signal<Void>
        }
        struct Output {
          let enabled: Driver<Bool>
        }

        func transform(input: Input) -> Output {
          let enabled = input.name.map { !$0.isEmpty }
          return Output(enabled: enabled)
        }
      }
      """,
      "LoginController.swift": """
      import RxSwift
      import RxCocoa

      final class LoginController {
        let viewModel = LoginViewModel()
        let name = BehaviorRelay<String>(value: "")
        let tap = PublishRelay<Void>()
        let button = BehaviorRelay<Bool>(value: false)
        let disposeBag = DisposeBag()

        func bind() {
          let output = viewModel.transform(
            input: LoginViewModel.Input(name: name.asDriver(), login: tap.asSignal()))
          output.enabled.drive(button).disposed(by: disposeBag)
        }
      }
      """,
    ])
    // The members of Input and Output hold the streams given to them: no node of their own, as
    // in a run; the view model's map takes from the controller's asDriver, and drive from it.
    #expect(result.node(named: "LoginViewModel.Input.name") == nil)
    #expect(result.node(named: "LoginViewModel.Output.enabled") == nil)
    let mapNode = try #require(result.graph.nodes.first { $0.kind == "map" })
    #expect(mapNode.file == "App/LoginViewModel.swift")
    #expect(result.upstreams(of: mapNode.id).first?.hasPrefix("asDriver@") == true)
    let drive = try #require(result.graph.nodes.first { $0.kind == "drive" })
    #expect(drive.upstreams == [mapNode.id])
    #expect(result.chainPairs == ["drive@LoginController.swift:14 => LoginController.button"])
    // The path runs from the controller's relay through the view model and back.
    let name = try #require(result.node(named: "LoginController.name"))
    let button = try #require(result.node(named: "LoginController.button"))
    #expect(result.graph.reachable(from: name.id).contains(button.id))
  }

  @Test("what cannot be resolved is counted and listed, never guessed")
  func unresolved() {
    let result = map([
      "Mystery.swift": """
      import RxSwift

      final class Mystery {
        let bag = DisposeBag()
        func go(_ stream: Observable<Int>, other: Unknown) {
          stream.subscribe(onNext: { print($0) }).disposed(by: bag)
          other.events.onNext(1)
        }
      }
      """
    ])
    // The stream parameter is a node of its own; a member of an unknown type is not guessed.
    #expect(result.references.count == 2)
    #expect(result.resolvedCount == 1)
    #expect(result.node(named: "Mystery.go(_:other:).stream") != nil)
    #expect(result.summary.contains("references resolved: 1 of 2 (50%)"))
    #expect(result.summary.contains("App/Mystery.swift:7: other.events"))
    #expect(!result.summary.contains("App/Mystery.swift:6:"))
  }

  @Test("stream parameters fed at call sites, local subjects, singletons, create's observer")
  func parametersAndLocals() throws {
    let result = map([
      "Service.swift": """
      import RxSwift

      final class Service {
        static let shared = Service()
        let status = BehaviorRelay<Int>(value: 0)

        func ticks() -> Observable<Int> {
          Observable.create { observer in
            observer.onNext(1)
            return Disposables.create()
          }
        }
      }
      """,
      "Screen.swift": """
      import RxSwift

      final class Screen {
        let bag = DisposeBag()

        init(refresh: Observable<Void>) {
          let local = PublishSubject<Int>()
          refresh.subscribe(onNext: { local.onNext(1) }).disposed(by: bag)
          Service.shared.status.bind(to: local).disposed(by: bag)
        }
      }

      let taps = PublishSubject<Void>()
      let screen = Screen(refresh: taps.asObservable())
      """,
    ])
    // One call site: the parameter is the stream passed in (`asObservable()` is that stream).
    #expect(result.node(named: "Screen.init(refresh:).refresh") == nil)
    let subscriber = try #require(result.graph.nodes.first { $0.kind == "subscribe" })
    #expect(result.upstreams(of: subscriber.id) == ["PublishSubject@Screen.swift:13"])
    #expect(
      result.chainPairs.contains { $0.hasPrefix("subscribe@Screen.swift:8 => PublishSubject@") })
    #expect(
      result.chainPairs.contains { $0.hasPrefix("bind(to:)@Screen.swift:9 => PublishSubject@") })
    let terminal = try #require(result.graph.nodes.first { $0.kind == "bind(to:)" })
    #expect(result.upstreams(of: terminal.id) == ["Service.status"])
    // `observer.onNext` inside create is the created stream emitting: resolved, no send.
    #expect(result.references.allSatisfy { $0.resolved })
    #expect(result.graph.edges.allSatisfy { $0.from != $0.to })
  }

  @Test("a stream parameter fed from two call sites: its subscribers take from both")
  func parameterTwoCallers() throws {
    let result = map([
      "Two.swift": """
      import RxSwift

      final class Consumer {
        let bag = DisposeBag()
        init(input: Observable<Int>) {
          input.subscribe(onNext: { print($0) }).disposed(by: bag)
        }
      }

      let first = PublishSubject<Int>()
      let second = PublishSubject<Int>()
      let a = Consumer(input: first)
      let b = Consumer(input: second)
      """
    ])
    // A run has no node for a parameter: each instance's subscriber takes from its own subject.
    // The map is one graph for both instances: the one subscriber takes from both.
    #expect(result.node(named: "Consumer.init(input:).input") == nil)
    let subscriber = try #require(result.graph.nodes.first { $0.kind == "subscribe" })
    #expect(
      result.upstreams(of: subscriber.id) == [
        "PublishSubject@Two.swift:10", "PublishSubject@Two.swift:11",
      ])
    #expect(result.graph.edges.filter { $0.to == subscriber.id }.count == 2)
  }

  @Test("a declared stream property read before the code that assigns it: the assigned stream")
  func holderAssignedLater() throws {
    let result = map([
      // Read first: the screen asks for `items` before `load()` is read.
      "A.swift": """
      import RxSwift

      final class FeedScreen {
        let viewModel = FeedViewModel()
        let bag = DisposeBag()
        init() {
          viewModel.items.map(\\.count).subscribe(onNext: { print($0) }).disposed(by: bag)
        }
      }
      """,
      "B.swift": """
      import RxSwift

      final class FeedViewModel {
        let refresh = PublishSubject<Void>()
        var items: Observable<[String]>!

        func load() {
          items = refresh.map { ["item"] }
        }
      }
      """,
    ])
    // One node named `FeedViewModel.items`: the map that `load()` assigns, as a run names it.
    let items = try #require(result.node(named: "FeedViewModel.items"))
    #expect(items.kind == "map")
    #expect(items.file == "App/B.swift")
    #expect(result.graph.nodes.filter { $0.name == "FeedViewModel.items" }.count == 1)
    #expect(result.upstreams(of: items.id) == ["FeedViewModel.refresh"])
    let count = try #require(
      result.graph.nodes.first { $0.file == "App/A.swift" && $0.kind == "map" })
    #expect(count.upstreams == [items.id])
  }

  @Test("bind(to:) and drive into RxCocoa binders (label.rx.text) end the graph: no node, no send")
  func uiBinders() {
    let result = map([
      "Labels.swift": """
      import RxSwift
      import RxCocoa

      final class Labels {
        let title = BehaviorRelay<String>(value: "")
        let label = UILabel()
        let bag = DisposeBag()

        func bind() {
          title.bind(to: label.rx.text).disposed(by: bag)
          title.asDriver().drive(label.rx.text).disposed(by: bag)
        }
      }
      """
    ])
    #expect(result.chainPairs.isEmpty)
    #expect(!result.graph.nodes.contains { $0.kind.hasPrefix("rx.") })
    #expect(result.graph.nodes.filter { $0.role == .terminal }.count == 2)
    #expect(result.references.allSatisfy { $0.resolved })
  }
}
