import Streams

/// One traced subscription of a node by a subscriber.
final class NodeSubscription: TraceSubscription, DirectTraceSubscription {
  let recorder: TraceRecorder
  let record: SubscriptionRecord
  let timeline: Bool
  let recordsValues: Bool

  init(recorder: TraceRecorder, record: SubscriptionRecord) {
    self.recorder = recorder
    self.record = record
    self.timeline = recorder.configuration.timeline
    self.recordsValues = recorder.configuration.recentValues > 0
  }

  func deliver(_ kind: TraceEventKind, value: () -> TraceValue?, _ body: () -> Void) {
    let context = ThreadContext.current
    event(kind, value: value, in: context)
    body()
    context.pop()
  }

  func begin(_ kind: TraceEventKind, value: () -> TraceValue?) {
    event(kind, value: value, in: ThreadContext.current)
  }

  func beginPlain(_ type: any Any.Type, _ first: UInt64, _ second: UInt64) {
    let context = ThreadContext.current
    guard !timeline else { return beginTimeline(type, first, second, in: context) }
    let parent = context.currentDeliveryFrame
    // The delivery belongs to the send (or hop) that set it off; nothing is queued for it.
    context.push(
      .delivering, node: record.subscriber, delivery: parent?.delivery ?? 0,
      via: parent?.via ?? .direct, fineTime: false)
    let time = context.time
    record.count(at: time)
    if let ring = record.valueRing {
      ring._withUnsafeGuaranteedRef { $0.keep(type: type, first, second, key: time) }
    }
  }

  /// ``beginPlain(_:_:_:)`` in timeline mode, out of line.
  @inline(never)
  private func beginTimeline(
    _ type: any Any.Type, _ first: UInt64, _ second: UInt64, in context: ThreadContext
  ) {
    let parent = context.currentDeliveryFrame
    let cause = parent?.delivery ?? 0
    let via = parent?.via ?? .direct
    let delivery = recorder.nextDeliveryID()
    let now = MonotonicClock.now
    context.push(.delivering, node: record.subscriber, delivery: delivery, fineTime: true)
    record.count(at: now)
    var event = QueuedEvent(
      kind: .delivery, event: .next, hop: via, thread: context.number, delivery: delivery,
      from: record.node, to: record.subscriber, cause: cause, time: now, cell: nil)
    if recordsValues {
      if let ring = record.valueRing {
        // Keyed, as every operator value, by the outermost delivery's time.
        ring._withUnsafeGuaranteedRef { $0.keep(type: type, first, second, key: context.time) }
      }
      if recorder.ringKeepsValues {
        event.setValue(type: type, first, second)
      }
    }
    recorder.enqueue(event, in: context)
  }

  @inline(__always)
  private func event(_ kind: TraceEventKind, value: () -> TraceValue?, in context: ThreadContext) {
    let parent = context.currentDeliveryFrame
    let cause = parent?.delivery ?? 0
    let via = parent?.via ?? .direct
    guard timeline else {
      // The delivery belongs to the send (or hop) that set it off; nothing is queued for it.
      context.push(
        .delivering, node: record.subscriber, delivery: cause, via: via, fineTime: false)
      let time = context.time
      record.count(at: time)
      if kind == .next, let ring = record.valueRing, let made = value() {
        keep(made, in: ring, cause: cause, in: context)
      }
      return
    }
    // A timeline times every delivery with the precise clock.
    let delivery = recorder.nextDeliveryID()
    let now = MonotonicClock.now
    context.push(.delivering, node: record.subscriber, delivery: delivery, fineTime: true)
    record.count(at: now)
    let event = QueuedEvent(
      kind: .delivery, event: TraceGraph.EventKind(kind),
      hop: via, thread: context.number, delivery: delivery,
      from: record.node, to: record.subscriber, cause: cause, time: now, cell: nil)
    guard recordsValues, let made = value() else { return recorder.enqueue(event, in: context) }
    if kind == .next, let ring = record.valueRing {
      keep(made, in: ring, cause: cause, in: context)
    }
    if recorder.ringKeepsValues {
      recorder.enqueue(event, value: made, in: context)
    } else {
      recorder.enqueue(event, in: context)
    }
  }

