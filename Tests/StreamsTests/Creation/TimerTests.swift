import Streams
import StreamsTest
import Testing

@Suite("timer")
struct TimerTests {
  @Test("without a period: one element after the due time, then completion")
  func oneShot() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start { Observable<Int>.timer(.seconds(100), scheduler: scheduler) }
    #expect(res.events == [.next(300, 0), .completed(300)])
  }

  @Test("a zero due time fires on the next tick")
  func zero() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start { Observable<Int>.timer(.seconds(0), scheduler: scheduler) }
    #expect(res.events == [.next(201, 0), .completed(201)])
  }

  @Test("with a period: counts up every period after the first element")
  func periodic() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start {
      Observable<Int>.timer(.seconds(50), period: .seconds(200), scheduler: scheduler)
    }
    #expect(res.events == [.next(250, 0), .next(450, 1), .next(650, 2), .next(850, 3)])
  }

  @Test("disposal before the due time cancels it")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start(disposed: 250) {
      Observable<Int>.timer(.seconds(100), scheduler: scheduler)
    }
    #expect(res.events == [])

    let scheduler2 = TestScheduler(initialClock: 0)
    let periodic = scheduler2.start(disposed: 500) {
      Observable<Int>.timer(.seconds(50), period: .seconds(200), scheduler: scheduler2)
    }
    #expect(periodic.events == [.next(250, 0), .next(450, 1)])
  }
}
