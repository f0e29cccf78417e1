import Dispatch
import Streams
import StreamsTest
import Testing

extension MainThreadDeliveryTests {
  @Suite("Driver")
  struct DriverTests {
    @Test("drive delivers on the main actor and replaces the error")
    @MainActor
    func deliversOnMain() async {
      await drainMainQueue()
      let subject = PublishSubject<Int>()
      var received: [Int] = []
      var completed = false
      let subscription = subject.asDriver(onErrorJustReturn: -1).drive(
        onNext: { value in
          MainActor.assertIsolated()
          dispatchPrecondition(condition: .onQueue(.main))
          received.append(value)
        },
        onCompleted: { completed = true })
      subject.onNext(1)
      #expect(received == [1])
      await Task.detached { @Sendable in
        subject.onNext(2)
        subject.onError(TraitError())
      }.value
      await drainMainQueue()
      #expect(received == [1, 2, -1])
      #expect(completed)
      subscription.dispose()
    }

    @Test("events emitted off the main thread keep their order with later main-thread events")
    @MainActor
    func ordering() async {
      await drainMainQueue()
      let subject = PublishSubject<Int>()
      var received: [Int] = []
      let subscription = subject.asDriver(onErrorJustReturn: -1).drive(onNext: {
        received.append($0)
      })
      DispatchQueue.global().sync { subject.onNext(1) }
      subject.onNext(2)
      #expect(received == [])
      await drainMainQueue()
      #expect(received == [1, 2])
      subscription.dispose()
    }

