import StaticMap
import StreamsTrace
import Testing

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

  @Test("deferred's closure runs on subscribe: its sends are its maker's, its result feeds it")
  func deferred() throws {
    let result = map([
      "Loader.swift": """
      import RxSwift

      final class Loader {
        let loading = BehaviorRelay<Int>(value: 0)
        let results = PublishSubject<String>()
        let query = PublishSubject<String>()
        let bag = DisposeBag()

        func load() -> Observable<String> {
          Observable.deferred {
            self.loading.accept(1)
            return self.results.asObservable()
          }
        }

        init() {
          query.flatMapLatest { _ in self.load() }.subscribe(onNext: { print($0) })
            .disposed(by: bag)
        }
      }
      """
    ])
    // The send runs when flatMapLatest subscribes, during its delivery: a chain edge from it,
    // not from the deferred node.
    #expect(result.chainPairs == ["flatMapLatest@Loader.swift:17 => Loader.loading"])
    let deferred = try #require(result.graph.nodes.first { $0.kind == "deferred" })
    #expect(result.upstreams(of: deferred.id) == ["Loader.results"])
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
