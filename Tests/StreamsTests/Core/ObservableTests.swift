import Streams
import StreamsTest
import Testing

private enum TestError: Error, Equatable { case boom }

@Suite("Observable.create and subscribe")
struct ObservableTests {
  @Test("create enforces the grammar: nothing after a terminal event")
  func grammar() {
    var received: [Event<Int>] = []
    let disposed = CallCounter()
    let source = Observable<Int>.create { observer in
      observer.onNext(1)
      observer.onCompleted()
      observer.onNext(2)
      observer.onError(TestError.boom)
      return Disposables.create { disposed.increment() }
    }
    _ = source.subscribe { received.append($0) }
    #expect(received == [.next(1), .completed])
    #expect(disposed.value == 1)
  }

  @Test("create drops events after disposal")
  func disposal() {
    var captured: AnyObserver<Int>?
    var received: [Int] = []
    let source = Observable<Int>.create { observer in
      captured = observer
      return Disposables.create()
    }
    let subscription = source.subscribe(onNext: { received.append($0) })
    captured?.onNext(1)
    subscription.dispose()
    captured?.onNext(2)
    #expect(received == [1])
  }

  @Test("each subscription runs the recipe again")
  func cold() {
    var runs = 0
    let source = Observable<Int>.create { observer in
      runs += 1
      observer.onNext(runs)
      observer.onCompleted()
      return Disposables.create()
    }
    var received: [Int] = []
    _ = source.subscribe(onNext: { received.append($0) })
    _ = source.subscribe(onNext: { received.append($0) })
    #expect(received == [1, 2])
  }

  @Test("subscribe(onNext:...) calls onCompleted then onDisposed, once")
  func callbacksOnCompletion() {
    var log: [String] = []
    let subject = PublishSubject<Int>()
    let subscription = subject.subscribe(
      onNext: { log.append("next \($0)") },
      onError: { _ in log.append("error") },
      onCompleted: { log.append("completed") },
      onDisposed: { log.append("disposed") })
    subject.onNext(1)
    subject.onCompleted()
    subscription.dispose()
    #expect(log == ["next 1", "completed", "disposed"])
  }

  @Test("subscribe(onNext:...) calls onError then onDisposed")
  func callbacksOnError() {
    var log: [String] = []
    let subject = PublishSubject<Int>()
    _ = subject.subscribe(
      onNext: { log.append("next \($0)") },
      onError: { log.append("error \($0)") },
      onCompleted: { log.append("completed") },
      onDisposed: { log.append("disposed") })
    subject.onError(TestError.boom)
    #expect(log == ["error boom", "disposed"])
  }

  @Test("disposing stops delivery and calls onDisposed")
  func explicitDispose() {
    var log: [String] = []
    let subject = PublishSubject<Int>()
    let subscription = subject.subscribe(
      onNext: { log.append("next \($0)") }, onDisposed: { log.append("disposed") })
    subject.onNext(1)
    subscription.dispose()
    subject.onNext(2)
    subscription.dispose()
    #expect(log == ["next 1", "disposed"])
    #expect(!subject.hasObservers)
  }

  @Test("subscribe(with:) passes the object and stops calling once it is gone")
  func subscribeWith() {
    final class Owner { var values: [Int] = [] }
    let subject = PublishSubject<Int>()
    var owner: Owner? = Owner()
    weak let weakOwner = owner
    var afterRelease = 0
    _ = subject.subscribe(
      with: owner!,
      onNext: { owner, value in
        owner.values.append(value)
        afterRelease += 1
      })
    subject.onNext(1)
    #expect(owner?.values == [1])
    owner = nil
    #expect(weakOwner == nil)
    subject.onNext(2)
    #expect(afterRelease == 1)
  }

