import Dispatch

/// A small mutual-exclusion helper for test bookkeeping, built on a serial dispatch queue.
final class TestLock: Sendable {
  private let queue = DispatchQueue(label: "streams.tests.lock")
  func run<T>(_ body: () throws -> T) rethrows -> T { try queue.sync(execute: body) }
}
