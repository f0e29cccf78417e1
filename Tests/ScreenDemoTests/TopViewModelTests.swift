import Dispatch
import Observation
import Streams
import StreamsState
import StreamsTest
import Testing

@testable import ScreenDemo

/// The seed scenario: the top screen's Rx view model feeding its state container, with the
/// SwiftUI blocks A and B stood in for by render probes and block D configured by hand.
@Suite("Top screen (seed scenario)", .serialized, .mainSchedulerExclusive)
@MainActor
struct TopViewModelTests {
  @Test("on virtual time, each response reaches its block, as RxTest asserts a stream")
  func virtualTime() {
    let scheduler = TestScheduler(initialClock: 0)
    let api = TopAPI(scheduler: scheduler, latency: .seconds(10))
    let state = UIState()
    let deltaView = DeltaView()
    let refresh = scheduler.createHotObservable([.next(100, ()), .next(300, ())])
    let viewModel = TopViewModel(
      refresh: refresh.asObservable(), api: api, state: state, deltaView: deltaView)
    let headline = scheduler.record(state.headline)
    let offers = scheduler.record(state.offers)
    let loading = scheduler.record(state.isLoading)

    scheduler.start()

    let today = HeadlineBlock(title: "Today", subtitle: "Your picks")
    #expect(headline.events == [.next(0, HeadlineBlock()), .next(110, today)])
    #expect(
      offers.events == [
        .next(0, OffersBlock()), .next(110, OffersBlock(offers: ["coffee", "tea"])),
        .next(310, OffersBlock(offers: ["coffee", "tea", "cake"])),
      ])
    #expect(loading.events == [.next(0, true), .next(110, false)])
    #expect(deltaView.text == "refresh #2")
    #expect(deltaView.configurations == 2)
    withExtendedLifetime(viewModel) {}
  }

  @Test(
    "on real schedulers, writes from the background pipeline arrive on the main actor",
    .timeLimit(.minutes(1)))
  func backgroundWritesArriveOnMain() async {
    let network = SerialDispatchQueueScheduler(internalSerialQueueName: "test.network")
    let api = TopAPI(scheduler: network, latency: .milliseconds(5))
    let state = UIState()
    let deltaView = DeltaView()
    let refresh = PublishRelay<Void>()
    let viewModel = TopViewModel(
      refresh: refresh.asObservable(), api: api, state: state, deltaView: deltaView)
    var threadChecks = 0
    state.offers.onChange { _ in
      dispatchPrecondition(condition: .onQueue(.main))
      MainActor.assertIsolated()
      threadChecks += 1
    }
    let offers = state.offers.values

    await Task.detached { refresh.accept(()) }.value
    var seen: [[String]] = []
    for await block in offers {
      seen.append(block.offers)
      if seen.count == 2 { break }
    }
    #expect(seen == [[], ["coffee", "tea"]])
    #expect(threadChecks == 1)
    // Each binding hops on its own: the headline's binding, subscribed before the offers', has
    // written; the loading flag's, subscribed after, may still be on its way.
    #expect(state.headline.value.title == "Today")
    for await loading in state.isLoading.values where !loading { break }
    #expect(state.isLoading.value == false)
    await RenderProbe<Void>.nextTurn()
    withExtendedLifetime(viewModel) {}
  }

  @Test("block A's view is not rendered again when only block B changes")
  func perBlockInvalidation() async {
    let scheduler = TestScheduler(initialClock: 0)
    let api = TopAPI(scheduler: scheduler, latency: .seconds(10))
    let state = UIState()
    let refresh = scheduler.createHotObservable([.next(100, ()), .next(300, ())])
    let viewModel = TopViewModel(
      refresh: refresh.asObservable(), api: api, state: state, deltaView: DeltaView())
    let headlineView = RenderProbe { state.headline.value.title }
    let offersView = RenderProbe { state.offers.value.offers.count }

    scheduler.advanceTo(150)
    await RenderProbe<Void>.nextTurn()
    #expect(headlineView.outputs == ["", "Today"])
    #expect(offersView.outputs == [0, 2])

    // The second response changes the offers only; the headline is equal, so not written.
    scheduler.advanceTo(350)
    await RenderProbe<Void>.nextTurn()
    #expect(headlineView.renders == 2)
    #expect(headlineView.invalidations == 1)
    #expect(offersView.outputs == [0, 2, 3])
    withExtendedLifetime(viewModel) {}
  }

  @Test("Observation's will-change comes before the store; Rx subscribers get the value after it")
  func willChangeBeforeRxAfter() {
    let scheduler = TestScheduler(initialClock: 0)
    let api = TopAPI(scheduler: scheduler, latency: .seconds(10))
    let state = UIState()
    let refresh = scheduler.createHotObservable([.next(100, ())])
    let viewModel = TopViewModel(
      refresh: refresh.asObservable(), api: api, state: state, deltaView: DeltaView())
    var log: [String] = []
    withObservationTracking {
      _ = state.offers.value
    } onChange: {
      MainActor.assumeIsolated {
        log.append("will change, stored \(state.offers.value.offers)")
      }
    }
    let subscription = state.offers.asObservable().skip(1).subscribe(onNext: { block in
      MainActor.assumeIsolated {
        log.append("rx \(block.offers), stored \(state.offers.value.offers)")
      }
    })

    scheduler.start()

    #expect(
      log == [
        "will change, stored []",
        "rx [\"coffee\", \"tea\"], stored [\"coffee\", \"tea\"]",
      ])
    subscription.dispose()
    withExtendedLifetime(viewModel) {}
  }

  @Test("no binding outlives its cell: dropping the state ends the view model's bindings")
  func bindingsEndWithTheState() async {
    await RenderProbe<Void>.nextTurn()
    let refresh = PublishSubject<Void>()
    // Counts the objects this test makes, not those of the tests running beside it.
    let scope = Resources.Scope()
    let scheduler = TestScheduler(initialClock: 0)
    var (state, viewModel): (UIState?, TopViewModel?) = scope.run {
      let state = UIState()
      let viewModel = TopViewModel(
        refresh: refresh, api: TopAPI(scheduler: scheduler), state: state, deltaView: DeltaView())
      return (state, viewModel)
    }
    weak let weakHeadline = state?.headline
    let withBindings = scope.live
    #expect(withBindings > 0)

    state = nil
    await RenderProbe<Void>.nextTurn()
    #expect(weakHeadline == nil)
    // Three bindings (A, B and the loading flag) ended; block D's subscription, in the view
    // model's bag, remains.
    #expect(scope.live < withBindings)
    #expect(refresh.hasObservers)

    viewModel?.bag = DisposeBag()
    #expect(!refresh.hasObservers)
    // What remains is the view model's own relay (its "add to cart" button).
    viewModel = nil
    await RenderProbe<Void>.nextTurn()
    #expect(scope.live == 0)
  }
}
