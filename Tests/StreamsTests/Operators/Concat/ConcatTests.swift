import Streams
import StreamsTest
import Testing

@Suite("Concat")
struct ConcatTests {
  @Test("concat subscribes the second sequence when the first completes")
  func values() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs1 = scheduler.createColdObservable([.next(10, 1), .completed(30)])
    let xs2 = scheduler.createColdObservable([.next(10, 2), .completed(20)])
    let res = scheduler.start { xs1.asObservable().concat(xs2) }
    #expect(res.events == [.next(210, 1), .next(240, 2), .completed(250)])
    #expect(xs1.subscriptions == [Subscription(200, 230)])
    #expect(xs2.subscriptions == [Subscription(230, 250)])
  }

  @Test("an error of the first sequence fails before the second is subscribed")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs1 = scheduler.createColdObservable([.next(10, 1), .error(30, MultiTestError.first)])
    let xs2 = scheduler.createColdObservable([.next(10, 2), .completed(20)])
    let res = scheduler.start { Observable.concat(xs1.asObservable(), xs2.asObservable()) }
    #expect(res.events == [.next(210, 1), .error(230, MultiTestError.first)])
    #expect(xs1.subscriptions == [Subscription(200, 230)])
    #expect(xs2.subscriptions == [])
  }

  @Test("as in RxSwift, a source is disposed before the next one, the last after completion")
  func disposalOrder() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
    let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
    let log = DisposalLog()
    let res = scheduler.start {
      Observable.concat([
        log.watch(xs, "xs"), log.watch(ys.do(onSubscribe: { log.append("subscribe ys") }), "ys"),
      ])
      .do(onCompleted: { log.append("completed") })
    }
    #expect(res.events == [.next(210, 1), .next(230, 2), .completed(240)])
    #expect(log.entries == ["dispose xs", "subscribe ys", "completed", "dispose ys"])
  }

  @Test("concat of an empty collection completes at once")
  func empty() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start { Observable<Int>.concat([Observable<Int>]()) }
    #expect(res.events == [.completed(200)])
  }

  @Test("disposal disposes the running source and stops the iteration")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs1 = scheduler.createColdObservable([.next(10, 1), .completed(30)])
    let xs2 = scheduler.createColdObservable([.next(10, 2), .next(30, 3), .completed(40)])
    let xs3: TestableObservable<Int> = scheduler.createColdObservable([.completed(10)])
    let res = scheduler.start(disposed: 250) {
      Observable.concat([xs1.asObservable(), xs2.asObservable(), xs3.asObservable()])
    }
    #expect(res.events == [.next(210, 1), .next(240, 2)])
    #expect(xs1.subscriptions == [Subscription(200, 230)])
    #expect(xs2.subscriptions == [Subscription(230, 250)])
    #expect(xs3.subscriptions == [])
  }

  @Test("a sequence of sources is iterated lazily, one source at a time")
  func lazySequence() {
    let made = MultiCallCounter()
    let gate = PublishSubject<Int>()
    let sources = AnySequence(
      (0..<3).lazy.map { index -> Observable<Int> in
        made.tick()
        return index == 0
          ? gate.asObservable()
          : Observable.create { observer in
            observer.onNext(index)
            observer.onCompleted()
            return Disposables.create()
          }
      })
    var events: [Event<Int>] = []
    _ = Observable.concat(sources).subscribe { events.append($0) }
    #expect(made.value == 1)
    gate.onNext(0)
    gate.onCompleted()
    #expect(made.value == 3)
    #expect(events == [.next(0), .next(1), .next(2), .completed])
  }

  @Test("many synchronous sources do not grow the stack")
  func manySynchronousSources() {
    let count = 100_000
    let sources = AnySequence(
      (0..<count).lazy.map { index in
        Observable<Int>.create { observer in
          observer.onNext(index)
          observer.onCompleted()
          return Disposables.create()
        }
      })
    var sum = 0
    var completed = false
    _ = Observable.concat(sources).subscribe(
      onNext: { sum += $0 }, onCompleted: { completed = true })
    #expect(sum == count * (count - 1) / 2)
    #expect(completed)
  }

  @Test("concat() on an observable of observables runs them one after the other")
  func concatInner() {
    let scheduler = TestScheduler(initialClock: 0)
    let ys1 = scheduler.createColdObservable([.next(10, 1), .next(60, 2), .completed(70)])
    let ys2 = scheduler.createColdObservable([.next(5, 3), .completed(100)])
    let xs = scheduler.createHotOuter([.next(210, ys1), .next(230, ys2), .completed(300)])
    let res = scheduler.start { xs.asObservable().concat() }
    #expect(res.events == [.next(220, 1), .next(270, 2), .next(285, 3), .completed(380)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
    #expect(ys1.subscriptions == [Subscription(210, 280)])
    #expect(ys2.subscriptions == [Subscription(280, 380)])
  }

  @Test("concat() drains a long queue of synchronous inner sequences without recursion")
  func concatInnerQueue() {
    let outer = PublishSubject<Observable<Int>>()
    let gate = PublishSubject<Int>()
    var sum = 0
    var completed = false
    _ = outer.concat().subscribe(onNext: { sum += $0 }, onCompleted: { completed = true })
    outer.onNext(gate.asObservable())
    let count = 100_000
    for index in 0..<count {
      outer.onNext(
        Observable.create { observer in
          observer.onNext(index)
          observer.onCompleted()
          return Disposables.create()
        })
    }
    outer.onCompleted()
    #expect(sum == 0)
    gate.onCompleted()
    #expect(sum == count * (count - 1) / 2)
    #expect(completed)
  }
}
