import Streams
import StreamsTest
import Testing

@Suite("Completable")
struct CompletableTests {
  @Test("create: completion and failure; later calls are ignored")
  func create() {
    var events: [String] = []
    _ = Completable.create { completable in
      completable(.completed)
      completable(.error(TraitError()))
      return Disposables.create()
    }.subscribe { events.append("\($0)") }
    _ = Completable.create { completable in
      completable(.error(TraitError(1)))
      completable(.completed)
      return Disposables.create()
    }.subscribe { events.append("\($0)") }
    #expect(events == ["completed", "error(StreamsTests.TraitError(code: 1))"])
  }

  @Test("create on virtual time; disposal disposes the resource")
  func createVirtualTime() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start {
      Completable.create { completable in
        scheduler.scheduleAt(250) { completable(.completed) }
        return Disposables.create()
      }.asObservable()
    }
    #expect(res.events == [.completed(250)])

    let disposing = TestScheduler(initialClock: 0)
    let log = TraitLog()
    let disposed = disposing.start(disposed: 300) {
      Completable.create { completable in
        disposing.scheduleAt(400) { completable(.completed) }
        return Disposables.create { log.append("disposed at \(disposing.clock)") }
      }.asObservable()
    }
    #expect(disposed.events == [])
    #expect(log.entries == ["disposed at 300"])
  }

  @Test("subscribe(onCompleted:onError:onDisposed:) and subscribe(with:)")
  func subscribeClosures() {
    var log: [String] = []
    _ = Completable.empty().subscribe(
      onCompleted: { log.append("completed") }, onError: { log.append("error \($0)") },
      onDisposed: { log.append("disposed") })
    _ = Completable.error(TraitError(2)).subscribe(
      onError: { log.append("error \($0)") }, onDisposed: { log.append("disposed") })
    let pending = Completable.never().subscribe(onDisposed: { log.append("disposed never") })
    pending.dispose()
    pending.dispose()
    final class Owner {
      var done = false
    }
    let owner = Owner()
    _ = Completable.empty().subscribe(with: owner, onCompleted: { $0.done = true })
    #expect(owner.done)
    #expect(
      log == [
        "completed", "disposed", "error TraitError(code: 2)", "disposed", "disposed never",
      ])
  }

  @Test("empty, error, never")
  func factories() {
    let s1 = TestScheduler(initialClock: 0)
    #expect(s1.start { Completable.empty().asObservable() }.events == [.completed(200)])
    let s2 = TestScheduler(initialClock: 0)
    #expect(
      s2.start { Completable.error(TraitError()).asObservable() }.events == [
        .error(200, TraitError())
      ])
    let s3 = TestScheduler(initialClock: 0)
    #expect(s3.start { Completable.never().asObservable() }.events == [])
  }

  @Test("do: side effects and a throwing onCompleted")
  func doSideEffects() {
    var log: [String] = []
    _ = Completable.empty()
      .do(
        onCompleted: { log.append("onCompleted") }, afterCompleted: { log.append("after") },
        onSubscribe: { log.append("subscribe") }, onDispose: { log.append("dispose") }
      )
      .subscribe(onCompleted: { log.append("completed") })
    _ = Completable.empty().do(onCompleted: { throw TraitError(3) })
      .subscribe(onError: { log.append("\($0)") })
    _ = Completable.error(TraitError(4)).do(onError: { _ in throw TraitError(5) })
      .subscribe(onError: { log.append("\($0)") })
    #expect(
      log == [
        "subscribe", "onCompleted", "completed", "after", "dispose", "TraitError(code: 3)",
        "TraitError(code: 5)",
      ])
  }

  @Test("asCompletable on an Observable<Never>, catch, retry")
  func conversions() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.completed(230)] as [Recorded<Event<Never>>])
    let res = scheduler.start { xs.asCompletable().asObservable() }
    #expect(res.events == [.completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 230)])

    var log: [String] = []
    _ = Completable.error(TraitError()).catch { _ in .empty() }
      .subscribe(onCompleted: { log.append("recovered") })
    #expect(log == ["recovered"])
  }

  @Test("CompletableEvent is Equatable: errors compare by errorsMatch")
  func completableEventEquatable() {
    var events: [CompletableEvent] = []
    _ = Completable.empty().subscribe { events.append($0) }
    _ = Completable.error(TraitError(3)).subscribe { events.append($0) }
    #expect(events == [.completed, .error(TraitError(3))])
    #expect(CompletableEvent.error(TraitError(3)) != .error(TraitError(4)))
    #expect(CompletableEvent.completed != .error(TraitError(3)))
  }
}
