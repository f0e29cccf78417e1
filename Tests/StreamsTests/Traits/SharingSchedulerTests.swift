import Dispatch
import Streams
import StreamsTest
import Testing

private struct MockError: Error {}

/// A scheduler distinct from the others, to see which one `make` returns.
private final class NamedScheduler: SchedulerType {
  let name: String
  let base = TestScheduler(initialClock: 0)

  init(_ name: String) {
    self.name = name
  }

  var now: RxTime { base.now }

  func schedule<StateType: Sendable>(
    _ state: StateType, action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    base.schedule(state, action: action)
  }

  func scheduleRelative<StateType: Sendable>(
    _ state: StateType, dueTime: RxTimeInterval,
    action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    base.scheduleRelative(state, dueTime: dueTime, action: action)
  }
}

@Suite("SharingScheduler")
struct SharingSchedulerTests {
  @Test("make is the main scheduler outside a mock; nested mocks apply and restore")
  func makeAndNesting() {
    #expect(SharingScheduler.make() is MainScheduler)
    #expect(DriverSharingStrategy.scheduler is MainScheduler)
    let makeOne: @Sendable () -> any SchedulerType = { NamedScheduler("one") }
    SharingScheduler.mock(makeScheduler: makeOne) {
      #expect((SharingScheduler.make() as? NamedScheduler)?.name == "one")
      SharingScheduler.mock(scheduler: NamedScheduler("two")) {
        #expect((SignalSharingStrategy.scheduler as? NamedScheduler)?.name == "two")
      }
      #expect((SharingScheduler.make() as? NamedScheduler)?.name == "one")
    }
    #expect(SharingScheduler.make() is MainScheduler)
  }

  @Test("mock rethrows what the action throws and restores the scheduler")
  func rethrowing() {
    #expect(throws: MockError.self) {
      try SharingScheduler.mock(scheduler: TestScheduler(initialClock: 0)) {
        throw MockError()
      }
    }
    #expect(SharingScheduler.make() is MainScheduler)
  }

  @Test("asDriver(onErrorJustReturn:) delivers on the mock scheduler, off the main thread")
  func asDriverOnTestScheduler() {
    let scheduler = TestScheduler(initialClock: 0)
    SharingScheduler.mock(scheduler: scheduler) {
      let xs = scheduler.createHotObservable([
        .next(150, 1), .next(210, 2), .next(220, 3), .error(230, MockError()),
      ])
      let res = scheduler.start { xs.asDriver(onErrorJustReturn: -1) }
      #expect(res.events == [.next(211, 2), .next(221, 3), .next(231, -1), .completed(231)])
      #expect(xs.subscriptions == [Subscription(200, 230)])
    }
  }

  @Test("asSignal(onErrorSignalWith:) delivers on the mock scheduler")
  func asSignalOnTestScheduler() {
    let scheduler = TestScheduler(initialClock: 0)
    SharingScheduler.mock(scheduler: scheduler) {
      let xs = scheduler.createColdObservable([.next(10, "a"), .error(20, MockError())])
      let res = scheduler.start { xs.asSignal(onErrorSignalWith: .just("b")) }
      #expect(res.events == [.next(211, "a"), .next(222, "b"), .completed(222)])
      #expect(xs.subscriptions == [Subscription(200, 220)])
    }
  }

  @Test("Driver.just and Driver.empty subscribe on the mock scheduler")
  func justAndEmpty() {
    let scheduler = TestScheduler(initialClock: 0)
    SharingScheduler.mock(scheduler: scheduler) {
      let just = scheduler.start { Driver.just(1) }
      #expect(just.events == [.next(201, 1), .completed(201)])
    }
    let other = TestScheduler(initialClock: 0)
    SharingScheduler.mock(scheduler: other) {
      let empty = other.start { Signal<Int>.empty() }
      #expect(empty.events == [.completed(201)])
    }
  }

  @Test("Driver.interval and Driver.timer run on the mock scheduler")
  func intervalAndTimer() {
    let scheduler = TestScheduler(initialClock: 0)
    SharingScheduler.mock(scheduler: scheduler) {
      let res = scheduler.start(disposed: 235) { Driver<Int>.interval(.seconds(10)) }
      #expect(res.events == [.next(210, 0), .next(220, 1), .next(230, 2)])
    }
    let other = TestScheduler(initialClock: 0)
    SharingScheduler.mock(scheduler: other) {
      let res = other.start(disposed: 230) { Signal<Int>.timer(.seconds(5), period: .seconds(10)) }
      #expect(res.events == [.next(205, 0), .next(215, 1), .next(225, 2)])
    }
  }

  @Test("relays as a Driver and a Signal deliver on the mock scheduler")
  func relays() {
    let scheduler = TestScheduler(initialClock: 0)
    SharingScheduler.mock(scheduler: scheduler) {
      let behavior = BehaviorRelay(value: 0)
      let publish = PublishRelay<Int>()
      let driven = scheduler.createObserver(Int.self)
      let emitted = scheduler.createObserver(Int.self)
      let driver = behavior.asDriver()
      let signal = publish.asSignal()
      scheduler.scheduleAt(200) {
        _ = driver.asObservable().subscribe(driven)
        _ = signal.asObservable().subscribe(emitted)
      }
      scheduler.scheduleAt(300) {
        behavior.accept(1)
        publish.accept(2)
      }
      scheduler.start()
      #expect(driven.events == [.next(201, 0), .next(301, 1)])
      #expect(emitted.events == [.next(301, 2)])
    }
  }

  @Test("a Driver built outside the mock keeps the main scheduler")
  func builtOutside() {
    let scheduler = TestScheduler(initialClock: 0)
    let subject = PublishSubject<Int>()
    let outside = subject.asDriver(onErrorJustReturn: 0)
    SharingScheduler.mock(scheduler: scheduler) {
      let inside = subject.asDriver(onErrorJustReturn: 0)
      let res = scheduler.createObserver(Int.self)
      scheduler.scheduleAt(200) { _ = inside.asObservable().subscribe(res) }
      scheduler.scheduleAt(210) { subject.onNext(1) }
      scheduler.start()
      #expect(res.events == [.next(211, 1)])
    }
    withExtendedLifetime(outside) {}
  }
}

extension MainThreadDeliveryTests {
  @Suite("SharingScheduler on the main actor")
  struct SharingSchedulerMainActorTests {
    @Test("drive and emit record on the mock scheduler's virtual time")
    @MainActor
    func driveOnTestScheduler() async {
      await drainMainQueue()
      let scheduler = TestScheduler(initialClock: 0)
      let observer = scheduler.createObserver(String.self)
      var emitted: [Int] = []
      let bag = DisposeBag()
      SharingScheduler.mock(scheduler: scheduler) {
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let titles = xs.asDriver(onErrorJustReturn: 0).map { "#\($0)" }
        titles.drive(observer).disposed(by: bag)
        xs.asSignal(onErrorJustReturn: 0).emit(onNext: { emitted.append($0) }).disposed(by: bag)
        scheduler.start()
      }
      #expect(observer.events == [.next(211, "#1"), .next(221, "#2"), .completed(231)])
      #expect(emitted == [1, 2])
    }
  }
}