  /// Keeps `value` among the node's recent values, keyed by the outermost delivery's time: a
  /// plain value in this subscription's `ring`, a string or a description queued for the next
  /// drain.
  @inline(__always)
  private func keep(
    _ value: TraceValue, in ring: Unmanaged<SeqlockRing>, cause: UInt64, in context: ThreadContext
  ) {
    let key = context.time
    if let plain = value.plain {
      return ring._withUnsafeGuaranteedRef {
        $0.keep(type: plain.type, plain.words.0, plain.words.1, key: key)
      }
    }
    guard let values = record.valuesRef else { return }
    recorder.queue(
      text: value, in: values, key: key, from: record.node, to: record.subscriber, cause: cause,
      in: context)
  }

  func subscribing() {
    ThreadContext.current.push(
      .subscribing, node: record.node, delivery: 0, fineTime: recorder.configuration.timeline)
  }

  func subscribed() {
    ThreadContext.current.pop()
    recorder.withState { state in _ = state.canonicalize(record.node) }
  }

  func disposed() {
    recorder.withState { state in state.end(record) }
  }
}

/// The recorder of a terminal subscriber: brackets its subscription so that the node it
/// subscribes to sees it as the subscriber.
final class TerminalSubscription: TraceSubscription {
  let recorder: TraceRecorder
  let node: UInt64

  init(recorder: TraceRecorder, node: UInt64) {
    self.recorder = recorder
    self.node = node
  }

  func deliver(_ kind: TraceEventKind, value: () -> TraceValue?, _ body: () -> Void) {
    body()
  }

  func subscribing() {
    ThreadContext.current.push(
      .subscribing, node: node, delivery: 0, fineTime: recorder.configuration.timeline)
  }

  func subscribed() {
    ThreadContext.current.pop()
    recorder.withState { state in _ = state.canonicalize(node) }
  }

  func disposed() {}

  func parked(inBagMadeAt file: String, line: UInt) {
    recorder.withState { state in state.park(terminal: node, inBagMadeAt: file, line: line) }
  }

  func owned(by owner: AnyObject) {
    // The previous weak reference (if any) is released after unlocking.
    let previous = recorder.withState { state -> [WeakOwner] in
      let made = state.madeByTerminal[node] ?? []
      let previous = made.compactMap { state.liveOwners[$0] }
      state.own(terminal: node, by: owner)
      return previous
    }
    withExtendedLifetime(previous) {}
  }
}

/// The cause of work handed to a scheduler, restored where the work runs: the delivery under
/// way (its receiver and the delivery it belongs to), and the node subscribing when the work is a
/// deferred subscription (`subscribe(on:)`).
final class CauseCarrier: TraceHop {
  let delivery: (receiver: UInt64, id: UInt64)?
  let subscribing: UInt64?
  let via: ThreadContext.Via
  let fineTime: Bool

  init(
    delivery: (receiver: UInt64, id: UInt64)?, subscribing: UInt64?, via: ThreadContext.Via,
    fineTime: Bool
  ) {
    self.delivery = delivery
    self.subscribing = subscribing
    self.via = via
    self.fineTime = fineTime
  }

  func run(_ work: () -> Void) {
    let context = ThreadContext.current
    let depth = context.depth
    if let delivery {
      context.push(
        .hopped, node: delivery.receiver, delivery: delivery.id, via: via, fineTime: fineTime)
    }
    if let subscribing {
      context.push(.subscribing, node: subscribing, delivery: 0, fineTime: fineTime)
    }
    work()
    context.pop(to: depth)
  }
}
