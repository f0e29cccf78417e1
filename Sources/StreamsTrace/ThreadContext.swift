@_spi(StreamsInternal) import Streams

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the recorder knows about the current thread: the subscriptions being made and the
/// deliveries under way, innermost last; and the queue through which it hands the recorder what
/// it records without taking the recorder's lock.
///
/// Only the thread it belongs to touches it (it lives in a thread-specific slot), so it needs no
/// lock, and its fields opt out of dynamic exclusivity checks.
final class ThreadContext {
  struct Frame {
    enum Kind: UInt8 {
      /// The node `node` is subscribing to its upstreams.
      case subscribing
      /// A delivery to the node `node` is under way.
      case delivering
      /// Work that a delivery to `node` handed to a scheduler is running, on this thread.
      case hopped
    }

    var kind: Kind
    var node: UInt64
    /// The delivery this frame belongs to: its own id in timeline mode, otherwise the send that
    /// set it off; 0 when none is known.
    var delivery: UInt64
    /// Whether `delivery` reached this frame through a scheduler.
    var viaHop: Bool
  }

  @exclusivity(unchecked) var stack: [Frame] = []
  /// When the outermost frame was pushed: the time of everything under it.
  @exclusivity(unchecked) var time: UInt64 = 0
  /// The queue of the recorder this thread records for, and that recorder's serial number.
  @exclusivity(unchecked) var queue: EventQueue?
  @exclusivity(unchecked) var queueRecorder: UInt64 = 0
  /// Subjects this thread has already made known to the recorder of `queue`, by observable id
  /// (direct-mapped), with their values.
  @exclusivity(unchecked) var knownSubjects: [KnownSubject]
  /// A small number naming the thread, in the order threads were first seen.
  let number: UInt32

  struct KnownSubject {
    /// The observable's id (the cache's key).
    var id: UInt64 = 0
    /// Its canonical node.
    var canonical: UInt64 = 0
    var values: NodeValues?
  }

  static let knownSubjectSlots = 64

  private init(number: UInt32) {
    self.number = number
    knownSubjects = Array(repeating: KnownSubject(), count: Self.knownSubjectSlots)
  }

  deinit {
    queue?.abandon()
  }

  /// Pushes a frame; the first frame on an empty stack sets the time of everything under it.
  @inline(__always)
  func push(
    _ kind: Frame.Kind, node: UInt64, delivery: UInt64, viaHop: Bool = false, fineTime: Bool
  ) {
    if stack.isEmpty { time = fineTime ? Clock.now : Clock.coarse }
    stack.append(Frame(kind: kind, node: node, delivery: delivery, viaHop: viaHop))
  }

  @inline(__always)
  func pop() {
    stack.removeLast()
  }

  /// The node that a subscription made now is made by: the node subscribing, or the receiver of
  /// the delivery under way; 0 when neither.
  var currentSubscriber: UInt64 {
    stack.last?.node ?? 0
  }

  /// The innermost delivery frame (a delivery or a hop), if any.
  @inline(__always)
  var currentDeliveryFrame: Frame? {
    var index = stack.count
    while index > 0 {
      index -= 1
      if stack[index].kind != .subscribing { return stack[index] }
    }
    return nil
  }

  /// The receiver of the innermost delivery under way, if any: the sender of what its code sends.
  var currentReceiver: UInt64? { currentDeliveryFrame?.node }

  /// The delivery the innermost delivery frame belongs to, if any: the cause of what happens now.
  var currentDelivery: UInt64? {
    guard let frame = currentDeliveryFrame, frame.delivery != 0 else { return nil }
    return frame.delivery
  }

  /// How what happens now reached its cause: through a scheduler when a hop lies between it and
  /// the delivery it belongs to.
  var currentHop: TraceGraph.Hop {
    currentDeliveryFrame?.viaHop == true ? .scheduler : .direct
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
