import Streams
import StreamsTest
import Testing

private struct Failure: Error, Equatable {}

/// A resource that records the virtual time of its creation and disposal.
private final class Resource: Disposable, Sendable {
  let scheduler: TestScheduler
  let created: Int
  private let disposedAt = Locked<Int?>(nil)

  init(scheduler: TestScheduler) {
    self.scheduler = scheduler
    created = scheduler.clock
  }

  var disposed: Int? { disposedAt.withLock { $0 } }

  func dispose() {
    let now = scheduler.clock
    disposedAt.withLock { value in
      if value == nil { value = now }
    }
  }
}

@Suite("using")
struct UsingTests {
  @Test("disposes the resource when the created observable completes")
  func completes() {
    let scheduler = TestScheduler(initialClock: 0)
    let resource = Locked<Resource?>(nil)
    let xs = scheduler.createColdObservable([.next(100, 1), .completed(200)])
    let res = scheduler.start {
      Observable.using(
        {
          let created = Resource(scheduler: scheduler)
          resource.withLock { $0 = created }
          return created
        }, observableFactory: { _ in xs.asObservable() })
    }
    #expect(res.events == [.next(300, 1), .completed(400)])
    #expect(xs.subscriptions == [Subscription(200, 400)])
    #expect(resource.withLock { $0 }?.created == 200)
    #expect(resource.withLock { $0 }?.disposed == 400)
  }

  @Test("disposes the resource when the subscription is disposed")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let resource = Locked<Resource?>(nil)
    let xs = scheduler.createColdObservable([.next(100, 1), .next(900, 2)])
    let res = scheduler.start {
      Observable.using(
        {
          let created = Resource(scheduler: scheduler)
          resource.withLock { $0 = created }
          return created
        }, observableFactory: { _ in xs.asObservable() })
    }
    #expect(res.events == [.next(300, 1)])
    #expect(xs.subscriptions == [Subscription(200, 1000)])
    #expect(resource.withLock { $0 }?.disposed == 1000)
  }

  @Test("an error of the created observable disposes the resource")
  func sourceError() {
    let scheduler = TestScheduler(initialClock: 0)
    let resource = Locked<Resource?>(nil)
    let xs = scheduler.createColdObservable([.next(100, 1), .error(150, Failure())])
    let res = scheduler.start {
      Observable.using(
        {
          let created = Resource(scheduler: scheduler)
          resource.withLock { $0 = created }
          return created
        }, observableFactory: { _ in xs.asObservable() })
    }
    #expect(res.events == [.next(300, 1), .error(350, Failure())])
    #expect(resource.withLock { $0 }?.disposed == 350)
  }

  @Test("a throwing resource factory becomes an error")
  func resourceFactoryThrows() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start {
      Observable<Int>.using(
        { () throws -> Resource in throw Failure() },
        observableFactory: { _ in Observable.just(1) })
    }
    #expect(res.events == [.error(200, Failure())])
  }

  @Test("a throwing observable factory becomes an error and disposes the resource")
  func observableFactoryThrows() {
    let scheduler = TestScheduler(initialClock: 0)
    let resource = Locked<Resource?>(nil)
    let res = scheduler.start {
      Observable<Int>.using(
        {
          let created = Resource(scheduler: scheduler)
          resource.withLock { $0 = created }
          return created
        }, observableFactory: { _ in throw Failure() })
    }
    #expect(res.events == [.error(200, Failure())])
    #expect(resource.withLock { $0 }?.disposed == 200)
  }
}
