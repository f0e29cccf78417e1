@_spi(StreamsInternal) import Streams
import StreamsTest

/// Errors the multi-source operator tests send and expect.
enum MultiTestError: Error, Equatable {
  case first
  case second
  case selector
}

/// Counts how often a closure ran, from any thread.
final class MultiCallCounter: Sendable {
  private let count = Protected(0)

  /// The number of calls so far.
  var value: Int { count.withLock { $0 } }

  /// Records one call.
  func tick() { count.withLock { $0 += 1 } }
}

extension TestScheduler {
  /// A hot observable of observables, for the operators that flatten them.
  func createHotOuter(_ events: [Recorded<Event<TestableObservable<Int>>>])
    -> TestableObservable<Observable<Int>>
  {
    createHotObservable(
      events.map { recorded in
        Recorded(time: recorded.time, value: recorded.value.map { $0.asObservable() })
      })
  }
}
