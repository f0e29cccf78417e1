import StreamsShims

/// The one hook point through which a tracer sees the graph of subscriptions.
///
/// Streams calls the installed tracer once per subscription to every node (operator, subject,
/// source). The tracer decides there whether that subscription is traced by returning a
/// ``TraceSubscription`` or `nil`. An untraced subscription costs one atomic load when it is made
/// and nothing per event; a traced one reports every event the node emits and its disposal.
///
/// ```swift
/// final class Printer: StreamsTracer {
///   func subscription(to node: TraceNode) -> (any TraceSubscription)? { nil }
/// }
/// Tracing.install(Printer())
/// ```
public protocol StreamsTracer: AnyObject, Sendable {
  /// Called when something subscribes to `node`; return a recorder to trace that subscription.
  func subscription(to node: TraceNode) -> (any TraceSubscription)?
}

/// Receives what one traced subscription of a node sees.
public protocol TraceSubscription: AnyObject, Sendable {
  /// The node emitted `event` to this subscriber (called before the subscriber receives it).
  func event<Element>(_ event: Event<Element>)
  /// The subscription was disposed.
  func disposed()
}

/// A node of the who-emits-to-whom graph: one observable, described for a tracer.
public struct TraceNode: Sendable, Hashable {
  /// A process-unique id, stable for the observable's lifetime.
  public let id: UInt64
  /// The operator or source name, such as `"map"` or `"PublishSubject"`.
  public let kind: String
  /// The ids of the observables this one subscribes to.
  public let upstreams: [UInt64]
  /// The file (`#fileID`) of the call that created the observable.
  public let file: String
  /// The line of the call that created the observable.
  public let line: UInt

  /// Describes a node; tracers and tests use this to build expectations.
  public init(id: UInt64, kind: String, upstreams: [UInt64], file: String, line: UInt) {
    self.id = id
    self.kind = kind
    self.upstreams = upstreams
    self.file = file
    self.line = line
  }
}

/// Installs and removes the process-wide tracer.
public enum Tracing {
  @usableFromInline static let slot = Locked<(any StreamsTracer)?>(nil)
  @usableFromInline static let ids = AtomicCounter()

  /// Installs `tracer` (or removes the current one with `nil`). Subscriptions made afterwards are
  /// offered to it; subscriptions made before are unaffected.
  public static func install(_ tracer: (any StreamsTracer)?) {
    let previous = slot.withLock { current -> (any StreamsTracer)? in
      defer { current = tracer }
      streams_tracing_installed_store(tracer == nil ? 0 : 1)
      return current
    }
    // Release the previous tracer outside the lock: its deinit is user code.
    withExtendedLifetime(previous) {}
  }

  /// The installed tracer, if any.
  public static var current: (any StreamsTracer)? {
    guard isInstalled else { return nil }
    return slot.withLock { $0 }
  }

  /// Whether a tracer is installed: one atomic load.
  @inlinable
  static var isInstalled: Bool { streams_tracing_installed_load() != 0 }

  @inlinable
  static func nextID() -> UInt64 { UInt64(ids.increment()) }
}
