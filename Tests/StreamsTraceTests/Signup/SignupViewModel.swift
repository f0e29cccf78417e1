import Streams

/// The sign-up screen's view model: credentials in, whether to enable the button and the
/// result of a submit out; a submit signs the user in to the session.
final class SignupViewModel: ViewModelType {
  struct Input {
    let email: Observable<String>
    let password: Observable<String>
    let submit: Observable<Void>
  }

  struct Output {
    let canSubmit: Observable<Bool>
    let signedUp: Observable<String>
  }

  private let session: SessionStore
  private let bag = DisposeBag()

  init(session: SessionStore) {
    self.session = session
  }

  func transform(input: Input) -> Output {
    let credentials = Observable.combineLatest(input.email, input.password)
    let canSubmit =
      credentials
      .map { email, password in email.contains("@") && password.count >= 8 }
      .distinctUntilChanged()
    let signedUp = input.submit
      .withLatestFrom(credentials)
      .map { email, _ in email }
      .share()
    signedUp
      .subscribe(onNext: { [session] email in session.signedIn.onNext(email) })
      .disposed(by: bag)
    return Output(canSubmit: canSubmit, signedUp: signedUp)
  }
}
