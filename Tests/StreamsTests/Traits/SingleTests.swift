import Streams
import StreamsTest
import Testing

@Suite("Single")
struct SingleTests {
  @Test("create: success emits the element and completes at once")
  func createSuccess() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start {
      Single<Int>.create { single in
        single(.success(1))
        return Disposables.create()
      }.asObservable()
    }
    #expect(res.events == [.next(200, 1), .completed(200)])
  }

  @Test("create: failure fails")
  func createFailure() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start {
      Single<Int>.create { single in
        single(.failure(TraitError(1)))
        return Disposables.create()
      }.asObservable()
    }
    #expect(res.events == [.error(200, TraitError(1))])
  }

  @Test("create: a second call of the observer is ignored and the resource is disposed once")
  func createSecondCallIgnored() {
    let log = TraitLog()
    let single = Single<Int>.create { single in
      single(.success(1))
      single(.success(2))
      single(.failure(TraitError()))
      return Disposables.create { log.append("disposed") }
    }
    var results: [String] = []
    _ = single.subscribe { results.append("\($0)") }
    #expect(results == ["success(1)"])
    #expect(log.entries == ["disposed"])
  }

  @Test("create: asynchronous success after disposal is dropped; disposal disposes the resource")
  func createDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let log = TraitLog()
    let res = scheduler.start(disposed: 300) {
      Single<Int>.create { single in
        scheduler.scheduleAt(400) { single(.success(1)) }
        return Disposables.create { log.append("disposed at \(scheduler.clock)") }
      }.asObservable()
    }
    #expect(res.events == [])
    #expect(log.entries == ["disposed at 300"])
  }

  @Test("subscribe(onSuccess:onFailure:onDisposed:) on success")
  func subscribeSuccess() {
    var log: [String] = []
    _ = Single.just(1).subscribe(
      onSuccess: { log.append("success \($0)") }, onFailure: { log.append("failure \($0)") },
      onDisposed: { log.append("disposed") })
    #expect(log == ["success 1", "disposed"])
  }

  @Test("subscribe(onSuccess:onFailure:onDisposed:) on failure")
  func subscribeFailure() {
    var log: [String] = []
    _ = Single<Int>.error(TraitError(2)).subscribe(
      onSuccess: { log.append("success \($0)") }, onFailure: { log.append("failure \($0)") },
      onDisposed: { log.append("disposed") })
    #expect(log == ["failure TraitError(code: 2)", "disposed"])
  }

  @Test("subscribe: disposing first runs onDisposed once and nothing else")
  func subscribeDisposed() {
    var log: [String] = []
    let subscription = Single<Int>.never().subscribe(
      onSuccess: { log.append("success \($0)") }, onDisposed: { log.append("disposed") })
    subscription.dispose()
    subscription.dispose()
    #expect(log == ["disposed"])
  }

  @Test("deprecated subscribe(onSuccess:onError:onDisposed:) forwards to onFailure")
  @available(*, deprecated)
  func subscribeDeprecated() {
    var log: [String] = []
    _ = Single<Int>.error(TraitError(3)).subscribe(
      onSuccess: { _ in }, onError: { log.append("\($0)") })
    #expect(log == ["TraitError(code: 3)"])
  }

  @Test("subscribe(with:) passes the object and stops once it is gone")
  func subscribeWith() {
    final class Owner {
      var values: [Int] = []
    }
    let owner = Owner()
    _ = Single.just(5).subscribe(
      with: owner, onSuccess: { owner, value in owner.values.append(value) })
    #expect(owner.values == [5])
    var calls = 0
    var gone: Owner? = Owner()
    let subject = PublishSubject<Int>()
    let subscription = subject.asSingle().subscribe(with: gone!, onSuccess: { _, _ in calls += 1 })
    gone = nil
    subject.onNext(1)
    subject.onCompleted()
    subscription.dispose()
    #expect(calls == 0)
  }

  @Test("a completion without an element is reported as RxError.noElements")
  func completionWithoutElement() {
    var results: [String] = []
    let trigger = PublishSubject<Int>()
    _ = Single<Int>.error(TraitError())
      .retry(when: { (_: Observable<any Error>) in trigger })
      .subscribe { results.append("\($0)") }
    trigger.onCompleted()
    #expect(results == ["failure(Sequence doesn't contain any elements.)"])
  }

  @Test("an error without onFailure goes to the default error handler")
  func unhandledError() async {
    // The handler is process-wide: the check runs in a child process of its own.
    await #expect(processExitsWith: .success) {
      let log = TraitLog()
      Hooks.defaultErrorHandler = { _, error in log.append("\(error)") }
      _ = Single<Int>.error(TraitError(9)).subscribe(onSuccess: { _ in })
      precondition(log.entries == ["TraitError(code: 9)"], "\(log.entries)")
    }
  }

  @Test("just, error and never")
  func factories() {
    let scheduler = TestScheduler(initialClock: 0)
    #expect(
      scheduler.start { Single.just(1).asObservable() }.events == [
        .next(200, 1), .completed(200),
      ])
    let failing = TestScheduler(initialClock: 0)
    #expect(
      failing.start { Single<Int>.error(TraitError()).asObservable() }.events == [
        .error(200, TraitError())
      ])
    let idle = TestScheduler(initialClock: 0)
    #expect(idle.start { Single<Int>.never().asObservable() }.events == [])
  }

  @Test("just(_:scheduler:) emits from a scheduled action")
  func justScheduler() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start { Single.just(7, scheduler: scheduler).asObservable() }
    #expect(res.events == [.next(201, 7), .completed(201)])
  }

  @Test("deferred runs the factory per subscription; a throw fails")
  func deferred() {
    var calls = 0
    let single = Single<Int>.deferred {
      calls += 1
      return .just(calls)
    }
    var values: [Int] = []
    _ = single.subscribe(onSuccess: { values.append($0) })
    _ = single.subscribe(onSuccess: { values.append($0) })
    #expect(values == [1, 2])
    var failures: [String] = []
    _ = Single<Int>.deferred { throw TraitError(4) }
      .subscribe(onFailure: { failures.append("\($0)") })
    #expect(failures == ["TraitError(code: 4)"])
  }
}
