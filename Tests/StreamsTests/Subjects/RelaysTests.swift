import Dispatch
import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {}

/// Test state touched by one thread at a time.
///
/// `@unchecked Sendable`: it is touched from `@Sendable` scheduler actions, which all run on the
/// test's thread, or from a relay's observer, which the relay calls serially (each hand-off between
/// threads goes through the relay's lock), and the test reads it only after a semaphore or
/// `concurrentPerform` has ordered those calls before the read.
private final class Slot<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}

/// Subscribes a recording observer to `source` at `from` and disposes it at `to`.
private func watch<Source: ObservableType & Sendable>(
  _ source: Source, on scheduler: TestScheduler, from: TestTime, to: TestTime
) -> TestableObserver<Source.Element> {
  let observer = scheduler.createObserver(Source.Element.self)
  let subscription = Slot<(any Disposable)?>(nil)
  scheduler.scheduleAt(from) { subscription.value = source.subscribe(observer) }
  scheduler.scheduleAt(to) { subscription.value?.dispose() }
  return observer
}

@Suite("Relays")
struct RelaysTests {
  @Test("PublishRelay forwards accepted elements to current subscribers")
  func publishRelay() {
    let scheduler = TestScheduler(initialClock: 0)
    let relay = PublishRelay<Int>()
    let res1 = watch(relay, on: scheduler, from: 200, to: 400)
    let res2 = watch(relay, on: scheduler, from: 300, to: 1000)
    for (time, element) in [(150, 0), (250, 1), (350, 2), (450, 3)] {
      scheduler.scheduleAt(time) { relay.accept(element) }
    }
    scheduler.start()
    #expect(res1.events == [.next(250, 1), .next(350, 2)])
    #expect(res2.events == [.next(350, 2), .next(450, 3)])
  }

  @Test("BehaviorRelay holds a value and replays it to each subscriber")
  func behaviorRelay() {
    let scheduler = TestScheduler(initialClock: 0)
    let relay = BehaviorRelay(value: 0)
    let res1 = watch(relay, on: scheduler, from: 200, to: 1000)
    scheduler.scheduleAt(250) { relay.accept(1) }
    let res2 = watch(relay, on: scheduler, from: 300, to: 1000)
    let values = Slot<[Int]>([])
    scheduler.scheduleAt(350) { values.value.append(relay.value) }
    scheduler.scheduleAt(400) { values.value.append(relay.update { $0 += 10 }) }
    scheduler.scheduleAt(450) { values.value.append(relay.value) }
    scheduler.start()
    #expect(res1.events == [.next(200, 0), .next(250, 1), .next(400, 11)])
    #expect(res2.events == [.next(300, 1), .next(400, 11)])
    #expect(values.value == [1, 11, 11])
  }

  @Test("BehaviorRelay.update that throws changes nothing and emits nothing")
  func behaviorRelayThrowingUpdate() {
    let relay = BehaviorRelay(value: 5)
    let received = Slot<[Int]>([])
    _ = relay.subscribe(onNext: { received.value.append($0) })
    #expect(throws: TestError.self) {
      try relay.update { value in
        value = 99
        throw TestError()
      }
    }
    #expect(relay.value == 5)
    #expect(received.value == [5])
  }

  @Test(
    "BehaviorRelay.update runs transform outside the lock; a value accepted meanwhile reruns it")
  func behaviorRelayUpdateReentrant() {
    let relay = BehaviorRelay(value: 0)
    let received = Slot<[Int]>([])
    _ = relay.subscribe(onNext: { received.value.append($0) })
    let runs = Slot(0)
    let result = Slot<Int?>(nil)
    let done = DispatchSemaphore(value: 0)
    // On another thread, so that a transform run under the relay's (non-recursive) lock shows up
    // as a hang reported below instead of hanging the test run.
    DispatchQueue.global().async {
      result.value = relay.update { value in
        runs.value += 1
        // Touches the relay from inside `transform`: reads it, and on the first run changes it
        // as a concurrent `accept` would.
        if runs.value == 1 { relay.accept(relay.value + 10) }
        value += 1
      }
      done.signal()
    }
    #expect(done.wait(timeout: .now() + .seconds(10)) == .success, "update deadlocked")
    #expect(runs.value == 2)
    #expect(result.value == 11)
    #expect(relay.value == 11)
    #expect(received.value == [0, 10, 11])
  }

  @Test("BehaviorRelay.update is an atomic read-modify-write across threads")
  func behaviorRelayAtomicUpdate() {
    let relay = BehaviorRelay(value: 0)
    let received = Slot<[Int]>([])
    _ = relay.subscribe(onNext: { received.value.append($0) })
    let threads = 4
    let perThread = 2_000
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      for _ in 0..<perThread { relay.update { $0 += 1 } }
    }
    #expect(relay.value == threads * perThread)
    // Deliveries are serialized in acceptance order: every intermediate value exactly once.
    #expect(received.value == Array(0...(threads * perThread)))
  }

  @Test("ReplayRelay replays its buffer; createUnbound replays everything")
  func replayRelay() {
    let scheduler = TestScheduler(initialClock: 0)
    let bounded = ReplayRelay<Int>.create(bufferSize: 2)
    let unbounded = ReplayRelay<Int>.createUnbound()
    for element in 1...4 {
      scheduler.scheduleAt(100 + element) {
        bounded.accept(element)
        unbounded.accept(element)
      }
    }
    let res1 = watch(bounded, on: scheduler, from: 200, to: 1000)
    let res2 = watch(unbounded, on: scheduler, from: 200, to: 1000)
    scheduler.scheduleAt(300) { bounded.accept(5) }
    scheduler.start()
    #expect(res1.events == [.next(200, 3), .next(200, 4), .next(300, 5)])
    #expect(res2.events == [.next(200, 1), .next(200, 2), .next(200, 3), .next(200, 4)])
  }

  @Test("bind(to:) forwards elements to relays and ignores completion")
  func bind() {
    let subject = PublishSubject<Int>()
    let publish = PublishRelay<Int>()
    let behavior = BehaviorRelay<Int?>(value: nil)
    let received = Slot<[Event<Int>]>([])
    _ = publish.subscribe { received.value.append($0) }
    _ = subject.bind(to: publish)
    _ = subject.bind(to: behavior)
    subject.onNext(1)
    subject.onNext(2)
    subject.onCompleted()
    #expect(received.value == [.next(1), .next(2)])
    #expect(behavior.value == 2)
  }

  @Test("an error bound to a relay stops the program")
  func bindError() async {
    await #expect(processExitsWith: .failure) {
      let subject = PublishSubject<Int>()
      _ = subject.bind(to: PublishRelay<Int>())
      subject.onError(TestError())
    }
  }
}
