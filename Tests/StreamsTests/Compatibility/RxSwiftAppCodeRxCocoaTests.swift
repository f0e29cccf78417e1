// App code in the shape RxSwift 6 + RxCocoa code is written in (view models with ControlProperty
// and ControlEvent inputs and Driver outputs, `.rx` binders, `SharingScheduler.mock` tests,
// groupBy), compiled against Streams with only the imports changed (`import RxSwift` and
// `import RxCocoa` → `import Streams`, `import RxTest` → `import StreamsTest`). The UIKit views
// are replaced by plain classes, as the migration guide shows.

import Streams
import StreamsTest
import Testing

/// A search API in the usual RxSwift style.
private struct SearchAPI {
  let scheduler: TestScheduler

  func search(_ query: String) -> Single<[String]> {
    Observable.just(["\(query) 1", "\(query) 2"])
      .delay(.seconds(20), scheduler: scheduler)
      .asSingle()
  }
}

/// A view model with RxCocoa inputs and Driver outputs.
private final class SearchViewModel {
  struct Input {
    let query: ControlProperty<String?>
    let searchTap: ControlEvent<Void>
  }

  struct Output {
    let results: Driver<[String]>
    let isSearching: Driver<Bool>
    let summary: Driver<String>
  }

  private let api: SearchAPI
  private let searching = BehaviorRelay(value: false)

  init(api: SearchAPI) {
    self.api = api
  }

  func transform(input: Input) -> Output {
    let results = input.searchTap
      .withLatestFrom(input.query.orEmpty)
      .filter { !$0.isEmpty }
      .do(onNext: { [searching] _ in searching.accept(true) })
      .flatMapLatest { [api] query in
        api.search(query).asObservable().catchAndReturn([])
      }
      .do(onNext: { [searching] _ in searching.accept(false) })
      .asDriver(onErrorJustReturn: [])
    let summary = results.map { $0.isEmpty ? "No results" : "\($0.count) results" }
    return Output(
      results: results, isSearching: searching.asDriver().distinctUntilChanged(),
      summary: summary)
  }
}

/// What a view controller's views are, without UIKit.
private final class ResultsView: ReactiveCompatible {
  var title: String?
  var rows: [String] = []
  var spinnerVisible = false
}

extension Reactive where Base: ResultsView {
  fileprivate var rows: Binder<[String]> {
    Binder(base) { view, rows in view.rows = rows }
  }
}

/// The code the migration guide shows for the Binder pattern.
private final class ProfileView: ReactiveCompatible {  // a UILabel or UIView subclass in an app
  var title: String?
  var isHidden = false
}

extension Reactive where Base: ProfileView {
  fileprivate var isVisible: Binder<Bool> {
    Binder(base) { view, visible in view.isHidden = !visible }
  }
}

private struct ChatMessage: Sendable {
  let room: String
  let text: String
}

extension MainThreadDeliveryTests {
  @Suite("RxSwift + RxCocoa app code compatibility")
  struct RxSwiftAppCodeRxCocoaTests {
    @Test(
      "a view model with ControlProperty inputs and Driver outputs, under SharingScheduler.mock")
    @MainActor
    func searchViewModel() async {
      await drainMainQueue()
      let scheduler = TestScheduler(initialClock: 0)
      let disposeBag = DisposeBag()
      let results = scheduler.createObserver([String].self)
      let searching = scheduler.createObserver(Bool.self)
      let summary = scheduler.createObserver(String.self)

      SharingScheduler.mock(scheduler: scheduler) {
        let typed = scheduler.createHotObservable([
          .next(210, "sw"), .next(220, "swift"), .next(300, nil), .next(310, "rx"),
        ])
        let taps = scheduler.createHotObservable([
          .next(230, ()), .next(305, ()), .next(320, ()),
        ])
        let written = scheduler.createObserver(String?.self)
        let viewModel = SearchViewModel(api: SearchAPI(scheduler: scheduler))
        let output = viewModel.transform(
          input: .init(
            query: ControlProperty(values: typed, valueSink: written),
            searchTap: ControlEvent(events: taps)))

        output.results.drive(results).disposed(by: disposeBag)
        output.isSearching.drive(searching).disposed(by: disposeBag)
        output.summary.drive(summary).disposed(by: disposeBag)
        scheduler.start()
      }

      // The search: tapped at 230, `delay` emits at 250 and completes at 251 (one tick later, as
      // RxSwift's delay does), the Single succeeds then, the Driver delivers one tick later.
      #expect(
        results.events == [.next(252, ["swift 1", "swift 2"]), .next(342, ["rx 1", "rx 2"])])
      #expect(
        searching.events == [
          .next(1, false), .next(231, true), .next(252, false), .next(321, true),
          .next(342, false),
        ])
      #expect(summary.events == [.next(252, "2 results"), .next(342, "2 results")])
    }

    @Test(".rx binders on a plain class: key paths, extensions, bind(with:)")
    @MainActor
    func binders() async {
      await drainMainQueue()
      let view = ResultsView()
      let disposeBag = DisposeBag()
      let rows = BehaviorRelay<[String]>(value: [])
      let title = PublishSubject<String>()
      let loading = PublishRelay<Bool>()

      rows.bind(to: view.rx.rows).disposed(by: disposeBag)
      title.bind(to: view.rx.title).disposed(by: disposeBag)
      loading
        .bind(with: view) { view, isLoading in view.spinnerVisible = isLoading }
        .disposed(by: disposeBag)

      rows.accept(["a", "b"])
      title.onNext("Results")
      loading.accept(true)
      #expect(view.rows == ["a", "b"])
      #expect(view.title == "Results")
      #expect(view.spinnerVisible)
    }

    @Test("the migration guide's Binder example")
    @MainActor
    func guideBinderExample() async {
      await drainMainQueue()
      let profileView = ProfileView()
      let bag = DisposeBag()
      let name = BehaviorRelay<String?>(value: "Ann")
      let hasProfile = BehaviorRelay(value: false)

      name.bind(to: profileView.rx.title).disposed(by: bag)  // key-path binder
      hasProfile.bind(to: profileView.rx.isVisible).disposed(by: bag)

      #expect(profileView.title == "Ann")
      #expect(profileView.isHidden)
      hasProfile.accept(true)
      #expect(!profileView.isHidden)
    }

    @Test("groupBy per key, with a running count per group")
    func groupBy() {
      let scheduler = TestScheduler(initialClock: 0)
      let messages = scheduler.createHotObservable([
        .next(210, ChatMessage(room: "general", text: "hi")),
        .next(220, ChatMessage(room: "random", text: "yo")),
        .next(230, ChatMessage(room: "general", text: "how are you")),
        .completed(300),
      ])
      let res = scheduler.start {
        messages
          .groupBy { $0.room }
          .flatMap { room in
            room.scan(0) { count, _ in count + 1 }.map { "\(room.key): \($0)" }
          }
      }
      #expect(
        res.events == [
          .next(210, "general: 1"), .next(220, "random: 1"), .next(230, "general: 2"),
          .completed(300),
        ])
    }
  }
}
