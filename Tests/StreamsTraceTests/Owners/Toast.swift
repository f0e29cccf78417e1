import Streams

/// A toast that shows the inbox's messages and parks its subscription in the inbox's bag, so
/// that the subscription lives as long as the inbox, not as long as the toast.
final class Toast {
  private(set) var shown: [String] = []

  /// Names itself the subscription's owner when `annotated`.
  init(inbox: Inbox, annotated: Bool) {
    let subscription = inbox.messages.subscribe(onNext: { [weak self] in self?.shown.append($0) })
    if annotated {
      subscription.owned(by: self).disposed(by: inbox.bag)
    } else {
      subscription.disposed(by: inbox.bag)
    }
  }
}
