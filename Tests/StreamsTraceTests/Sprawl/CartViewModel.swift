import Streams

/// The cart: listens to another screen's relay and keeps the items; reports to analytics.
final class CartViewModel {
  let items = BehaviorRelay<[String]>(value: [])
  private let bag = DisposeBag()

  init(catalog: CatalogViewModel, analytics: Analytics) {
    catalog.selection
      .subscribe(onNext: { [items] item in
        items.accept(items.value + [item])
        analytics.events.onNext("added \(item)")
      })
      .disposed(by: bag)
  }
}
