import Streams
import Testing

/// A subscription holds its subject's core strongly (no weak reference); the subject breaks that
/// cycle when it is deinitialized. These tests check that dropping a subject whose subscriptions
/// were never disposed still releases the subject and its observers, as RxSwift's weak
/// subscription does, and that disposing such a subscription afterwards is harmless.
@Suite("Subject lifetime")
struct SubjectLifetimeTests {
  final class Token {}

  /// A subject (or relay) of the given kind, as the object to drop and the observable to
  /// subscribe to.
  static func make(_ kind: String) -> (owner: AnyObject, observable: Observable<Int>) {
    switch kind {
    case "PublishSubject":
      let subject = PublishSubject<Int>()
      return (subject, subject.asObservable())
    case "BehaviorSubject":
      let subject = BehaviorSubject(value: 0)
      return (subject, subject.asObservable())
    case "ReplaySubject":
      let subject = ReplaySubject<Int>.create(bufferSize: 2)
      return (subject, subject.asObservable())
    case "AsyncSubject":
      let subject = AsyncSubject<Int>()
      return (subject, subject.asObservable())
    case "PublishRelay":
      let relay = PublishRelay<Int>()
      return (relay, relay.asObservable())
    default:
      let relay = BehaviorRelay(value: 0)
      return (relay, relay.asObservable())
    }
  }

  @Test(
    "dropping a subject with undisposed subscriptions releases it and its observers",
    arguments: [
      "PublishSubject", "BehaviorSubject", "ReplaySubject", "AsyncSubject", "PublishRelay",
      "BehaviorRelay",
    ])
  func droppedSubjectReleasesObservers(kind: String) {
    weak var weakDirectToken: Token?
    weak var weakChainToken: Token?
    weak var weakOwner: AnyObject?
    var direct: (any Disposable)?
    var chained: (any Disposable)?
    do {
      let directToken = Token()
      let chainToken = Token()
      weakDirectToken = directToken
      weakChainToken = chainToken
      let (owner, observable) = Self.make(kind)
      weakOwner = owner
      direct = observable.subscribe { _ in withExtendedLifetime(directToken) {} }
      chained = observable.map { $0 + 1 }.filter { $0 > 0 }
        .subscribe(onNext: { _ in withExtendedLifetime(chainToken) {} })
      #expect(weakOwner != nil)
    }
    // Neither subscription keeps the subject alive, and the subject let its observers go.
    #expect(weakOwner == nil)
    #expect(weakDirectToken == nil)
    // The kept disposables hold no closures either.
    #expect(weakChainToken == nil)
    // Disposing after the subject is gone does nothing, and does not crash.
    direct?.dispose()
    chained?.dispose()
    withExtendedLifetime((direct, chained)) {}
  }

  @Test("a subscription disposed after its subject is gone does not affect a new subject")
  func disposeAfterSubjectGone() {
    var subscription: (any Disposable)?
    do {
      let subject = PublishSubject<Int>()
      subscription = subject.subscribe(onNext: { _ in })
    }
    let fresh = PublishSubject<Int>()
    var received: [Int] = []
    let kept = fresh.subscribe(onNext: { received.append($0) })
    subscription?.dispose()
    fresh.onNext(1)
    #expect(received == [1])
    #expect(fresh.hasObservers)
    kept.dispose()
    #expect(!fresh.hasObservers)
  }
}
