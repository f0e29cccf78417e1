import Streams

/// An analytics service fed from three places; one of its listeners re-selects a promoted item,
/// which closes a cycle through the catalog.
final class Analytics {
  let events = PublishSubject<String>()
  var log: [String] = []
  private let bag = DisposeBag()

  init(catalog: CatalogViewModel) {
    events
      .subscribe(onNext: { [unowned self] event in
        log.append(event)
        if event == "badge 1" { catalog.selection.accept("promoted") }
      })
      .disposed(by: bag)
  }
}
