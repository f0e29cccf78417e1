import Streams
import StreamsTest
import Testing

/// A resource that logs its disposal.
private final class LoggedResource: Disposable, Sendable {
  private let onDispose: @Sendable () -> Void
  init(_ onDispose: @escaping @Sendable () -> Void) { self.onDispose = onDispose }
  func dispose() { onDispose() }
}

@Suite("PrimitiveSequence using")
struct PrimitiveSequenceUsingTests {
  @Test("using builds the Single from the resource and disposes the resource after it succeeds")
  func succeeds() {
    let scheduler = TestScheduler(initialClock: 0)
    let log = TraitLog()
    let xs = scheduler.createColdObservable([.next(10, 3), .completed(10)])
    let res = scheduler.start {
      Single.using(
        { LoggedResource { log.append("disposed at \(scheduler.clock)") } },
        primitiveSequenceFactory: { _ in xs.asSingle() })
    }
    #expect(res.events == [.next(210, 3), .completed(210)])
    #expect(xs.subscriptions == [Subscription(200, 210)])
    #expect(log.entries == ["disposed at 210"])
  }

  @Test("using: disposal disposes the Maybe's subscription, then the resource")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let log = TraitLog()
    let xs = scheduler.createColdObservable([.next(50, 3), .completed(50)])
    let res = scheduler.start(disposed: 230) {
      Maybe.using(
        { LoggedResource { log.append("disposed at \(scheduler.clock)") } },
        primitiveSequenceFactory: { _ in xs.asMaybe() })
    }
    #expect(res.events == [])
    #expect(xs.subscriptions == [Subscription(200, 230)])
    #expect(log.entries == ["disposed at 230"])
  }

  @Test("using: a throwing factory fails the Completable and disposes the resource")
  func throwingFactory() {
    let log = TraitLog()
    var events: [CompletableEvent] = []
    _ = Completable.using(
      { LoggedResource { log.append("disposed") } },
      primitiveSequenceFactory: { _ -> Completable in throw TraitError(4) }
    ).subscribe { events.append($0) }
    #expect(events == [.error(TraitError(4))])
    #expect(log.entries == ["disposed"])

    var failures: [String] = []
    _ = Single<Int>.using(
      { () throws -> LoggedResource in throw TraitError(5) },
      primitiveSequenceFactory: { _ in .just(1) }
    ).subscribe(onFailure: { failures.append("\($0)") })
    #expect(failures == ["TraitError(code: 5)"])
  }
}
