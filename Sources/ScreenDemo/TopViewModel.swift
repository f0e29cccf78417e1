import Streams
import StreamsState

/// The old Rx view model of the top screen, in the middle of its migration: its pipeline fetches
/// the blocks and routes each response to its block. Blocks A and B are SwiftUI views reading
/// state cells (`bind(to:)`); block D is still a UIKit view configured by hand.
final class TopViewModel {
  var bag = DisposeBag()
  /// The offers block's "add to cart" button.
  let addToCart = PublishRelay<String>()

  /// - Parameters:
  ///   - cart, analytics: The other screens' legacy objects this one feeds, when the app has
  ///     them (the tests of the state bindings leave them out).
  init(
    refresh: Observable<Void>, api: TopAPI, state: UIState, deltaView: DeltaView,
    cart: CartStore? = nil, analytics: Analytics? = nil
  ) {
    let responses =
      refresh
      .flatMapLatest { api.fetchBlocks().asObservable().catchAndReturn([]) }
      .share()

    responses.compactMap { $0.lazy.compactMap(\.headline).first }
      .bind(to: state.headline)
      .disposed(by: bag)
    responses.compactMap { $0.lazy.compactMap(\.offers).first }
      .bind(to: state.offers)
      .disposed(by: bag)
    responses.map { _ in false }
      .bind(to: state.isLoading)
      .disposed(by: bag)

    // Block D, the UIKit way: on the main thread, configured by hand.
    responses.compactMap { $0.lazy.compactMap(\.delta).first }
      .observe(on: MainScheduler.instance)
      .subscribe(onNext: { [weak deltaView] block in
        MainActor.assumeIsolated { deltaView?.configure(block) }
      })
      .disposed(by: bag)

    // The legacy wiring into other screens' objects: a tap here adds to the cart screen's store,
    // and every refresh is reported to analytics.
    if let cart {
      addToCart
        .subscribe(onNext: { cart.added.accept($0) })
        .disposed(by: bag)
    }
    if let analytics {
      refresh
        .subscribe(onNext: { analytics.events.onNext("top: refresh") })
        .disposed(by: bag)
    }
  }
}
