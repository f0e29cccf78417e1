import Dispatch
import Foundation
import Streams
import StreamsTest
import XCTest

/// Blocking on the main thread, as an XCTest method does on iOS: the wait runs the main run loop,
/// so work the sequence sends to the main queue runs meanwhile (RxBlocking's behaviour).
final class BlockingMainThreadTests: XCTestCase {
  override func setUp() {
    super.setUp()
    XCTAssertTrue(Thread.isMainThread, "XCTest runs its test methods on the main thread")
  }

  /// The most common view-model test: a `Driver` whose element comes from a background queue
  /// and is delivered on the main scheduler.
  func testDriverFedFromABackgroundQueue() throws {
    let title = Observable.just("Ada")
      .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default))
      .asDriver(onErrorJustReturn: "")
    XCTAssertEqual(try title.toBlocking(timeout: 10).first(), "Ada")
  }

  /// RxSwift's `testDelay_TimeSpan_DefaultScheduler`: a delay on the main scheduler.
  func testDelayOnTheMainScheduler() throws {
    let delayed = Observable.of(1, 2).delay(.milliseconds(5), scheduler: MainScheduler.instance)
    XCTAssertEqual(try delayed.toBlocking(timeout: 10).toArray(), [1, 2])
  }

  /// Work sent with `DispatchQueue.main.async` and to the main actor.
  func testMainQueueAndMainActorWork() throws {
    let fromMainQueue = Single<Int>.create { single in
      DispatchQueue.global().async { DispatchQueue.main.async { single(.success(1)) } }
      return Disposables.create()
    }
    XCTAssertEqual(try fromMainQueue.toBlocking(timeout: 10).single(), 1)
    let fromMainActor = Single<Int>.create { single in
      Task { @MainActor in single(.success(2)) }
      return Disposables.create()
    }
    XCTAssertEqual(try fromMainActor.toBlocking(timeout: 10).single(), 2)
  }

  /// The timeout still applies while the run loop runs; the main queue was not blocked.
  func testTimeoutWhileRunningTheRunLoop() {
    XCTAssertThrowsError(try Observable<Int>.never().toBlocking(timeout: 0.05).first()) { error in
      XCTAssertEqual(
        error as? BlockingTimeoutError,
        BlockingTimeoutError(timeout: 0.05, blockedMainQueue: false))
    }
  }
}
