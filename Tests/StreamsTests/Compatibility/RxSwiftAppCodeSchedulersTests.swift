// Test code in the shape RxSwift 6 test suites write their own virtual-time schedulers in (a
// converter and a `VirtualTimeScheduler` subclass over it, as RxSwift's own `TestVirtualScheduler`),
// compiled against Streams with the imports changed and the one RxSwift-to-Streams difference
// the migration guide lists for it: the subclass restates `@unchecked Sendable`. Times are
// `Date`s and intervals `Double` seconds (`TimeInterval`), as in RxSwift.

import Foundation
import Streams
import Testing

/// One virtual unit is equal to 10 seconds.
struct TenSecondsVirtualTimeConverter: VirtualTimeConverterType {
  typealias VirtualTimeUnit = Int
  typealias VirtualTimeIntervalUnit = Int

  func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime {
    Date(timeIntervalSince1970: TimeInterval(virtualTime) * 10.0)
  }

  func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit {
    Int(time.timeIntervalSince1970 / 10.0)
  }

  func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit)
    -> TimeInterval
  {
    TimeInterval(virtualTimeInterval * 10)
  }

  func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit {
    Int(timeInterval / 10.0)
  }

  func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit)
    -> VirtualTimeUnit
  {
    time + offset
  }

  func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison {
    if lhs < rhs { return .lessThan }
    if lhs > rhs { return .greaterThan }
    return .equal
  }
}

/// Scheduler that tests virtual scheduler.
final class TenSecondsVirtualScheduler: VirtualTimeScheduler<TenSecondsVirtualTimeConverter>,
  @unchecked Sendable
{
  init(initialClock: Int = 0) {
    super.init(initialClock: initialClock, converter: TenSecondsVirtualTimeConverter())
  }
}

@Suite("RxSwift app code: a VirtualTimeScheduler subclass with its own converter")
struct RxSwiftAppCodeSchedulersTests {
  @Test("initial clock, start, nested scheduling")
  func start() {
    let scheduler = TenSecondsVirtualScheduler(initialClock: 10)
    #expect(scheduler.now == Date(timeIntervalSince1970: 100.0))
    #expect(scheduler.clock == 10)

    let times = BehaviorRelay<[Int]>(value: [])
    _ = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
      times.accept(times.value + [scheduler.clock])
      _ = scheduler.scheduleRelative((), dueTime: .seconds(20)) { _ in
        times.accept(times.value + [scheduler.clock])
        return Disposables.create()
      }
      return scheduler.schedule(()) { _ in
        times.accept(times.value + [scheduler.clock])
        return Disposables.create()
      }
    }
    scheduler.start()
    #expect(times.value == [11, 11, 13])
  }

  @Test("advanceTo, sleep, disposal and stop")
  func advanceSleepDisposeStop() {
    let scheduler = TenSecondsVirtualScheduler()
    let times = BehaviorRelay<[Int]>(value: [])
    _ = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
      times.accept(times.value + [scheduler.clock])
      scheduler.sleep(10)
      let later = scheduler.scheduleRelative((), dueTime: .seconds(20)) { _ in
        times.accept(times.value + [scheduler.clock])
        return Disposables.create()
      }
      _ = scheduler.schedule(()) { _ in
        times.accept(times.value + [scheduler.clock])
        scheduler.stop()
        return Disposables.create()
      }
      _ = scheduler.scheduleRelative((), dueTime: .seconds(30)) { _ in
        times.accept(times.value + [scheduler.clock])
        return Disposables.create()
      }
      later.dispose()
      return Disposables.create()
    }
    scheduler.advanceTo(20)
    #expect(times.value == [1, 11])
    #expect(scheduler.clock == 20)
    scheduler.start()
    // The action due at 14 was scheduled from clock 11; the clock stays at 20.
    #expect(times.value == [1, 11, 20])
  }

  @Test("a view model's debounced search runs on it")
  func debounce() {
    let scheduler = TenSecondsVirtualScheduler()
    let query = PublishSubject<String>()
    let searches = BehaviorRelay<[String]>(value: [])
    let subscription = query.debounce(.seconds(20), scheduler: scheduler)
      .distinctUntilChanged()
      .subscribe(onNext: { text in
        searches.accept(searches.value + ["\(text)@\(scheduler.clock)"])
      })
    for (text, time) in [("r", 1), ("rx", 2), ("rx", 10), ("rxs", 11)] {
      _ = scheduler.scheduleAbsoluteVirtual(text, time: time) { text in
        query.onNext(text)
        return Disposables.create()
      }
    }
    scheduler.start()
    #expect(searches.value == ["rx@4", "rxs@13"])
    subscription.dispose()
  }
}