  @Test("bind(to:) forwards every event to each observer")
  func bindToObservers() {
    let first = PublishSubject<Int>()
    let second = PublishSubject<Int>()
    var a: [Event<Int>] = []
    var b: [Event<Int>] = []
    _ = first.subscribe { a.append($0) }
    _ = second.subscribe { b.append($0) }
    let source = PublishSubject<Int>()
    _ = source.bind(to: first, second)
    source.onNext(1)
    source.onCompleted()
    #expect(a == [.next(1), .completed])
    #expect(b == [.next(1), .completed])
  }

  @Test("bind(to:) wraps elements for optional observers and relays")
  func bindOptional() {
    let optionalSubject = PublishSubject<Int?>()
    var received: [Int?] = []
    _ = optionalSubject.subscribe(onNext: { received.append($0) })
    let relay = BehaviorRelay<Int?>(value: nil)
    let source = PublishSubject<Int>()
    _ = source.bind(to: optionalSubject)
    _ = source.bind(to: relay)
    source.onNext(4)
    #expect(received == [4])
    #expect(relay.value == 4)
  }

  @Test("bind(with:onNext:) passes the object, stops once it is gone, ends with completion")
  func bindWith() {
    final class Owner { var values: [Int] = [] }
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .completed(240),
    ])
    var owner: Owner? = Owner()
    weak let weakOwner = owner
    var calls = 0
    scheduler.scheduleAt(200) {
      _ = xs.bind(with: owner!) { owner, value in
        owner.values.append(value)
        calls += 1
      }
    }
    scheduler.advanceTo(220)
    #expect(owner?.values == [1, 2])
    owner = nil
    #expect(weakOwner == nil)
    scheduler.start()
    #expect(calls == 2)
    #expect(xs.subscriptions == [Subscription(200, 240)])
  }

  @Test("bind(with:onNext:) stops the program on an error")
  func bindWithErrorTraps() async {
    await #expect(processExitsWith: .failure) {
      final class Owner {}
      let owner = Owner()
      _ = Observable<Int>.error(RxError.unknown).bind(with: owner) { _, _ in }
      withExtendedLifetime(owner) {}
    }
  }

  @Test("bind(to:curriedArgument:) passes the observable, then the argument")
  func bindCurried() {
    func collect(_ source: Observable<Int>) -> (Int) -> [Int] {
      { factor in
        var values: [Int] = []
        _ = source.subscribe(onNext: { values.append($0 * factor) })
        return values
      }
    }
    let values = Observable.of(1, 2, 3).bind(to: collect, curriedArgument: 10)
    #expect(values == [10, 20, 30])
  }

  @Test("an error without onError goes to Hooks.defaultErrorHandler")
  func unhandledError() async {
    // The handler is process-wide: the check runs in a child process of its own.
    await #expect(processExitsWith: .success) {
      let recorded = UnhandledErrors()
      Hooks.defaultErrorHandler = { _, error in recorded.append("\(error)") }
      let subject = PublishSubject<Int>()
      _ = subject.subscribe(onNext: { _ in })
      subject.onError(TestError.boom)
      precondition(recorded.values == ["boom"], "\(recorded.values)")
    }
  }

  @Test("binding an erroring sequence to a relay stops the program with a message")
  func bindErrorToRelayTraps() async {
    await #expect(processExitsWith: .failure) {
      let relay = PublishRelay<Int>()
      _ = Observable<Int>.create { observer in
        observer.onError(RxError.unknown)
        return Disposables.create()
      }.bind(to: relay)
    }
  }

  @Test("asObservable on a custom ObservableType disposes its source on completion")
  func asObservableWrapper() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
    let res = scheduler.start { xs.asObservable() }
    #expect(res.events == [.next(210, 1), .completed(220)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }
}

/// Collects unhandled error descriptions from any thread.
private final class UnhandledErrors: @unchecked Sendable {
  // Guarded by `lock`.
  private var storage: [String] = []
  private let lock = TestLock()
  func append(_ value: String) { lock.run { storage.append(value) } }
  var values: [String] { lock.run { storage } }
}
