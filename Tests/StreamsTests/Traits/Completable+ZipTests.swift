import Streams
import StreamsTest
import Testing

@Suite("Completable.zip and Completable.concat")
struct CompletableZipTests {
  private typealias Never_ = [Recorded<Event<Never>>]

  @Test("zip subscribes to all at once and completes when the last completes")
  func zip() {
    let scheduler = TestScheduler(initialClock: 0)
    let a = scheduler.createColdObservable([.completed(10)] as Never_)
    let b = scheduler.createColdObservable([.completed(30)] as Never_)
    let res = scheduler.start { Completable.zip(a.asCompletable(), b.asCompletable()) }
    #expect(res.events == [.completed(230)])
    #expect(a.subscriptions == [Subscription(200, 210)])
    #expect(b.subscriptions == [Subscription(200, 230)])
  }

  @Test("zip fails with the first failure and disposes the others; array and collection forms")
  func zipFailure() {
    let scheduler = TestScheduler(initialClock: 0)
    let a = scheduler.createColdObservable([.error(10, TraitError(1))] as Never_)
    let b = scheduler.createColdObservable([.completed(30)] as Never_)
    let res = scheduler.start { Completable.zip([a.asCompletable(), b.asCompletable()]) }
    #expect(res.events == [.error(210, TraitError(1))])
    #expect(b.subscriptions == [Subscription(200, 210)])

    let collection = TestScheduler(initialClock: 0)
    let c = collection.createColdObservable([.completed(5)] as Never_)
    let d = collection.createColdObservable([.completed(15)] as Never_)
    let sources = [c, d].lazy.map { $0.asCompletable() }
    let collected = collection.start { Completable.zip(sources) }
    #expect(collected.events == [.completed(215)])

    var events: [CompletableEvent] = []
    _ = Completable.zip([]).subscribe { events.append($0) }
    _ = Completable.zip().subscribe { events.append($0) }
    #expect(events == [.completed, .completed])
  }

  @Test("concat subscribes to each after the previous completes")
  func concat() {
    let scheduler = TestScheduler(initialClock: 0)
    let a = scheduler.createColdObservable([.completed(10)] as Never_)
    let b = scheduler.createColdObservable([.completed(20)] as Never_)
    let c = scheduler.createColdObservable([.completed(5)] as Never_)
    let res = scheduler.start {
      Completable.concat(a.asCompletable(), b.asCompletable(), c.asCompletable())
    }
    #expect(res.events == [.completed(235)])
    #expect(a.subscriptions == [Subscription(200, 210)])
    #expect(b.subscriptions == [Subscription(210, 230)])
    #expect(c.subscriptions == [Subscription(230, 235)])
  }

  @Test("concat stops at the first failure; array, collection and sequence forms")
  func concatFailure() {
    let scheduler = TestScheduler(initialClock: 0)
    let a = scheduler.createColdObservable([.error(10, TraitError(2))] as Never_)
    let b = scheduler.createColdObservable([.completed(20)] as Never_)
    let res = scheduler.start { Completable.concat([a.asCompletable(), b.asCompletable()]) }
    #expect(res.events == [.error(210, TraitError(2))])
    #expect(b.subscriptions == [])

    let sequence = TestScheduler(initialClock: 0)
    let c = sequence.createColdObservable([.completed(10)] as Never_)
    let d = sequence.createColdObservable([.completed(10)] as Never_)
    var pulled = 0
    let lazy = AnySequence { () -> AnyIterator<Completable> in
      var remaining = [c, d]
      return AnyIterator {
        guard !remaining.isEmpty else { return nil }
        pulled += 1
        return remaining.removeFirst().asCompletable()
      }
    }
    let concatenated = sequence.start(disposed: 215) { Completable.concat(lazy) }
    #expect(concatenated.events == [])
    #expect(pulled == 2)
    #expect(c.subscriptions == [Subscription(200, 210)])
    #expect(d.subscriptions == [Subscription(210, 215)])

    let empty = TestScheduler(initialClock: 0)
    let none = empty.start { Completable.concat([Completable]()) }
    #expect(none.events == [.completed(200)])
  }
}
