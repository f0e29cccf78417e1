// A legacy promo banner with the two bugs tracing is for: it feeds the cart from an analytics
// event (a cycle: cart → badge → analytics → banner → cart), and it parks its subscription in
// analytics' bag, so a replaced banner's subscription lives on (a leak).

import Streams

/// Adds a free sample to the cart when the first item goes in.
final class PromoBanner {
  private(set) var shown = false

  init(analytics: Analytics, cart: CartStore) {
    analytics.events
      .filter { $0 == "badge: 1" }
      .subscribe(
        with: self,
        onNext: { banner, _ in
          banner.shown = true
          cart.added.accept("free sample")
        }
      )
      .disposed(by: analytics.bag)
  }
}
