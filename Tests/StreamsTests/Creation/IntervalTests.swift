import Streams
import StreamsTest
import Testing

@Suite("interval")
struct IntervalTests {
  @Test("counts up every period, the first element one period after the subscription")
  func counts() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start { Observable<Int>.interval(.seconds(100), scheduler: scheduler) }
    #expect(
      res.events == [
        .next(300, 0), .next(400, 1), .next(500, 2), .next(600, 3), .next(700, 4), .next(800, 5),
        .next(900, 6),
      ])
  }

  @Test("disposal stops the timer")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start(disposed: 650) {
      Observable<Int>.interval(.seconds(100), scheduler: scheduler)
    }
    #expect(res.events == [.next(300, 0), .next(400, 1), .next(500, 2), .next(600, 3)])
  }

  @Test("other integer types count the same way and wrap around")
  func otherIntegerTypes() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start(disposed: 260) {
      Observable<Int64>.interval(.seconds(20), scheduler: scheduler)
    }
    #expect(res.events == [.next(220, 0), .next(240, 1)])

    let scheduler2 = TestScheduler(initialClock: 0)
    let wrapped = scheduler2.start(disposed: 460) {
      Observable<UInt8>.interval(.seconds(1), scheduler: scheduler2)
    }
    let values = wrapped.events.compactMap(\.value.element)
    #expect(values.count == 259)
    #expect(Array(values[254...258]) == [254, 255, 0, 1, 2])
  }
}
