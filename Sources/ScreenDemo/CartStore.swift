// The cart screen's store, from before the migration: other screens add to it and listen to it.

import Streams

/// The cart: `added` takes items from any screen, `items` is what the cart holds.
final class CartStore {
  let added = PublishRelay<String>()
  let items = BehaviorRelay<[String]>(value: [])
  private let bag = DisposeBag()

  init(analytics: Analytics) {
    added
      .subscribe(onNext: { [items] item in
        items.accept(items.value + [item])
        analytics.events.onNext("cart: added \(item)")
      })
      .disposed(by: bag)
  }
}
