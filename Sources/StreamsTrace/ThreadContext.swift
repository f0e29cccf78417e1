@_spi(StreamsInternal) import Streams

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the recorder knows about the current thread: the subscriptions being made and the
/// deliveries under way, innermost last.
///
/// Only the thread it belongs to touches it (it lives in a thread-specific slot), so it needs no
/// lock.
final class ThreadContext {
  enum Frame {
    /// The node is subscribing to its upstreams.
    case subscribing(UInt64)
    /// A delivery to the node `to` is under way.
    case delivering(delivery: UInt64, to: UInt64)
    /// Work that a delivery to `to` handed to a scheduler is running, on this thread.
    case hopped(delivery: UInt64, to: UInt64)
  }

  var stack: [Frame] = []
  /// A small number naming the thread, in the order threads were first seen.
  let number: UInt32

  private init(number: UInt32) {
    self.number = number
  }

  /// The node that a subscription made now is made by: the node subscribing, or the receiver of
  /// the delivery under way; 0 when neither.
  var currentSubscriber: UInt64 {
    switch stack.last {
    case .subscribing(let node)?: node
    case .delivering(_, let to)?, .hopped(_, let to)?: to
    case nil: 0
    }
  }

  /// The receiver of the innermost delivery under way, if any: the sender of what its code sends.
  var currentReceiver: UInt64? {
    for frame in stack.reversed() {
      switch frame {
      case .delivering(_, let to), .hopped(_, let to): return to
      case .subscribing: continue
      }
    }
    return nil
  }

  /// The innermost delivery under way, if any: the cause of what happens now.
  var currentDelivery: UInt64? {
    for frame in stack.reversed() {
      switch frame {
      case .delivering(let delivery, _), .hopped(let delivery, _): return delivery
      case .subscribing: continue
      }
    }
    return nil
  }

  /// How what happens now reached its cause: through a scheduler when the innermost delivery
  /// frame is a hop.
  var currentHop: TraceGraph.Hop {
    for frame in stack.reversed() {
      switch frame {
      case .delivering: return .direct
      case .hopped: return .scheduler
      case .subscribing: continue
      }
    }
    return .direct
  }

  /// The calling thread's context, made on first use and released when the thread exits.
  static var current: ThreadContext {
    if let raw = pthread_getspecific(key) {
      return Unmanaged<ThreadContext>.fromOpaque(raw).takeUnretainedValue()
    }
    let context = ThreadContext(number: UInt32(truncatingIfNeeded: threadNumbers.next()))
    pthread_setspecific(key, Unmanaged.passRetained(context).toOpaque())
    return context
  }

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let result = pthread_key_create(&key) { raw in
      #if canImport(Darwin)
        Unmanaged<ThreadContext>.fromOpaque(raw).release()
      #else
        if let raw { Unmanaged<ThreadContext>.fromOpaque(raw).release() }
      #endif
    }
    precondition(result == 0, "StreamsTrace: pthread_key_create failed (\(result))")
    return key
  }()

  private static let threadNumbers = ThreadNumbers()
}

/// Hands out thread numbers.
final class ThreadNumbers: Sendable {
  private let counter = Protected(0)

  func next() -> Int {
    counter.withLock { count in
      count += 1
      return count
    }
  }
}
