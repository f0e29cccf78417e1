extension TraceGraph {
  /// Writes the graph as a versioned JSON document (format `"streams-trace"`, version 1) that
  /// `init(dump:)` (StreamsTrace) reads back into an equal graph.
  ///
  /// ```swift
  /// let graph = TraceGraph(nodes: [
  ///   .init(id: 1, kind: "PublishSubject", role: .subject, file: "App/Search.swift", line: 12)
  /// ])
  /// print(graph.dump())
  /// // Prints
  /// // {"format":"streams-trace","version":1,
  /// // "nodes":[
  /// // {"id":1,"kind":"PublishSubject","role":"subject","file":"App/Search.swift",⏎
  /// // "line":12,"upstreams":[],"controlUpstreams":[],"subscriptionCount":0,"eventCount":0,⏎
  /// // "recentValues":[]}
  /// // ],
  /// // "edges":[],
  /// // "subscriptions":[],
  /// // "deliveries":[]}
  /// ```
  ///
  /// (`⏎` marks where this page breaks the node's line; the document has it on one line.)
  ///
  /// The document is UTF-8 JSON (RFC 8259): one object whose keys come in a fixed order, one
  /// array entry per line, no other whitespace and no trailing newline, so the same graph always
  /// gives the same bytes and two dumps diff line by line. `Guides/TraceFormat.md` describes the
  /// format for readers written in other languages.
  ///
  /// Schema of version 1. Numbers are JSON integers in plain decimal, exact: *uint64* is
  /// 0...18446744073709551615, *uint32* 0...4294967295, *uint* and *int* are the platform's `UInt`
  /// and `Int` (64 bits on 64-bit platforms). Every key is required except those marked optional,
  /// which are left out when the value is `nil`.
  ///
  /// - Top level: `format` (string, always `"streams-trace"`), `version` (int, `1`), `origin`
  ///   (optional: `"static"` for a static map, left out for a recorded trace), `nodes`, `edges`,
  ///   `subscriptions`, `deliveries` (arrays of the objects below, in the graph's order).
  /// - Node: `id` (uint64, unique in the trace), `kind` (string: `"map"`, `"PublishSubject"`,
  ///   `"subscribe"`), `role` (`"source"`, `"operator"`, `"subject"` or `"terminal"`), `file`
  ///   (string, the `#fileID` of the call that made the node), `line` (uint, its line), `owner`
  ///   (optional string, the owning type), `name` (optional string, a given name such as
  ///   `UIState.contentAlpha`), `upstreams` (array of node ids it takes elements from),
  ///   `controlUpstreams` (array of node ids it subscribes to for control only),
  ///   `subscriptionCount` (int, subscriptions ever made to it), `eventCount` (int, events it
  ///   delivered, once per subscriber), `recentValues` (array of strings, oldest first as
  ///   ``TraceGraph/Node/recentValues`` says; empty when values are not recorded).
  /// - Edge: `from`, `to` (uint64 node ids), `kind` (`"subscription"`, `"emission"`, `"control"`
  ///   or `"chain"`), `count` (int: events for emission and chain edges, subscriptions ever made
  ///   for the others), `live` (int, live subscriptions; 0 for emission and chain edges),
  ///   `firstTime`, `lastTime` (uint64 nanoseconds of the recorder's clock).
  /// - Subscription: `id` (uint64), `node` (uint64, the node subscribed to), `subscriber` (uint64,
  ///   the subscribing node), `owner` (optional string), `ownerGone` (bool, `true` for a leak: the
  ///   owner is gone and the subscription is live), `file` (string), `line` (uint): where it was
  ///   made; `bag` (optional object: `file`, `line`, optional `owner`), the `DisposeBag` that keeps
  ///   it.
  /// - Delivery: `id` (uint64, increasing with time), `from`, `to` (uint64 node ids), `event`
  ///   (`"next"`, `"error"` or `"completed"`), `cause` (optional uint64, the delivery that caused
  ///   this one; absent for a root event), `hop` (`"direct"`, `"scheduler"` or `"task"`), `thread`
  ///   (uint32, 1 is the first thread seen), `time` (uint64 nanoseconds), `queue` (optional
  ///   string, after a hop: the scheduler or queue, `main queue`), `value` (optional string, the
  ///   element's description).
  ///
  /// Counts (`subscriptionCount`, `eventCount`, `count`, `live`) are Swift `Int`s: never negative
  /// in a recorded trace, but a negative value set by hand is written as such and read back.
  ///
  /// - Returns: The JSON document. Writing it has no side effects; it cannot fail.
  public func dump() -> String {
    var writer = DumpWriter()
    writer.write(self)
    return String(decoding: writer.bytes, as: UTF8.self)
  }
}
