import Dispatch
import Streams
import StreamsState
import StreamsTest
import Testing

@testable import ScreenDemo

/// A view model as RxSwift teams write them: no actor, in another module than the state it feeds
/// (`UIState` is in ScreenDemo). It names the main-actor state's cells because they are
/// `nonisolated let`.
final class PlainHeadlineViewModel {
  let bag = DisposeBag()

  init(titles: Observable<String>, state: UIState) {
    titles.map { HeadlineBlock(title: $0, subtitle: "") }
      .bind(to: state.headline)
      .disposed(by: bag)
    titles.map { _ in false }
      .bind(to: state.isLoading)
      .disposed(by: bag)
  }
}

@Suite("A nonisolated view model binds to a main-actor state's cells", .serialized)
struct PlainViewModelTests {
  @Test("built off the main actor, fed from a background queue, the cells change on the main actor")
  func bindsFromNoActor() async {
    // This test function runs on no actor: the view model is made, and binds, from there.
    let state = UIState()
    let titles = PublishSubject<String>()
    let viewModel = PlainHeadlineViewModel(titles: titles, state: state)
    DispatchQueue.global().async { titles.onNext("Today") }
    let seen = await state.headline.values.first { $0.title == "Today" }
    #expect(seen == HeadlineBlock(title: "Today", subtitle: ""))
    // Each binding hops to the main queue on its own: the second hop may run after the reader
    // of the first resumes, so wait for it too.
    let loading = await state.isLoading.values.first { $0 == false }
    #expect(loading == false)
    withExtendedLifetime(viewModel) {}
  }
}
