import Streams
import StreamsShims

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the recorder knows about the current thread: the subscriptions being made and the
/// deliveries under way, innermost last; and the queue through which it hands the recorder what
/// it records without taking the recorder's lock.
///
/// A handle on memory that only the thread it belongs to touches (it lives in a thread-specific
/// slot until the thread exits), so it needs no lock and no reference counting.
struct ThreadContext {
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
    /// How `delivery` reached this frame: directly, through a scheduler or into a task.
    var via: Via
  }

  /// How a delivery reached its cause (``TraceGraph/Hop``) and, after a hop, where the work went:
  /// the number of its label in ``HopLabels`` (0 for none).
  struct Via: Equatable {
    var hop: TraceGraph.Hop
    var label: UInt16

    static let direct = Via(hop: .direct, label: 0)
  }

  /// A subject this thread has already made known to a recorder.
  struct KnownSubject {
    /// The observable's id (the cache's key).
    var id: UInt64 = 0
    /// Its canonical node.
    var canonical: UInt64 = 0
    /// Where its values go; the recorder's state holds them for the recorder's lifetime.
    var values: Unmanaged<NodeValues>?
  }

  struct State {
    /// The frames, innermost last: `streams_trace_depth` of them (a C thread-local variable, so
    /// that the core pops a delivery's frame inline) in `frames`, which holds `capacity`.
    var frames: UnsafeMutablePointer<Frame>
    var capacity: Int
    /// When the outermost frame was pushed: the time of everything under it.
    var time: UInt64 = 0
    /// This thread's queues to the recorders it records for, the one used last first: a
    /// subscription made under an earlier recorder keeps reporting to it while a new one records
    /// the sends, so a thread may feed two or three at once.
    var attachments: [Attachment] = []
    /// The first attachment's recorder and queue, read on every event without touching the array.
    var currentRecorder: UInt64 = 0
    var currentQueue: Unmanaged<EventQueue>?
    /// The first attachment's subjects; the others' are kept in their attachments.
    var knownSubjects = [KnownSubject](repeating: KnownSubject(), count: knownSubjectSlots)
    /// A small number naming the thread, in the order threads were first seen.
    let number: UInt32

    init(number: UInt32) {
      self.number = number
      capacity = 16
      frames = .allocate(capacity: capacity)
    }

    /// Frees the frames' memory (they are plain data).
    func freeFrames() {
      frames.deallocate()
    }
  }

  /// A thread's link to one recorder.
  struct Attachment {
    /// The recorder's serial number.
    var recorder: UInt64
    var queue: EventQueue
    /// `queue`, for use without reference counting (`queue` holds it).
    var queueRef: Unmanaged<EventQueue>
    /// Subjects made known to the recorder, by observable id (direct-mapped).
    var knownSubjects = [KnownSubject](repeating: KnownSubject(), count: knownSubjectSlots)
  }

  /// How many recorders a thread keeps a queue to; the one used longest ago is let go.
  static var maximumAttachments: Int { 4 }

  static var knownSubjectSlots: Int { 64 }

  let state: UnsafeMutablePointer<State>

  /// How many frames are on the stack.
  var depth: Int { streams_trace_depth_get() }
  /// The innermost frame, if any.
  var top: Frame? {
    let depth = streams_trace_depth_get()
    return depth == 0 ? nil : state.pointee.frames[depth - 1]
  }
  var time: UInt64 { state.pointee.time }
  var number: UInt32 { state.pointee.number }

  /// Pushes a frame; the first frame on an empty stack sets the time of everything under it.
  @inline(__always)
  func push(
    _ kind: Frame.Kind, node: UInt64, delivery: UInt64, via: Via = .direct,
    fineTime: Bool
  ) {
    let depth = streams_trace_depth_get()
    if _slowPath(depth == 0 || depth >= state.pointee.capacity) {
      return pushFirstOrGrowing(kind, node: node, delivery: delivery, via: via, fineTime: fineTime)
    }
    state.pointee.frames[depth] = Frame(kind: kind, node: node, delivery: delivery, via: via)
    streams_trace_depth_set(depth &+ 1)  // below `capacity`, so no overflow
  }

  /// ``push(_:node:delivery:via:fineTime:)`` on an empty stack (which reads the clock) or a full
  /// one (which grows it), out of line.
  @inline(never)
  private func pushFirstOrGrowing(
    _ kind: Frame.Kind, node: UInt64, delivery: UInt64, via: Via, fineTime: Bool
  ) {
    let depth = streams_trace_depth_get()
    if depth == 0 {
      state.pointee.time = fineTime ? MonotonicClock.now : MonotonicClock.coarse
    } else {
      grow()
    }
    state.pointee.frames[depth] = Frame(kind: kind, node: node, delivery: delivery, via: via)
    streams_trace_depth_set(depth &+ 1)
  }

  private func grow() {
    let capacity = state.pointee.capacity * 2
    let frames = UnsafeMutablePointer<Frame>.allocate(capacity: capacity)
    frames.moveInitialize(from: state.pointee.frames, count: streams_trace_depth_get())
    state.pointee.frames.deallocate()
    state.pointee.frames = frames
    state.pointee.capacity = capacity
  }

  @inline(__always)
  func pop() {
    if streams_trace_depth_get() <= 0 {
      fatalError("StreamsTrace: a frame was popped that was not pushed")
    }
    streams_trace_depth_set(streams_trace_depth_get() - 1)
  }

  /// Pops frames until `depth` are left.
  func pop(to depth: Int) {
    streams_trace_depth_set(Swift.min(streams_trace_depth_get(), depth))
  }

  /// The node that a subscription made now is made by: the node subscribing, or the receiver of
  /// the delivery under way; 0 when neither.
  var currentSubscriber: UInt64 {
    top?.node ?? 0
  }

  /// The innermost delivery frame (a delivery or a hop), if any: the top frame, unless a
  /// subscription is being made (then a search below it, out of line).
  @inline(__always)
  var currentDeliveryFrame: Frame? {
    let depth = streams_trace_depth_get()
    guard depth > 0 else { return nil }
    let top = state.pointee.frames[depth &- 1]
    if _fastPath(top.kind != .subscribing) { return top }
    return deliveryFrame(below: depth &- 1)
  }

  /// The innermost delivery frame among the `depth` outermost frames, if any.
  @inline(never)
  private func deliveryFrame(below depth: Int) -> Frame? {
    var index = depth
    let frames = state.pointee.frames
    while index > 0 {
      index -= 1
      if frames[index].kind != .subscribing { return frames[index] }
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
    currentDeliveryFrame?.via.hop ?? .direct
  }

  /// The calling thread's context, made on first use and freed when the thread exits.
  @inline(__always)
  static var current: ThreadContext {
    if let raw = streams_trace_thread_state_get() {
      return ThreadContext(state: raw.assumingMemoryBound(to: State.self))
    }
    return make()
  }

  private static func make() -> ThreadContext {
    let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
    state.initialize(to: State(number: UInt32(truncatingIfNeeded: threadNumbers.increment())))
    // The key's destructor frees the state when the thread exits; the C thread-local variable
    // is what reads it.
    pthread_setspecific(key, state)
    streams_trace_thread_state_set(state)
    return ThreadContext(state: state)
  }

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let result = pthread_key_create(&key) { raw in
      #if canImport(Darwin)
        let state = raw.assumingMemoryBound(to: State.self)
      #else
        guard let state = raw?.assumingMemoryBound(to: State.self) else { return }
      #endif
      streams_trace_thread_state_set(nil)
      // The frames go with the state: a state made later on this thread (another key's
      // destructor sending) starts from an empty stack.
      streams_trace_depth_set(0)
      for attachment in state.pointee.attachments { attachment.queue.abandon() }
      state.pointee.freeFrames()
      state.deinitialize(count: 1)
      state.deallocate()
    }
    if result != 0 { fatalError("StreamsTrace: pthread_key_create failed (\(result))") }
    return key
  }()

  /// Hands out thread numbers, from 1.
  private static let threadNumbers = AtomicCounter()
}
