import Streams
import StreamsState
import StreamsTest
import Testing

/// The state of a search screen: one cell per content block.
@MainActor
private final class SearchState {
  let results = StateCell<[String]>([])
  let isLoading = StateCell(false)
}

/// A view model in the RxSwift style: queries in, debounced results and a loading flag out.
private struct SearchViewModel {
  let results: Observable<[String]>
  let isLoading: Observable<Bool>

  init(query: Observable<String>, scheduler: TestScheduler) {
    let settled = query.debounce(.seconds(20), scheduler: scheduler).share()
    results = settled.map { query in [query + " 1", query + " 2"] }
    isLoading = Observable.merge(query.map { _ in true }, settled.map { _ in false })
  }
}

/// `TestScheduler.start()` runs on the calling thread: from a main-actor test, every binding on
/// the main queue writes at once, at the virtual time of the element.
@Suite("TestScheduler.record(cell)", .mainSchedulerExclusive)
struct TestSchedulerStateTests {
  @Test("records the current value at the clock, then each stored value at its virtual time")
  @MainActor
  func coldBinding() {
    let scheduler = TestScheduler(initialClock: 0)
    let cell = StateCell(0)
    let values = scheduler.record(cell)
    let xs = scheduler.createColdObservable([
      .next(10, 1), .next(20, 2), .next(30, 2), .next(40, 3), .completed(50),
    ])
    let binding = xs.bind(to: cell)
    scheduler.start()
    // The write of an equal value at 30 notifies nobody.
    #expect(values.events == [.next(0, 0), .next(10, 1), .next(20, 2), .next(40, 3)])
    #expect(xs.subscriptions == [Subscription(0, 50)])
    #expect(cell.value == 3)
    binding.dispose()
  }

  @Test("records a view model's effect on its state")
  @MainActor
  func viewModel() {
    let scheduler = TestScheduler(initialClock: 0)
    let state = SearchState()
    let results = scheduler.record(state.results)
    let isLoading = scheduler.record(state.isLoading)
    let query = scheduler.createHotObservable([
      .next(100, "s"), .next(110, "sw"), .next(200, "swift"),
    ])
    let viewModel = SearchViewModel(query: query.asObservable(), scheduler: scheduler)
    let bag = DisposeBag()
    viewModel.results.bind(to: state.results).disposed(by: bag)
    viewModel.isLoading.bind(to: state.isLoading).disposed(by: bag)
    scheduler.start()
    #expect(
      results.events == [
        .next(0, []), .next(130, ["sw 1", "sw 2"]), .next(220, ["swift 1", "swift 2"]),
      ])
    #expect(
      isLoading.events == [
        .next(0, false), .next(100, true), .next(130, false), .next(200, true),
        .next(220, false),
      ])
  }

  @Test("records writes made directly at a virtual time")
  @MainActor
  func directWrites() {
    let scheduler = TestScheduler(initialClock: 100)
    let cell = StateCell("a")
    let values = scheduler.record(cell)
    scheduler.scheduleAt(150) { MainActor.assumeIsolated { cell.value = "b" } }
    scheduler.scheduleAt(170) {
      MainActor.assumeIsolated {
        cell.update { value in
          value += "c"
          value += "d"
        }
      }
    }
    scheduler.start()
    #expect(values.events == [.next(100, "a"), .next(150, "b"), .next(170, "bcd")])
  }

  @Test("the recording completes when the cell is deinitialized")
  @MainActor
  func completesWithCell() {
    let scheduler = TestScheduler(initialClock: 0)
    let holder = CellHolder(StateCell(1))
    let values = scheduler.record(holder.cell!)
    scheduler.scheduleAt(20) { MainActor.assumeIsolated { holder.cell?.value = 2 } }
    scheduler.scheduleAt(50) { MainActor.assumeIsolated { holder.cell = nil } }
    scheduler.start()
    #expect(values.events == [.next(0, 1), .next(20, 2), .completed(50)])
  }
}

/// Holds a cell that a scheduled action can release.
@MainActor
private final class CellHolder {
  var cell: StateCell<Int>?

  init(_ cell: StateCell<Int>) {
    self.cell = cell
  }
}
