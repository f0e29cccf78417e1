import Streams
import StreamsTest

/// Errors the multi-source operator tests send and expect.
enum MultiTestError: Error, Equatable {
  case first
  case second
  case selector
}

/// Counts how often a closure ran, from any thread.
final class MultiCallCounter: Sendable {
  private let count = Locked(0)

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

/// Records, in order, terminal events and the moments subscriptions are disposed: the disposal
/// order of the multi-source operators.
final class DisposalLog: Sendable {
  private let lines = Locked<[String]>([])

  /// What was recorded so far.
  var entries: [String] { lines.withLock { $0 } }

  /// Records `line`.
  func append(_ line: String) { lines.withLock { $0.append(line) } }

  /// `source`, recording "dispose `name`" when a subscription to it is disposed (at once, unlike
  /// `do(onDispose:)`, which waits for the end of a terminal event it delivers).
  func watch<Source: ObservableType>(_ source: Source, _ name: String) -> Observable<
    Source.Element
  > {
    let observable = source.asObservable()
    return Observable.create { observer in
      let subscription = observable.subscribe(observer)
      return Disposables.create {
        self.append("dispose \(name)")
        subscription.dispose()
      }
    }
  }
}
