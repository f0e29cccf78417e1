import Streams
import StreamsTest
import Testing

private final class Box {
  let value: Int
  init(_ value: Int) { self.value = value }
}

private func record<Element>(_ source: Observable<Element>) -> [Event<Element>] {
  let events = Locked<[Event<Element>]>([])
  _ = source.subscribe { event in events.withLock { $0.append(event) } }
  return events.withLock { $0 }
}

@Suite("of and from")
struct SequenceTests {
  @Test("of emits its arguments and completes before subscribe returns")
  func ofSynchronous() {
    #expect(record(Observable.of(1, 2, 3)) == [.next(1), .next(2), .next(3), .completed])
    #expect(record(Observable<Int>.of()) == [.completed])
  }

  @Test("from emits an array, a sequence and an optional")
  func fromVariants() {
    #expect(record(Observable.from([1, 2])) == [.next(1), .next(2), .completed])
    #expect(record(Observable.from(1...3)) == [.next(1), .next(2), .next(3), .completed])
    #expect(record(Observable.from(optional: 5)) == [.next(5), .completed])
    #expect(record(Observable.from(optional: Int?.none)) == [.completed])
    #expect(
      record(Observable.from(optional: 5, scheduler: CurrentThreadScheduler.instance)) == [
        .next(5), .completed,
      ])
  }

  @Test("the default path accepts non-Sendable elements")
  func nonSendable() {
    let boxes = [Box(1), Box(2)]
    #expect(
      record(Observable.of(boxes[0], boxes[1]).map(\.value)) == [.next(1), .next(2), .completed])
    #expect(record(Observable.from(boxes).map(\.value)) == [.next(1), .next(2), .completed])
    #expect(
      record(Observable.from(boxes.lazy.map { $0 }).map(\.value)) == [
        .next(1), .next(2), .completed,
      ])
  }

  @Test("on a scheduler: one action per element and one for the completion")
  func scheduled() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start { Observable.of(1, 2, 3, scheduler: scheduler) }
    #expect(res.events == [.next(201, 1), .next(202, 2), .next(203, 3), .completed(204)])

    let scheduler2 = TestScheduler(initialClock: 0)
    let res2 = scheduler2.start { Observable.from([1, 2], scheduler: scheduler2) }
    #expect(res2.events == [.next(201, 1), .next(202, 2), .completed(203)])

    let scheduler3 = TestScheduler(initialClock: 0)
    let res3 = scheduler3.start { Observable.from(1...2, scheduler: scheduler3) }
    #expect(res3.events == [.next(201, 1), .next(202, 2), .completed(203)])

    let scheduler4 = TestScheduler(initialClock: 0)
    let res4 = scheduler4.start { Observable.from(optional: 9, scheduler: scheduler4) }
    #expect(res4.events == [.next(201, 9), .completed(202)])
  }

  @Test("on a scheduler: disposal cancels the remaining elements")
  func scheduledDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start(disposed: 202) { Observable.of(1, 2, 3, scheduler: scheduler) }
    #expect(res.events == [.next(201, 1)])
  }

  @Test("disposal downstream stops an infinite sequence between two elements")
  func infiniteStopped() {
    let pulled = Locked(0)
    let naturals = (1...).lazy.map { value -> Int in
      pulled.withLock { $0 += 1 }
      return value
    }
    #expect(
      record(Observable.from(naturals).take(3)) == [.next(1), .next(2), .next(3), .completed])
    #expect(pulled.withLock { $0 } == 3)
  }

  @Test("a long sequence does not grow the stack")
  func long() {
    let count = Locked(0)
    _ = Observable.from(0..<300_000).subscribe(onNext: { _ in count.withLock { $0 += 1 } })
    #expect(count.withLock { $0 } == 300_000)
  }

  @Test("nested sequences interleave on the trampoline as in RxSwift")
  func trampolineInterleaving() {
    let log = Locked<[String]>([])
    _ = Observable.of(1, 2).subscribe(
      onNext: { outer in
        log.withLock { $0.append("o\(outer)") }
        _ = Observable.of(10, 20).subscribe(
          onNext: { inner in log.withLock { $0.append("i\(outer):\(inner)") } },
          onCompleted: { log.withLock { $0.append("i\(outer)|") } })
      },
      onCompleted: { log.withLock { $0.append("o|") } })
    #expect(
      log.withLock { $0 } == [
        "o1", "i1:10", "o2", "i1:20", "i2:10", "o|", "i1|", "i2:20", "i2|",
      ])
  }

  @Test("every subscription iterates again")
  func resubscribe() {
    let source = Observable.from([1, 2])
    #expect(record(source) == record(source))
  }
}
