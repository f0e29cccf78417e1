import Streams

/// A long-lived inbox whose bag other objects borrow.
final class Inbox {
  let messages = PublishSubject<String>()
  let bag = DisposeBag()
  private(set) var unread = 0

  init() {
    messages.subscribe(onNext: { [unowned self] _ in unread += 1 }).disposed(by: bag)
  }
}
