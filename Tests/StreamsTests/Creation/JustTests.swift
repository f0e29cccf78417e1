import Streams
import StreamsTest
import Testing

/// A class that is deliberately not `Sendable`: the default creation paths must accept it.
private final class Box {
  let value: Int
  init(_ value: Int) { self.value = value }
}

@Suite("just")
struct JustTests {
  @Test("emits the element and completes synchronously")
  func synchronous() {
    let events = Locked<[Event<Int>]>([])
    _ = Observable.just(42).subscribe { event in events.withLock { $0.append(event) } }
    #expect(events.withLock { $0 } == [.next(42), .completed])
  }

  @Test("accepts non-Sendable elements")
  func nonSendable() {
    let values = Locked<[Int]>([])
    _ = Observable.just(Box(1))
      .subscribe(onNext: { box in values.withLock { $0.append(box.value) } })
    _ = Observable.just(Box(2), scheduler: CurrentThreadScheduler.instance)
      .subscribe(onNext: { box in values.withLock { $0.append(box.value) } })
    #expect(values.withLock { $0 } == [1, 2])
  }

  @Test("on a scheduler: element and completion in two actions")
  func scheduled() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start { Observable.just(42, scheduler: scheduler) }
    #expect(res.events == [.next(201, 42), .completed(202)])
  }

  @Test("on a scheduler: disposal before the completion cancels it")
  func scheduledDisposed() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start(disposed: 202) { Observable.just(42, scheduler: scheduler) }
    #expect(res.events == [.next(201, 42)])
  }

  @Test("on the trampoline: completion waits for work queued meanwhile")
  func trampolined() {
    let log = Locked<[String]>([])
    _ = Observable.just(1, scheduler: CurrentThreadScheduler.instance).subscribe { event in
      log.withLock { $0.append("\(event)") }
      if case .next = event {
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
          log.withLock { $0.append("queued") }
          return Disposables.create()
        }
      }
    }
    #expect(log.withLock { $0 } == ["next(1)", "queued", "completed"])
  }
}
