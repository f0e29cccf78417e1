import Dispatch
import Observation
import StreamsState
import Testing

/// An object whose release a test watches through a weak reference.
final class Token: Sendable {}

/// An error a test throws and expects.
struct CellError: Error {}

/// A value that is not `Equatable`: a cell of it notifies on every write.
struct Opaque {
  var number: Int
}

/// A content block, as a screen's state holds.
struct Block: Equatable, Sendable {
  var title = ""
  var alpha = 1.0
}

/// What a test records from closures that run on the main actor, `@Sendable` ones included.
@MainActor
final class Recorder<Element> {
  private(set) var elements: [Element] = []

  func append(_ element: Element) {
    elements.append(element)
  }
}

/// Counts a cell's will-change notifications through Observation, tracking the cell again after
/// each one (a `withObservationTracking` fires once), and records the value the cell held when
/// each fired.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
final class WillChangeCounter<Value> {
  private(set) var seen: [Value] = []
  var count: Int { seen.count }

  init(_ cell: StateCell<Value>) {
    track(cell)
  }

  private func track(_ cell: StateCell<Value>) {
    withObservationTracking {
      _ = cell.value
    } onChange: { [weak self, weak cell] in
      MainActor.assumeIsolated {
        guard let self, let cell else { return }
        self.seen.append(cell.value)
        self.track(cell)
      }
    }
  }
}

/// Waits until everything queued on the main queue before this call has run (on Linux the main
/// actor runs there, so a main-actor task enqueued before this call has run too).
func drainMainQueue() async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    DispatchQueue.main.async { continuation.resume() }
  }
}

/// Lets the main queue run until `condition` holds or the test is cancelled (by its time limit).
@MainActor
func drainMainQueue(until condition: () -> Bool) async {
  while !condition() && !Task.isCancelled {
    await drainMainQueue()
  }
}
