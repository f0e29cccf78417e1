import Streams
import StreamsTest
import XCTest

/// RxTest-style tests: these compile unchanged from `import RxTest` apart from the import.
final class XCTestHelpersTests: XCTestCase {
  func testRecordedEventsOverload() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(220, 3), .completed(230),
    ])
    let res = scheduler.start { xs.map { $0 * 10 } }
    XCTAssertEqual(res.events, [.next(210, 20), .next(220, 30), .completed(230)])
    XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
  }

  func testEventsOverload() {
    let events: [Event<Int>] = [.next(1), .error(TestFailure.boom)]
    XCTAssertEqual(events, [.next(1), .error(TestFailure.boom)])
  }

  func testComparatorOverload() {
    let actual: [Recorded<Event<Point>>] = [.next(210, Point(x: 1)), .completed(220)]
    XCTAssertEqual(actual, [.next(210, Point(x: 1)), .completed(220)], by: { $0.x == $1.x })
  }

  func testRecordedElements() {
    let scheduler = TestScheduler(initialClock: 0)
    let observer = scheduler.createObserver(String.self)
    let subject = PublishSubject<String>()
    scheduler.scheduleAt(100) { _ = subject.subscribe(observer) }
    scheduler.scheduleAt(110) { subject.onNext("a") }
    scheduler.scheduleAt(150) { subject.onNext("b") }
    scheduler.start()
    XCTAssertRecordedElements(observer.events, ["a", "b"])
  }

  func testNoLeaks() {
    // XCTest runs one test at a time, but Swift Testing suites in the same process may not.
    var attempts = 0
    var leaked = 1
    while leaked != 0, attempts < 50 {
      attempts += 1
      leaked =
        LeakCheck.measure {
          let bag = DisposeBag()
          PublishSubject<Int>().subscribe(onNext: { _ in }).disposed(by: bag)
        }.leaked
    }
    XCTAssertEqual(leaked, 0)
  }

  func testSingleEventsOverload() {
    var events: [SingleEvent<Int>] = []
    _ = Single.just(1).subscribe { events.append($0) }
    _ = Single<Int>.error(TestFailure.boom).subscribe { events.append($0) }
    XCTAssertEqual(events, [.success(1), .failure(TestFailure.boom)])
  }

  func testMaybeEventsOverload() {
    var events: [MaybeEvent<Int>] = []
    _ = Maybe.just(1).subscribe { events.append($0) }
    _ = Maybe<Int>.empty().subscribe { events.append($0) }
    XCTAssertEqual(events, [.success(1), .completed])
  }

  func testCompletableEventsOverload() {
    var events: [CompletableEvent] = []
    _ = Completable.empty().subscribe { events.append($0) }
    _ = Completable.error(TestFailure.boom).subscribe { events.append($0) }
    XCTAssertEqual(events, [.completed, .error(TestFailure.boom)])
  }
}
