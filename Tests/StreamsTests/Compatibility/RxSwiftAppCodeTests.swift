// App code in the shape RxSwift 6 code is written in, compiled against Streams with only the import
// changed. If a name, label or overload that such code relies on goes missing, this file stops
// compiling; the tests check that it also behaves as it did with RxSwift.

import Streams
import StreamsTest
import Testing

private enum LoginError: Error, Equatable {
  case invalidCredentials
}

private struct User: Equatable, Sendable {
  let name: String
}

/// A service in the usual RxSwift style: traits built with `create`.
private struct AuthService: Sendable {
  let scheduler: TestScheduler

  func login(name: String, password: String) -> Single<User> {
    Single.create { single in
      scheduler.scheduleRelative((), dueTime: .seconds(20)) { _ in
        if password == "secret" {
          single(.success(User(name: name)))
        } else {
          single(.failure(LoginError.invalidCredentials))
        }
        return Disposables.create()
      }
    }
  }

  func logout() -> Completable {
    Completable.create { completable in
      completable(.completed)
      return Disposables.create()
    }
  }

  func cachedUser() -> Maybe<User> {
    Maybe.create { maybe in
      maybe(.completed)
      return Disposables.create()
    }
  }
}

/// A view model with RxSwift's input/output shape.
private final class LoginViewModel {
  struct Input {
    let name: Observable<String>
    let password: Observable<String>
    let loginTaps: Observable<Void>
  }

  struct Output {
    let isLoginEnabled: Observable<Bool>
    let user: Observable<User?>
    let errorMessage: Observable<String>
    let attempts: Observable<Int>
  }

  let isLoading = BehaviorRelay<Bool>(value: false)
  private let errors = PublishSubject<String>()
  private let disposeBag = DisposeBag()

  func transform(_ input: Input, service: AuthService) -> Output {
    let credentials = Observable.combineLatest(input.name, input.password) { ($0, $1) }
    let isLoginEnabled =
      credentials
      .map { name, password in !name.isEmpty && password.count >= 3 }
      .distinctUntilChanged()
      .startWith(false)

    let user =
      input.loginTaps
      .withLatestFrom(credentials)
      .do(onNext: { [isLoading] _ in isLoading.accept(true) })
      .flatMapLatest { [errors] name, password -> Observable<User?> in
        service.login(name: name, password: password)
          .map { Optional($0) }
          .asObservable()
          .catch { error in
            errors.onNext("\(error)")
            return .just(nil)
          }
      }
      .do(onNext: { [isLoading] _ in isLoading.accept(false) })
      .share(replay: 1)

    let attempts = input.loginTaps.scan(0) { count, _ in count + 1 }

    return Output(
      isLoginEnabled: isLoginEnabled, user: user, errorMessage: errors.asObservable(),
      attempts: attempts)
  }
}

@Suite("RxSwift app code compatibility")
struct RxSwiftAppCodeTests {
  @Test("a view model in RxSwift's input/output style behaves as with RxSwift")
  func loginViewModel() {
    let scheduler = TestScheduler(initialClock: 0)
    let name = scheduler.createHotObservable([.next(210, "ann")])
    let password = scheduler.createHotObservable([
      .next(220, "se"), .next(230, "secret"), .next(300, "wrong"),
    ])
    let taps = scheduler.createHotObservable([.next(240, ()), .next(310, ())])
    let viewModel = LoginViewModel()
    let output = viewModel.transform(
      .init(
        name: name.asObservable(), password: password.asObservable(),
        loginTaps: taps.asObservable()),
      service: AuthService(scheduler: scheduler))

    let enabled = scheduler.createObserver(Bool.self)
    let users = scheduler.createObserver(User?.self)
    let messages = scheduler.createObserver(String.self)
    let attempts = scheduler.createObserver(Int.self)
    let loading = scheduler.createObserver(Bool.self)
    let bag = DisposeBag()
    scheduler.scheduleAt(200) {
      output.isLoginEnabled.subscribe(enabled).disposed(by: bag)
      output.user.bind(to: users).disposed(by: bag)
      output.errorMessage.subscribe(onNext: { messages.onNext($0) }).disposed(by: bag)
      output.attempts.subscribe(attempts).disposed(by: bag)
      viewModel.isLoading.subscribe(loading).disposed(by: bag)
    }
    scheduler.start()

    #expect(enabled.events == [.next(200, false), .next(220, false), .next(230, true)])
    #expect(users.events == [.next(260, User(name: "ann")), .next(330, nil)])
    #expect(messages.events == [.next(330, "invalidCredentials")])
    #expect(attempts.events == [.next(240, 1), .next(310, 2)])
    #expect(
      loading.events == [
        .next(200, false), .next(240, true), .next(260, false), .next(310, true),
        .next(330, false),
      ])
  }

  @Test("traits subscribe with RxSwift's labels")
  func traits() {
    let scheduler = TestScheduler(initialClock: 0)
    let service = AuthService(scheduler: scheduler)
    var log: [String] = []
    let bag = DisposeBag()
    service.login(name: "bo", password: "secret")
      .subscribe(
        onSuccess: { log.append("success \($0.name)") },
        onFailure: { log.append("failure \($0)") },
        onDisposed: { log.append("disposed") }
      )
      .disposed(by: bag)
    service.logout()
      .subscribe(onCompleted: { log.append("logged out") }, onError: { _ in log.append("error") })
      .disposed(by: bag)
    service.cachedUser()
      .subscribe(
        onSuccess: { _ in log.append("cached") }, onError: { _ in log.append("error") },
        onCompleted: { log.append("no cached user") }
      )
      .disposed(by: bag)
    scheduler.start()
    #expect(log == ["logged out", "no cached user", "success bo", "disposed"])
  }

  @Test("subjects, relays and DisposeBag in the usual shapes")
  func subjectsAndRelays() {
    let bag = DisposeBag()
    let items = BehaviorRelay<[String]>(value: [])
    let selection = PublishRelay<Int>()
    let reload = PublishSubject<Void>()
    var rendered: [[String]] = []
    var selected: [String] = []

    items.asObservable()
      .skip(1)
      .subscribe(onNext: { rendered.append($0) })
      .disposed(by: bag)
    selection
      .withLatestFrom(items) { index, items in items[index] }
      .subscribe(onNext: { selected.append($0) })
      .disposed(by: bag)
    reload
      .map { ["a", "b"] }
      .bind(to: items)
      .disposed(by: bag)

    reload.onNext(())
    selection.accept(1)
    items.accept(items.value + ["c"])
    #expect(rendered == [["a", "b"], ["a", "b", "c"]])
    #expect(selected == ["b"])
  }

  @Test("RxSwift 5 names still compile, deprecated, and behave like their renamed versions")
  @available(*, deprecated, message: "exercises deprecated RxSwift 5 names on purpose")
  func deprecatedNames() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .error(240, LoginError.invalidCredentials),
    ])
    let stop = scheduler.createHotObservable([.next(235, ())])
    let res = scheduler.start {
      xs.asObservable()
        .skipWhile { $0 < 2 }
        .takeUntil(stop.asObservable())
        .catchErrorJustReturn(-1)
        .observeOn(scheduler)
    }
    #expect(res.events == [.next(221, 2), .next(231, 3), .completed(236)])
  }
}
