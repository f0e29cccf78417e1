import StreamsShims

/// An integer in its own allocation, changed only with atomic operations: the one counter of the
/// Streams modules (live-object counts, trace ids, trace serials, thread numbers).
///
/// It holds no lock: the word is read and changed with the C atomics of `StreamsShims`, which
/// ThreadSanitizer sees. `package`, so that the other Streams modules share it without it ever
/// appearing in an app's namespace.
///
/// `@unchecked Sendable`: the word is only touched through atomic operations.
@usableFromInline
package final class AtomicCounter: @unchecked Sendable {
  @usableFromInline let word: UnsafeMutablePointer<Int>

  /// A counter starting at 0.
  @inlinable
  package init() {
    word = .allocate(capacity: 1)
    word.initialize(to: 0)
  }

  deinit {
    word.deallocate()
  }

  /// The current value.
  @inlinable
  package var value: Int { streams_atomic_load(word) }

  /// Adds one and returns the new value.
  @inlinable
  @discardableResult
  package func increment() -> Int { streams_atomic_fetch_add(word, 1) &+ 1 }

  /// Sets the value (a counter used as a flag).
  @inlinable
  package func store(_ value: Int) { streams_atomic_store(word, value) }

  /// Subtracts one and returns the new value.
  @inlinable
  @discardableResult
  package func decrement() -> Int { streams_atomic_fetch_add(word, -1) &- 1 }
}
