import Streams

/// The cart badge on the tab bar: listens to the cart's items, reports to analytics.
final class CartBadge {
  private(set) var count = 0
  private let bag = DisposeBag()

  init(cart: CartViewModel, analytics: Analytics) {
    cart.items
      .map(\.count)
      .distinctUntilChanged()
      .subscribe(
        with: self,
        onNext: { badge, count in
          badge.count = count
          analytics.events.onNext("badge \(count)")
        }
      )
      .disposed(by: bag)
  }
}
