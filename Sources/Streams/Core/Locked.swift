import StreamsShims

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

#if canImport(Darwin)
  @usableFromInline typealias LockPrimitive = os_unfair_lock
#else
  @usableFromInline typealias LockPrimitive = pthread_mutex_t
#endif

/// One allocation holding a value of `State`, the lock that guards it and an atomic word.
///
/// The tail of the buffer is a run of words: word 0 is the atomic side word, the words after it
/// hold the lock. The lock is `pthread_mutex_t` on Linux (ThreadSanitizer understands it) and
/// `os_unfair_lock` on Apple platforms. It is never recursive: code must not call user code, an
/// observer, `dispose()` or a scheduler while holding it, nor release a value there (a `deinit`
/// is user code). A re-entered lock stops the program with a message naming the guarded state in
/// debug builds (an error-checking mutex on Linux; `os_unfair_lock` traps by itself).
@usableFromInline
final class LockStorage<State>: ManagedBuffer<State, Int> {
  /// Words needed after the side word to hold the lock.
  @inlinable
  static var lockWords: Int {
    (MemoryLayout<LockPrimitive>.size + MemoryLayout<Int>.stride - 1) / MemoryLayout<Int>.stride
  }

  @inlinable
  static func make(_ state: State) -> LockStorage<State> {
    let buffer = Self.create(minimumCapacity: 1 + lockWords) { _ in state }
    let storage = unsafeDowncast(buffer, to: LockStorage<State>.self)
    storage.withUnsafeMutablePointerToElements { words in
      words.initialize(to: 0)
      let raw = UnsafeMutableRawPointer(words + 1)
      let primitive = raw.bindMemory(to: LockPrimitive.self, capacity: 1)
      #if canImport(Darwin)
        primitive.initialize(to: os_unfair_lock())
      #else
        primitive.initialize(to: pthread_mutex_t())
        #if DEBUG
          // Error-checking in debug builds: a re-entered lock reports EDEADLK (`lock()` stops
          // with a message) instead of hanging silently.
          var attributes = pthread_mutexattr_t()
          pthread_mutexattr_init(&attributes)
          pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
          let result = pthread_mutex_init(primitive, &attributes)
          pthread_mutexattr_destroy(&attributes)
        #else
          let result = pthread_mutex_init(primitive, nil)
        #endif
        precondition(result == 0, "Streams: pthread_mutex_init failed with \(result)")
      #endif
    }
    return storage
  }

  @inlinable
  deinit {
    withUnsafeMutablePointerToElements { words in
      let primitive = Self.primitive(words)
      #if !canImport(Darwin)
        pthread_mutex_destroy(primitive)
      #endif
      primitive.deinitialize(count: 1)
    }
  }

  @inlinable
  static func primitive(_ words: UnsafeMutablePointer<Int>) -> UnsafeMutablePointer<LockPrimitive> {
    UnsafeMutableRawPointer(words + 1).assumingMemoryBound(to: LockPrimitive.self)
  }

  @inlinable
  func lock() {
    withUnsafeMutablePointerToElements { words in
      #if canImport(Darwin)
        os_unfair_lock_lock(Self.primitive(words))
      #else
        let result = pthread_mutex_lock(Self.primitive(words))
        if result != 0 { Self.lockFailed(result) }
      #endif
    }
  }

  /// Stops the program for a failed `pthread_mutex_lock`: in debug builds a re-entered lock
  /// (`EDEADLK`), which in release builds would hang. The message names the state the lock
  /// guards, which names its owner (`SubjectCore<Int>.State`, ...).
  @usableFromInline
  static func lockFailed(_ result: Int32) -> Never {
    #if !canImport(Darwin)
      if result == EDEADLK {
        preconditionFailure(
          "Streams: the lock guarding \(State.self) was re-entered on the thread that holds it: "
            + "code running under the lock (a deinit of a value released there, or a callback) "
            + "called back into its owner. In a release build this would hang.")
      }
    #endif
    preconditionFailure("Streams: pthread_mutex_lock failed with \(result)")
  }

  @inlinable
  func unlock() {
    withUnsafeMutablePointerToElements { words in
      #if canImport(Darwin)
        os_unfair_lock_unlock(Self.primitive(words))
      #else
        let result = pthread_mutex_unlock(Self.primitive(words))
        precondition(result == 0, "Streams: pthread_mutex_unlock failed with \(result)")
      #endif
    }
  }
}

/// A value guarded by its own lock: the one lock type of every Streams module (`package`, so that
/// it never appears in an app's namespace).
@usableFromInline
package struct Locked<State> {
  @usableFromInline let storage: LockStorage<State>

  @inlinable
  package init(_ state: State) {
    storage = LockStorage.make(state)
  }

  /// Runs `body` with exclusive access to the state. `body` must not call out to user code.
  @inlinable
  package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    storage.lock()
    defer { storage.unlock() }
    return try storage.withUnsafeMutablePointerToHeader { try body(&$0.pointee) }
  }

  /// Atomically loads the side word.
  @inlinable
  package func loadWord() -> Int {
    storage.withUnsafeMutablePointerToElements { streams_atomic_load($0) }
  }

  /// Atomically stores `value` into the side word.
  @inlinable
  package func storeWord(_ value: Int) {
    storage.withUnsafeMutablePointerToElements {
      streams_atomic_store($0, value)
    }
  }

  /// Atomically ORs `bits` into the side word and returns the previous value.
  @inlinable
  package func fetchOrWord(_ bits: Int) -> Int {
    storage.withUnsafeMutablePointerToElements {
      streams_atomic_fetch_or($0, bits)
    }
  }

  /// Atomically sets the word to `desired` if it is `expected`; returns whether it did.
  @inlinable
  package func compareExchangeWord(expected: Int, desired: Int) -> Bool {
    storage.withUnsafeMutablePointerToElements {
      streams_atomic_compare_exchange($0, expected, desired)
    }
  }

  /// Atomically adds `delta` to the side word and returns the previous value.
  @inlinable
  package func fetchAddWord(_ delta: Int) -> Int {
    storage.withUnsafeMutablePointerToElements {
      streams_atomic_fetch_add($0, delta)
    }
  }
}

/// `@unchecked Sendable` when `State` is: every access to the stored `State` goes through
/// ``Locked/withLock(_:)``, which holds the lock for the duration of the closure; the atomic word
/// is only touched through the sequentially consistent C atomics in `StreamsShims`. A state that is
/// not `Sendable` could leave the lock through `withLock`'s result and be used on two threads, so
/// the lock does not make it `Sendable`; a type that keeps such a state behind its own discipline
/// (a sink whose state holds observers) says so with its own `@unchecked Sendable` and comment.
extension Locked: @unchecked Sendable where State: Sendable {}