    @Test("on virtual time from the main actor: replay 1 while connected, one source subscription")
    @MainActor
    func sharing() async {
      await drainMainQueue()
      let scheduler = TestScheduler(initialClock: 0)
      let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(300, 3)])
      let driver = xs.asDriver(onErrorJustReturn: 0)
      let first = scheduler.createObserver(Int.self)
      let second = scheduler.createObserver(Int.self)
      let third = scheduler.createObserver(Int.self)
      let bag = MainActorHarness(driver)
      scheduler.scheduleAt(200) { MainActor.assumeIsolated { bag.drive("a", first) } }
      scheduler.scheduleAt(250) { MainActor.assumeIsolated { bag.drive("b", second) } }
      scheduler.scheduleAt(260) {
        MainActor.assumeIsolated {
          bag.dispose("a")
          bag.dispose("b")
        }
      }
      scheduler.scheduleAt(270) { MainActor.assumeIsolated { bag.drive("c", third) } }
      scheduler.scheduleAt(400) { MainActor.assumeIsolated { bag.dispose("c") } }
      scheduler.start()
      #expect(first.events == [.next(210, 1), .next(220, 2)])
      #expect(second.events == [.next(250, 2)])
      #expect(third.events == [.next(300, 3)])
      #expect(xs.subscriptions == [Subscription(200, 260), Subscription(270, 400)])
    }

    @Test("a completed source is subscribed again by the next subscriber")
    @MainActor
    func reconnectAfterCompletion() async {
      await drainMainQueue()
      var subscriptions = 0
      let source = Observable<Int>.create { observer in
        subscriptions += 1
        observer.onNext(subscriptions)
        observer.onCompleted()
        return Disposables.create()
      }
      let driver = source.asDriver(onErrorJustReturn: 0)
      var values: [Int] = []
      _ = driver.drive(onNext: { values.append($0) })
      _ = driver.drive(onNext: { values.append($0) })
      #expect(values == [1, 2])
      #expect(subscriptions == 2)
    }

    @Test("asDriver(onErrorDriveWith:) and asDriver(onErrorRecover:) recover on the main actor")
    @MainActor
    func recovery() async {
      await drainMainQueue()
      var values: [Int] = []
      let failing = Observable<Int>.create { observer in
        observer.onError(TraitError(4))
        return Disposables.create()
      }
      _ = failing.asDriver(onErrorDriveWith: Driver.just(1)).drive(onNext: { values.append($0) })
      _ = failing.asDriver(onErrorRecover: { error in
        MainActor.assertIsolated()
        return Driver.just((error as? TraitError)?.code ?? 0)
      }).drive(onNext: { values.append($0) })
      // The recovery sequence's hop is requested from inside the error's hop: it is queued, as
      // RxSwift's MainScheduler queues re-entrant work.
      #expect(values == [])
      await drainMainQueue()
      #expect(values == [1, 4])
    }

    @Test("just, empty, never")
    @MainActor
    func factories() async {
      await drainMainQueue()
      var log: [String] = []
      _ = Driver.just(1).drive(
        onNext: { log.append("just \($0)") }, onCompleted: { log.append("done") })
      _ = Driver<Int>.empty().drive(onCompleted: { log.append("empty") })
      let never = Driver<Int>.never().drive(onNext: { _ in log.append("never") })
      never.dispose()
      #expect(log == ["just 1", "done", "empty"])
      let background = TraitLog()
      // The main thread waits in `sync` while the background thread subscribes, so the main queue
      // cannot run the delivery before the subscription returns: the order below is determined.
      DispatchQueue.global().sync {
        _ = Driver.just(5).asObservable().subscribe(onNext: { value in
          background.append("delivered \(value), on main: \(BridgeMainQueue.isCurrent)")
        })
        background.append("subscribed, on main: \(BridgeMainQueue.isCurrent)")
      }
      // Subscribed off the main thread, the element is not delivered during the subscription ...
      #expect(background.entries == ["subscribed, on main: false"])
      await drainMainQueue()
      // ... but later, through the main queue.
      #expect(background.entries == ["subscribed, on main: false", "delivered 5, on main: true"])
    }

    @Test("onDisposed runs on the main actor, also when disposed from another thread")
    @MainActor
    func onDisposed() async {
      await drainMainQueue()
      var log: [String] = []
      let subject = PublishSubject<Int>()
      let completedOne = Driver.just(1).drive(onDisposed: {
        MainActor.assertIsolated()
        log.append("completed and disposed")
      })
      let subscription = subject.asDriver(onErrorJustReturn: 0).drive(onDisposed: {
        MainActor.assertIsolated()
        log.append("disposed")
      })
      await Task.detached { @Sendable in subscription.dispose() }.value
      await drainMainQueue()
      completedOne.dispose()
      #expect(log == ["completed and disposed", "disposed"])
      #expect(!subject.hasObservers)
    }

    @Test("drive(with:), drive to observers, relays and a transformation")
    @MainActor
    func driveForms() async {
      await drainMainQueue()
      final class Owner {
        var values: [Int] = []
      }
      let owner = Owner()
      let relay = BehaviorRelay(value: 0)
      _ = Driver.just(1).drive(with: owner, onNext: { $0.values.append($1) })
      #expect(owner.values == [1])

      let subject = ReplaySubject<Int>.createUnbounded()
      let optionalSubject = ReplaySubject<Int?>.createUnbounded()
      _ = Driver.just(2).drive(subject)
      _ = Driver.just(3).drive(optionalSubject)
      var events: [Event<Int>] = []
      var optionalEvents: [Event<Int?>] = []
      _ = subject.subscribe { events.append($0) }
      _ = optionalSubject.subscribe { optionalEvents.append($0) }
      #expect(events == [.next(2), .completed])
      #expect(optionalEvents == [.next(3), .completed])

      _ = Driver.just(4).drive(relay)
      #expect(relay.value == 4)
      let optionalRelay = BehaviorRelay<Int?>(value: nil)
      _ = Driver.just(5).drive(optionalRelay)
      #expect(optionalRelay.value == 5)
      let replay = ReplayRelay<Int>.create(bufferSize: 2)
      let optionalReplay = ReplayRelay<Int?>.create(bufferSize: 2)
      _ = Driver.just(6).drive(replay)
      _ = Driver.just(7).drive(optionalReplay)
      var replayed: [Int] = []
      var replayedOptional: [Int?] = []
      _ = replay.subscribe(onNext: { replayed.append($0) })
      _ = optionalReplay.subscribe(onNext: { replayedOptional.append($0) })
      #expect(replayed == [6])
      #expect(replayedOptional == [7])
      let count = Driver.just(8).drive { source in
        var count = 0
        _ = source.subscribe(onNext: { _ in count += 1 })
        return count
      }
      #expect(count == 1)
    }

    @Test("BehaviorRelay.asDriver starts with the current value")
    @MainActor
    func relayAsDriver() async {
      await drainMainQueue()
      let relay = BehaviorRelay(value: 1)
      var values: [Int] = []
      let subscription = relay.asDriver().drive(onNext: { values.append($0) })
      relay.accept(2)
      subscription.dispose()
      relay.accept(3)
      #expect(values == [1, 2])
    }
  }
}

/// A driver and its subscriptions, held across scheduled actions of a main-actor test.
@MainActor
final class MainActorHarness<Element>: Sendable {
  private let driver: Driver<Element>
  private var subscriptions: [String: any Disposable] = [:]

  init(_ driver: Driver<Element>) {
    self.driver = driver
  }

  func drive(_ name: String, _ observer: TestableObserver<Element>) {
    subscriptions[name] = driver.drive(observer)
  }

  func dispose(_ name: String) {
    subscriptions[name]?.dispose()
  }
}
