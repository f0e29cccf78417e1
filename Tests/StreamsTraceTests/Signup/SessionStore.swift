import Streams

/// The app's session: sign-ins come in, the signed-in user goes out.
final class SessionStore {
  let signedIn = PublishSubject<String>()
  let user = BehaviorRelay<String?>(value: nil)
  private let bag = DisposeBag()

  init() {
    signedIn
      .map { email in email.lowercased() }
      .bind(to: user)
      .disposed(by: bag)
  }
}
