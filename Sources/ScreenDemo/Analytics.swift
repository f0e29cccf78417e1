// Legacy analytics, from before the migration: a subject that three files send into.

import Streams

/// Collects what the screens report. Anyone may send into `events`; its own subscription keeps a
/// count, as the old analytics SDK wrapper did.
final class Analytics {
  let events = PublishSubject<String>()
  /// Where the old code parked subscriptions it never meant to end.
  let bag = DisposeBag()
  private(set) var sent: [String] = []

  init() {
    events
      .subscribe(onNext: { [weak self] event in self?.sent.append(event) })
      .disposed(by: bag)
  }
}
