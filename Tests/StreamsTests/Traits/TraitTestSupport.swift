import Dispatch
import Streams
import StreamsTest

/// An error the trait tests send and expect.
struct TraitError: Error, Equatable {
  let code: Int

  init(_ code: Int = 0) {
    self.code = code
  }
}

/// A log that closures from any thread can append to.
final class TraitLog: @unchecked Sendable {
  // `@unchecked Sendable`: `storage` is only touched on the serial `queue`.
  private var storage: [String] = []
  private let queue = DispatchQueue(label: "TraitLog")

  var entries: [String] { queue.sync { storage } }

  func append(_ entry: String) { queue.sync { storage.append(entry) } }
}

/// Waits until everything queued on the main queue before this call has run.
func drainMainQueue() async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    DispatchQueue.main.async { continuation.resume() }
  }
}
