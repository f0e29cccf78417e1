import Streams
import StreamsTest
import Testing

@Suite("Maybe")
struct MaybeTests {
  @Test("create: success, completion and failure")
  func create() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start {
      Maybe<Int>.create { maybe in
        maybe(.success(1))
        return Disposables.create()
      }.asObservable()
    }
    #expect(res.events == [.next(200, 1), .completed(200)])
    var events: [String] = []
    _ = Maybe<Int>.create { maybe in
      maybe(.completed)
      maybe(.success(2))
      return Disposables.create()
    }.subscribe { events.append("\($0)") }
    _ = Maybe<Int>.create { maybe in
      maybe(.error(TraitError(1)))
      maybe(.completed)
      return Disposables.create()
    }.subscribe { events.append("\($0)") }
    #expect(events == ["completed", "error(StreamsTests.TraitError(code: 1))"])
  }

  @Test("create: disposal disposes the resource; later calls are dropped")
  func createDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let log = TraitLog()
    let res = scheduler.start(disposed: 300) {
      Maybe<Int>.create { maybe in
        scheduler.scheduleAt(400) { maybe(.success(1)) }
        return Disposables.create { log.append("disposed at \(scheduler.clock)") }
      }.asObservable()
    }
    #expect(res.events == [])
    #expect(log.entries == ["disposed at 300"])
  }

  @Test("subscribe(onSuccess:onError:onCompleted:onDisposed:)")
  func subscribeClosures() {
    var log: [String] = []
    _ = Maybe.just(1).subscribe(
      onSuccess: { log.append("success \($0)") }, onError: { log.append("error \($0)") },
      onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
    _ = Maybe<Int>.empty().subscribe(
      onSuccess: { log.append("success \($0)") }, onCompleted: { log.append("completed") },
      onDisposed: { log.append("disposed") })
    _ = Maybe<Int>.error(TraitError(2)).subscribe(
      onError: { log.append("error \($0)") }, onDisposed: { log.append("disposed") })
    let pending = Maybe<Int>.never().subscribe(onDisposed: { log.append("disposed never") })
    pending.dispose()
    pending.dispose()
    #expect(
      log == [
        "success 1", "disposed", "completed", "disposed", "error TraitError(code: 2)", "disposed",
        "disposed never",
      ])
  }

  @Test("subscribe(with:) passes the object")
  func subscribeWith() {
    final class Owner {
      var log: [String] = []
    }
    let owner = Owner()
    _ = Maybe<Int>.empty().subscribe(with: owner, onCompleted: { $0.log.append("completed") })
    _ = Maybe.just(3).subscribe(with: owner, onSuccess: { $0.log.append("success \($1)") })
    #expect(owner.log == ["completed", "success 3"])
  }

  @Test("just, empty, error, never, just(_:scheduler:)")
  func factories() {
    let s1 = TestScheduler(initialClock: 0)
    #expect(s1.start { Maybe.just(1).asObservable() }.events == [.next(200, 1), .completed(200)])
    let s2 = TestScheduler(initialClock: 0)
    #expect(s2.start { Maybe<Int>.empty().asObservable() }.events == [.completed(200)])
    let s3 = TestScheduler(initialClock: 0)
    #expect(
      s3.start { Maybe<Int>.error(TraitError()).asObservable() }.events == [
        .error(200, TraitError())
      ])
    let s4 = TestScheduler(initialClock: 0)
    #expect(s4.start { Maybe<Int>.never().asObservable() }.events == [])
    let s5 = TestScheduler(initialClock: 0)
    #expect(
      s5.start { Maybe.just(2, scheduler: s5).asObservable() }.events == [
        .next(201, 2), .completed(201),
      ])
  }

  @Test("MaybeEvent is Equatable when its element is: elements by ==, errors by errorsMatch")
  func maybeEventEquatable() {
    var events: [MaybeEvent<Int>] = []
    _ = Maybe.just(1).subscribe { events.append($0) }
    _ = Maybe<Int>.empty().subscribe { events.append($0) }
    _ = Maybe<Int>.error(TraitError(2)).subscribe { events.append($0) }
    #expect(events == [.success(1), .completed, .error(TraitError(2))])
    #expect(events != [.success(2), .completed, .error(TraitError(2))])
    #expect(MaybeEvent<Int>.error(TraitError(1)) != .error(TraitError(2)))
    #expect(MaybeEvent<Int>.completed != .success(1))
  }
}
