import Dispatch
import Streams
import StreamsTest
import Testing

private struct ControlError: Error {}

extension MainThreadDeliveryTests {
  @Suite("ControlEvent")
  struct ControlEventTests {
    @Test("forwards the events, subscribed on the main thread at once")
    @MainActor
    func forwards() async {
      await drainMainQueue()
      let scheduler = TestScheduler(initialClock: 0)
      let xs = scheduler.createHotObservable([
        .next(150, 0), .next(210, 1), .next(220, 2), .completed(250),
      ])
      let res = scheduler.start { ControlEvent(events: xs) }
      #expect(res.events == [.next(210, 1), .next(220, 2), .completed(250)])
      #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test("disposal mid-stream disposes the events' subscription")
    @MainActor
    func disposal() async {
      await drainMainQueue()
      let scheduler = TestScheduler(initialClock: 0)
      let xs = scheduler.createColdObservable([.next(10, "a"), .next(30, "b")])
      let res = scheduler.start(disposed: 220) { ControlEvent(events: xs).asControlEvent() }
      #expect(res.events == [.next(210, "a")])
      #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test("a subscription made off the main thread is made on the main queue")
    @MainActor
    func offMain() async {
      await drainMainQueue()
      let subject = PublishSubject<Int>()
      let event = ControlEvent(events: subject)
      let log = TraitLog()
      let subscription = DispatchQueue.global().sync {
        event.subscribe(onNext: { log.append("\($0)") })
      }
      #expect(!subject.hasObservers)
      await drainMainQueue()
      #expect(subject.hasObservers)
      subject.onNext(1)
      #expect(log.entries == ["1"])
      subscription.dispose()
      #expect(!subject.hasObservers)
    }

    @Test("asDriver and asSignal deliver on the sharing scheduler")
    @MainActor
    func traits() async {
      await drainMainQueue()
      let scheduler = TestScheduler(initialClock: 0)
      SharingScheduler.mock(scheduler: scheduler) {
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let event = ControlEvent(events: xs)
        let driven = scheduler.createObserver(Int.self)
        let emitted = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        event.asDriver().drive(driven).disposed(by: bag)
        event.asSignal().emit(to: emitted).disposed(by: bag)
        scheduler.start()
        #expect(driven.events == [.next(211, 1), .completed(231)])
        #expect(emitted.events == [.next(211, 1), .completed(231)])
      }
    }

    @Test("a subscription that ends lets go of the observer")
    @MainActor
    func lifetime() async {
      await drainMainQueue()
      final class Token { var count = 0 }
      for completes in [false, true] {
        let subject = PublishSubject<Int>()
        weak var weakToken: Token?
        var kept: (any Disposable)?
        do {
          let token = Token()
          weakToken = token
          kept = ControlEvent(events: subject).subscribe(onNext: { _ in token.count += 1 })
          subject.onNext(1)
          #expect(token.count == 1)
        }
        if completes { subject.onCompleted() } else { kept?.dispose() }
        #expect(weakToken == nil)
        withExtendedLifetime(kept) {}
      }
    }

    @Test("asDriver on a failing ControlEvent stops the program with a message")
    func failingTraps() async {
      let result = await #expect(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        await MainActor.run {
          let scheduler = TestScheduler(initialClock: 0)
          SharingScheduler.mock(scheduler: scheduler) {
            let event = ControlEvent(events: Observable<Int>.error(ControlError()))
            _ = event.asDriver().asObservable().subscribe()
            scheduler.start()
          }
        }
      }
      let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(output.contains("a ControlEvent failed"), "stderr: \(output)")
    }
  }
}
