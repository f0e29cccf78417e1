// The top screen's cart badge: it listens to another screen's relay, the sprawl the migration
// starts from.

import Streams

/// The badge over the cart button: the number of items, reported to analytics as it changes.
final class CartBadge {
  let text = BehaviorRelay<String>(value: "")
  private let bag = DisposeBag()

  init(cart: CartStore, analytics: Analytics) {
    cart.items
      .map(\.count)
      .distinctUntilChanged()
      .subscribe(onNext: { [text] count in
        text.accept(count == 0 ? "" : "\(count)")
        analytics.events.onNext("badge: \(count)")
      })
      .disposed(by: bag)
  }
}
