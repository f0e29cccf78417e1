import Streams

/// A banner that subscribes and never disposes: its subscription outlives it (the leak).
final class PromoBanner {
  private(set) var shown: [String] = []

  init(catalog: CatalogViewModel, analytics: Analytics) {
    _ = catalog.selection
      .filter { $0 == "promoted" }
      .subscribe(
        with: self,
        onNext: { banner, item in
          banner.shown.append(item)
          analytics.events.onNext("promo \(item)")
        })
  }
}
