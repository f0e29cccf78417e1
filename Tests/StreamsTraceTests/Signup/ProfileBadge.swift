import Streams

/// The profile badge in the navigation bar: shows the session's user, and tells the screen
/// the badge changed (the screen's status line shows it).
final class ProfileBadge {
  private(set) var text = ""
  private let bag = DisposeBag()

  init(session: SessionStore, screen: SignupScreen) {
    session.user
      .compactMap { $0 }
      .subscribe(
        with: self,
        onNext: { badge, user in
          badge.text = user
          screen.status.accept("Signed in as \(user)")
        }
      )
      .disposed(by: bag)
  }
}
