/// What a node of the graph is.
public enum TraceRole: String, Sendable, CaseIterable {
  /// Creates elements (`just`, `interval`, `create`, a bridge, a state cell).
  case source
  /// Transforms what it subscribes to.
  case `operator`
  /// A subject or relay: any code may send it elements.
  case subject
  /// Ends a chain: `subscribe(onNext:)`, `bind(to:)`, `drive`, `emit`, `values`, a state binding.
  case terminal
}

/// A node of the who-emits-to-whom graph: one observable, described for a tracer.
public struct TraceNode: Sendable, Hashable {
  /// A process-unique id, stable for the observable's lifetime.
  public let id: UInt64
  /// The operator or source name, such as `"map"` or `"PublishSubject"`.
  public let kind: String
  /// The ids of the observables this one subscribes to.
  public let upstreams: [UInt64]
  /// The file (`#fileID`) of the call that created the observable; `"(function reference)"` for
  /// one made by a factory passed as a function reference (`.flatMap(Observable.just)`), which
  /// has no call site.
  public let file: String
  /// The line of the call that created the observable; 0 for a function reference.
  public let line: UInt
  /// What the node is.
  public let role: TraceRole
  /// The full path (`#filePath`) of the file that created the node, where Streams knows it:
  /// subjects and relays record it, so that a tracer can read the declaration and name the node
  /// by its property (`CartStore.added`); `nil` for the others.
  public let path: String?

  /// Describes a node; tracers and tests use this to build expectations. Without `role`, the
  /// role follows from the kind and the upstreams.
  public init(
    id: UInt64, kind: String, upstreams: [UInt64], file: String, line: UInt,
    role: TraceRole? = nil, path: String? = nil
  ) {
    self.id = id
    self.kind = kind
    self.upstreams = upstreams
    self.file = file
    self.line = line
    self.role = role ?? TraceNode.role(kind: kind, upstreams: upstreams)
    self.path = path
  }

  /// This node, made by the file at the full path `path`.
  public func declared(in path: String) -> TraceNode {
    TraceNode(
      id: id, kind: kind, upstreams: upstreams, file: file, line: line, role: role, path: path)
  }

  /// The upstreams the node takes its elements from: all of them but the control ones.
  public var dataUpstreams: [UInt64] {
    Self.controlKinds.contains(kind) ? Array(upstreams.prefix(1)) : upstreams
  }

  /// The upstreams the node subscribes to for control only: `take(until:)`'s trigger, `sample`'s
  /// sampler, `withLatestFrom`'s second source, `skip(until:)`'s trigger.
  public var controlUpstreams: [UInt64] {
    Self.controlKinds.contains(kind) ? Array(upstreams.dropFirst()) : []
  }

  /// The kinds whose upstreams after the first are control inputs (the static map of
  /// `streams-trace map` draws them the same way).
  public static let controlKinds: Set<String> = [
    "take(until:)", "skip(until:)", "sample", "withLatestFrom",
  ]

  static func role(kind: String, upstreams: [UInt64]) -> TraceRole {
    if kind.hasSuffix("Subject") { return .subject }
    return upstreams.isEmpty ? .source : .operator
  }
}
