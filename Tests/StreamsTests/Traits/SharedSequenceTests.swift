import Dispatch
import Streams
import StreamsTest
import Testing

/// The suites of `Driver`, `Signal` and their operators run one test at a time: the main-thread
/// hop delivers synchronously only while no other hop is queued, process-wide (as RxSwift's
/// `MainScheduler` does), so tests that check synchronous delivery must not overlap.
@Suite("Main-thread delivery", .serialized, .mainSchedulerExclusive)
enum MainThreadDeliveryTests {}

extension MainThreadDeliveryTests {
  @Suite("SharedSequence")
  struct SharedSequenceTests {
    @Test("a subscription made off the main thread receives events on the main thread")
    @MainActor
    func offMainSubscription() async {
      let log = TraitLog()
      let subject = PublishSubject<Int>()
      let subscription = await Task.detached { @Sendable in
        subject.asSignal(onErrorJustReturn: 0).asObservable().subscribe(onNext: { value in
          dispatchPrecondition(condition: .onQueue(.main))
          log.append("\(value)")
        })
      }.value
      // Made off the main thread, the subscription itself is made on the main queue.
      await drainMainQueue()
      #expect(subject.hasObservers)
      await Task.detached { @Sendable in subject.onNext(1) }.value
      await drainMainQueue()
      #expect(log.entries == ["1"])
      subscription.dispose()
      #expect(!subject.hasObservers)
    }

    @Test("a subscription made off the main thread receives a Driver's replay on the main thread")
    @MainActor
    func offMainReplay() async {
      await drainMainQueue()
      let subject = PublishSubject<Int>()
      let driver = subject.asDriver(onErrorJustReturn: 0)
      var received: [Int] = []
      let first = driver.drive(onNext: { received.append($0) })
      subject.onNext(1)
      let log = TraitLog()
      let shared = SharedObservable(observable: driver.asObservable())
      // The main thread waits in `sync`, so nothing queued on the main queue runs meanwhile.
      let second = DispatchQueue.global().sync {
        let subscription = shared.observable.subscribe(onNext: { value in
          log.append("\(value), on main: \(BridgeMainQueue.isCurrent)")
        })
        log.append("subscribed")
        return subscription
      }
      #expect(log.entries == ["subscribed"])
      await drainMainQueue()
      #expect(log.entries == ["subscribed", "1, on main: true"])
      subject.onNext(2)
      #expect(received == [1, 2])
      #expect(log.entries == ["subscribed", "1, on main: true", "2, on main: true"])
      first.dispose()
      second.dispose()
      #expect(!subject.hasObservers)
    }

    @Test("an event queued for the main thread is dropped after disposal")
    @MainActor
    func queuedEventDropped() async {
      let subject = PublishSubject<Int>()
      var values: [Int] = []
      let subscription = subject.asDriver(onErrorJustReturn: 0).drive(onNext: { values.append($0) })
      DispatchQueue.global().sync { subject.onNext(1) }
      subscription.dispose()
      await drainMainQueue()
      #expect(values == [])
    }

    @Test("the last subscriber leaving disconnects the source")
    @MainActor
    func disconnect() async {
      await drainMainQueue()
      let subject = BehaviorSubject(value: 1)
      let driver = subject.asDriver(onErrorJustReturn: 0).map { $0 + 1 }
      var values: [Int] = []
      let first = driver.drive(onNext: { values.append($0) })
      let second = driver.drive(onNext: { values.append($0) })
      subject.onNext(2)
      first.dispose()
      #expect(subject.hasObservers)
      second.dispose()
      #expect(!subject.hasObservers)
      #expect(values == [2, 2, 3, 3])
    }
  }
}

extension MainThreadDeliveryTests {
  @Suite("SharedSequence stress")
  struct SharedSequenceStressTests {
    @Test("threads subscribing, disposing and emitting at once")
    func concurrentSubscribers() async {
      let subject = PublishSubject<Int>()
      let driver = subject.asDriver(onErrorJustReturn: 0)
      let shared = SharedObservable(observable: driver.asObservable())
      let log = TraitLog()
      let offMain = TraitLog()
      await Task.detached { @Sendable in
        DispatchQueue.concurrentPerform(iterations: 8) { index in
          for round in 0..<200 {
            if index == 0 {
              subject.onNext(round)
            } else {
              let subscription = shared.observable.subscribe(onNext: { value in
                if !BridgeMainQueue.isCurrent { offMain.append("\(value)") }
              })
              subscription.dispose()
            }
          }
        }
        log.append("done")
      }.value
      await drainMainQueue()
      #expect(log.entries == ["done"])
      // Every element, replayed or live, reached the subscribers on the main thread.
      #expect(offMain.entries == [])
      #expect(!subject.hasObservers)
    }
  }
}

/// Hands a shared sequence's observable to several threads.
///
/// `@unchecked Sendable`: `Observable` is not `Sendable` because operator closures need not be;
/// the shared node used here guards its state with a lock and its closures capture only
/// `Sendable` values.
private struct SharedObservable: @unchecked Sendable {
  let observable: Observable<Int>
}
