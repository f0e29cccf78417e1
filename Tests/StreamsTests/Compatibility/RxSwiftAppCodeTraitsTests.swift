// App code that uses the trait operators, the trait factories and RxTest's trait assertions in the
// shape RxSwift 6 code is written in, compiled against Streams with only the import changed. If a
// name, label or overload such code relies on goes missing, this file stops compiling; the tests
// check that it also behaves as it did with RxSwift.

import Streams
import StreamsTest
import Testing

private enum APIError: Error, Equatable {
  case offline
}

private struct Profile: Equatable, Sendable {
  let name: String
}

/// A connection the repository opens per request, RxSwift's `using` resource.
private final class Connection: Disposable, Sendable {
  private let closed: @Sendable () -> Void
  init(closed: @escaping @Sendable () -> Void) { self.closed = closed }
  func dispose() { closed() }
}

/// A repository in the usual RxSwift style: traits with timeouts, fallbacks and scheduling.
private struct ProfileRepository {
  let scheduler: TestScheduler
  let remote: Single<Profile>
  let cached: Maybe<Profile>
  let onClose: @Sendable () -> Void

  func profile() -> Single<Profile> {
    Single.using({ Connection(closed: onClose) }, primitiveSequenceFactory: { _ in remote })
      .subscribe(on: scheduler)
      .timeout(
        .seconds(30), other: cached.ifEmpty(switchTo: Single.error(APIError.offline)),
        scheduler: scheduler
      )
      .observe(on: scheduler)
  }

  func warmUp() -> Completable {
    Completable.zip(
      Single<Int>.timer(.seconds(5), scheduler: scheduler).asCompletable(),
      Maybe<Int>.timer(.seconds(10), scheduler: scheduler).asCompletable())
  }

  func migrate() -> Completable {
    Completable.concat([
      Completable.empty().delaySubscription(.seconds(3), scheduler: scheduler),
      Completable.empty().delay(.seconds(4), scheduler: scheduler),
    ])
  }
}

@Suite("RxSwift app code compatibility: traits")
struct RxSwiftAppCodeTraitsTests {
  @Test("a Single with subscribe(on:), timeout(other:) and observe(on:) behaves as with RxSwift")
  func repositoryTimeout() {
    let scheduler = TestScheduler(initialClock: 0)
    let log = TraitLog()
    let slow = scheduler.createColdObservable([.next(50, Profile(name: "remote")), .completed(50)])
    let cache = scheduler.createColdObservable([.next(2, Profile(name: "cached")), .completed(2)])
    let repository = ProfileRepository(
      scheduler: scheduler, remote: slow.asSingle(), cached: cache.asMaybe(),
      onClose: { log.append("closed at \(scheduler.clock)") })

    var events: [SingleEvent<Profile>] = []
    let bag = DisposeBag()
    repository.profile().subscribe { events.append($0) }.disposed(by: bag)
    scheduler.start()

    #expect(events == [.success(Profile(name: "cached"))])
    // subscribe(on:) subscribes one tick later and disposes on the scheduler, one tick after the
    // timeout at 30, as RxSwift's does on a TestScheduler.
    #expect(slow.subscriptions == [Subscription(1, 31)])
    #expect(cache.subscriptions == [Subscription(30, 32)])
    #expect(log.entries == ["closed at 31"])
  }

  @Test("Completable.zip, Completable.concat and the trait timers")
  func completables() {
    let scheduler = TestScheduler(initialClock: 0)
    let repository = ProfileRepository(
      scheduler: scheduler, remote: .never(), cached: .empty(), onClose: {})
    let warm = scheduler.start { repository.warmUp() }
    #expect(warm.events == [.completed(210)])

    let migrating = TestScheduler(initialClock: 0)
    let other = ProfileRepository(
      scheduler: migrating, remote: .never(), cached: .empty(), onClose: {})
    let res = migrating.start { other.migrate().asObservable() }
    #expect(res.events == [.completed(207)])
  }

  @Test("factories passed as function references, as RxSwift code writes them")
  func functionReferences() {
    var values: [Int] = []
    var errors: [String] = []
    let bag = DisposeBag()
    Observable.of(1, 2).flatMap(Observable.just).subscribe(onNext: { values.append($0) })
      .disposed(by: bag)
    Observable.just([3, 4]).flatMap(Observable.from).subscribe(onNext: { values.append($0) })
      .disposed(by: bag)
    Observable<Int>.error(APIError.offline).catch(Observable.error)
      .subscribe(onError: { errors.append("\($0)") })
      .disposed(by: bag)
    Single.just(5).flatMap(Single.just).subscribe(onSuccess: { values.append($0) })
      .disposed(by: bag)
    #expect(values == [1, 2, 3, 4, 5])
    #expect(errors == ["offline"])
  }

  @Test("Infallible.combineLatest over relays")
  func infallibleCombineLatest() {
    let firstName = BehaviorRelay(value: "Ada")
    let lastName = BehaviorRelay(value: "L")
    var names: [String] = []
    var pairs: [String] = []
    let bag = DisposeBag()
    Infallible.combineLatest(firstName.asInfallible(), lastName.asInfallible()) { "\($0) \($1)" }
      .subscribe(onNext: { names.append($0) })
      .disposed(by: bag)
    Infallible.combineLatest(firstName.asInfallible(), lastName.asInfallible())
      .subscribe(onNext: { pairs.append("\($0.0)/\($0.1)") })
      .disposed(by: bag)
    lastName.accept("Lovelace")
    #expect(names == ["Ada L", "Ada Lovelace"])
    #expect(pairs == ["Ada/L", "Ada/Lovelace"])
  }

  @Test("recorded trait events compare as RxTest's do; Hooks accept RxSwift's settings")
  func traitEventsAndHooks() {
    var maybeEvents: [MaybeEvent<Int>] = []
    var completableEvents: [CompletableEvent] = []
    _ = Maybe<Int>.empty().debug("cache").subscribe { maybeEvents.append($0) }
    _ = Completable.error(APIError.offline).subscribe { completableEvents.append($0) }
    #expect(maybeEvents == [.completed])
    #expect(completableEvents == [.error(APIError.offline)])

    // Set as app delegates do at launch; reading them back is all that can be checked here
    // without changing what other tests running at the same time report.
    let capture = Hooks.customCaptureSubscriptionCallstack
    Hooks.customCaptureSubscriptionCallstack = capture
    #expect(Hooks.recordCallStackOnError == false)
  }
}
