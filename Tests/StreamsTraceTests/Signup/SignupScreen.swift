import Streams

/// The sign-up screen: its controls stand in as subjects; it binds the view model's outputs.
final class SignupScreen {
  let email = PublishSubject<String>()
  let password = PublishSubject<String>()
  let submitTaps = PublishRelay<Void>()
  let status = BehaviorRelay<String>(value: "")
  private(set) var submitEnabled = false
  private let bag = DisposeBag()

  init(viewModel: SignupViewModel) {
    let output = viewModel.transform(
      input: SignupViewModel.Input(
        email: email.asObservable(), password: password.asObservable(),
        submit: submitTaps.asObservable()))
    output.canSubmit
      .subscribe(with: self, onNext: { screen, enabled in screen.submitEnabled = enabled })
      .disposed(by: bag)
    output.signedUp
      .map { email in "Welcome, \(email)" }
      .bind(to: status)
      .disposed(by: bag)
  }
}
