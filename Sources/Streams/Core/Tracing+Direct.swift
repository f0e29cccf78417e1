/// A traced subscription that the core calls directly, without closures: StreamsTrace's recorder.
///
/// When the ``TraceSubscription`` a tracer returns is also one of these, each delivery is
/// `begin`, the observer's `on`, and the pop of the frame `begin` pushed on the thread's trace
/// stack (`streams_trace_pop`, inline), which is what ``TraceSubscription/deliver(_:value:_:)``
/// does with its body, minus the closures and the calls around it. A `next` whose element is a plain value
/// (see ``TraceValue``) hands the recorder the element's type and bytes, so that keeping it makes
/// no ``TraceValue`` and counts no references; anything else goes through `begin(_:value:)`,
/// whose `value` makes the element only when called.
@usableFromInline
package protocol DirectTraceSubscription: AnyObject, Sendable {
  /// A delivery of a `next` whose element is the plain value of `type` whose bytes are
  /// `first` and `second` (see ``TraceValue/plainWords(of:)``) begins: pushes one frame.
  func beginPlain(_ type: any Any.Type, _ first: UInt64, _ second: UInt64)
  /// A delivery of `kind` begins; `value` makes its element or error (as for
  /// ``TraceSubscription/deliver(_:value:_:)``) only when called; pushes one frame.
  func begin(_ kind: TraceEventKind, value: () -> TraceValue?)
}

/// A tracer whose sends into subjects the core makes directly, without closures: StreamsTrace's
/// recorder. `beginSend` (which pushes one frame), the subject's delivery, and the pop of that
/// frame (`streams_trace_pop`) is what ``StreamsTracer/send(_:value:into:node:_:)`` does with its
/// `deliver`.
@usableFromInline
package protocol DirectTraceSender: AnyObject, Sendable {
  /// A send of a `next` whose element is the plain value of `type` whose bytes are `first` and
  /// `second` into the subject `subject` begins; `node` describes the subject, made only when
  /// called.
  func beginSendPlain(
    _ type: any Any.Type, _ first: UInt64, _ second: UInt64, into subject: UInt64,
    node: () -> TraceNode)
  /// A send of `kind` into the subject `subject` begins; `value` and `node` are made only when
  /// called (as for ``StreamsTracer/send(_:value:into:node:_:)``).
  func beginSend(
    _ kind: TraceEventKind, value: () -> TraceValue?, into subject: UInt64,
    node: () -> TraceNode)
}
