import Streams
import StreamsTest
import Testing

@Suite("Infallible")
struct InfallibleTests {
  @Test("create: elements and completion; nothing after completion")
  func create() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start {
      Infallible<Int>.create { observer in
        observer(.next(1))
        observer(.next(2))
        observer(.completed)
        observer(.next(3))
        return Disposables.create()
      }.asObservable()
    }
    #expect(res.events == [.next(200, 1), .next(200, 2), .completed(200)])
  }

  @Test("create: disposal disposes the resource")
  func createDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let log = TraitLog()
    let res = scheduler.start(disposed: 300) {
      Infallible<Int>.create { observer in
        scheduler.scheduleAt(250) { observer(.next(1)) }
        scheduler.scheduleAt(350) { observer(.next(2)) }
        return Disposables.create { log.append("disposed at \(scheduler.clock)") }
      }.asObservable()
    }
    #expect(res.events == [.next(250, 1)])
    #expect(log.entries == ["disposed at 300"])
  }

  @Test("subscribe(onNext:onCompleted:onDisposed:), subscribe(with:), subscribe(_:)")
  func subscribeForms() {
    var log: [String] = []
    _ = Infallible.of(1, 2).subscribe(
      onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") },
      onDisposed: { log.append("disposed") })
    final class Owner {
      var values: [Int] = []
    }
    let owner = Owner()
    _ = Infallible.of(3).subscribe(with: owner, onNext: { $0.values.append($1) })
    _ = Infallible.just(4).subscribe { log.append("\($0)") }
    #expect(log == ["next 1", "next 2", "completed", "disposed", "next(4)", "completed"])
    #expect(owner.values == [3])
  }

  @Test("asInfallible(onErrorJustReturn:)")
  func onErrorJustReturn() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TraitError())])
    let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).asObservable() }
    #expect(res.events == [.next(210, 1), .next(220, 0), .completed(220)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("asInfallible(onErrorFallbackTo:) and asInfallible(onErrorRecover:)")
  func fallback() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TraitError())])
    let ys = scheduler.createColdObservable([.next(10, 5), .completed(20)])
    let res = scheduler.start {
      xs.asInfallible(onErrorFallbackTo: ys.asInfallible(onErrorJustReturn: -1)).asObservable()
    }
    #expect(res.events == [.next(210, 1), .next(230, 5), .completed(240)])
    #expect(ys.subscriptions == [Subscription(220, 240)])

    var log: [String] = []
    _ = Single<Int>.error(TraitError(7))
      .asInfallible(onErrorRecover: { error in .just((error as? TraitError)?.code ?? 0) })
      .subscribe(onNext: { log.append("\($0)") })
    #expect(log == ["7"])
  }

  @Test("relays as Infallible")
  func relays() {
    var log: [Int] = []
    let publish = PublishRelay<Int>()
    let behavior = BehaviorRelay(value: 1)
    let replay = ReplayRelay<Int>.create(bufferSize: 1)
    replay.accept(2)
    let bag = DisposeBag()
    publish.asInfallible().subscribe(onNext: { log.append($0) }).disposed(by: bag)
    behavior.asInfallible().subscribe(onNext: { log.append($0) }).disposed(by: bag)
    replay.asInfallible().subscribe(onNext: { log.append($0) }).disposed(by: bag)
    publish.accept(3)
    #expect(log == [1, 2, 3])
  }
}
