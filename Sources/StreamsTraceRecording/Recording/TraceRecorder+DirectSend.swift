import Streams
import StreamsShims

/// The sends the core makes directly (see `DirectTraceSender`): ``send(_:value:into:node:_:)``
/// without its closures.
extension TraceRecorder: DirectTraceSender {
  @usableFromInline package func beginSendPlain(
    _ type: any Any.Type, _ first: UInt64, _ second: UInt64, into subject: UInt64,
    node: () -> TraceNode
  ) {
    let context = ThreadContext.current
    var (event, values) = startSend(.next, into: subject, node: node, in: context)
    if recordsValues {
      if let values { keep(plain: type, first, second, in: values, sentBy: event, in: context) }
      if ringKeepsValues {
        event.setValue(type: type, first, second)
      }
    }
    record(send: event, in: context)
  }

  @usableFromInline package func beginSend(
    _ kind: TraceEventKind, value: () -> TraceValue?, into subject: UInt64,
    node: () -> TraceNode
  ) {
    let context = ThreadContext.current
    var (event, values) = startSend(kind, into: subject, node: node, in: context)
    guard recordsValues, let made = value() else { return record(send: event, in: context) }
    // An element is one of the subject's values; an error is not (as for operators).
    if kind == .next, let values {
      keep(made, in: values, sentBy: event, in: context)
    }
    guard ringKeepsValues else { return record(send: event, in: context) }
    guard let plain = made.plain else {
      return enqueue(event, payload: Payload(made), in: context)
    }
    event.setValue(type: plain.type, plain.words.0, plain.words.1)
    record(send: event, in: context)
  }
}
