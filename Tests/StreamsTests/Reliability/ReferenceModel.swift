// A reference model of Streams' operators on virtual time, written from RxSwift's documented
// behaviour and Streams' guides (never from Streams' implementation), for differential fuzzing.
//
// A subscription to a model sequence is a *log*: the list of what happens, in order, from the
// moment of subscribing onwards: output events with their tick, and the subscriptions and
// disposals of test sources with theirs. Each operator turns the logs of its inputs into its own
// log. Within one log the order of items at the same tick is the causal order. Two things that
// happen at the same tick for independent reasons (a timer and a source event, two sources) have
// an order only the scheduler's queue knows; the model does not guess it: it throws
// `ModelAmbiguity` and the case is skipped. Items at a log's first tick are the ones sent
// synchronously while subscribing (sources never emit at their subscription tick; timers are at
// least one tick long).

import StreamsTest

/// An event in the model: elements are `Int`, errors are integer codes (see `ErrorCode`).
enum ModelEvent: Hashable, CustomStringConvertible {
  case next(Int)
  case completed
  case error(Int)

  var isTerminal: Bool {
    if case .next = self { return false }
    return true
  }

  var description: String {
    switch self {
    case .next(let value): return "\(value)"
    case .completed: return "|"
    case .error(let code): return "#\(code)"
    }
  }
}

/// Error codes shared by the model and the comparison with Streams.
enum ErrorCode {
  /// `RxError.timeout`.
  static let timeout = 100
  /// `RxError.argumentOutOfRange`.
  static let argumentOutOfRange = 101
  /// Any other error Streams might send (a mismatch by construction).
  static let unknown = 999
}

/// One entry of a log.
enum LogItem: CustomStringConvertible {
  /// An output event at a tick.
  case event(Int, ModelEvent)
  /// Test source `source` is subscribed at a tick; `id` names this subscription. A `forced`
  /// subscription happens even when the consumer ended earlier in the same tick (see
  /// `startWith`): it is then disposed at once.
  case subscribe(Int, source: Int, id: Int, forced: Bool = false)
  /// Subscription `id` is disposed at a tick.
  case unsubscribe(Int, id: Int)
  /// Subscriber `id` of a shared sequence is about to receive the connection's log item `index`
  /// (see `ModelSharing.swift`): tells which of the connection's events a subscriber leaving in
  /// the same tick had received.
  case mark(Int, id: Int, index: Int)
  /// A new scheduler action starts at a tick (a source event, a timer): a forced subscription
  /// after it is not part of the action that ended the consumer.
  case boundary(Int)

  var time: Int {
    switch self {
    case .event(let time, _), .subscribe(let time, _, _, _), .unsubscribe(let time, _),
      .mark(let time, _, _), .boundary(let time):
      return time
    }
  }

  var description: String {
    switch self {
    case .event(let time, let event): return "\(event)@\(time)"
    case .subscribe(let time, let source, let id, let forced):
      return "sub(s\(source)#\(id)\(forced ? "!" : ""))@\(time)"
    case .unsubscribe(let time, let id): return "unsub(#\(id))@\(time)"
    case .mark(let time, let id, let index): return "mark(#\(id):\(index))@\(time)"
    case .boundary(let time): return "/@\(time)"
    }
  }
}

/// The model cannot say what happens: two independent things share a tick.
struct ModelAmbiguity: Error, CustomStringConvertible {
  let description: String
}

/// Builds an operator's log: passes subscription items through, tracks which subscriptions are
/// open, and closes them all when the operator sends its terminal event.
struct LogWriter {
  private(set) var items: [LogItem] = []
  private var open: [Int] = []
  /// The operator sent its terminal event (or was cut): nothing more is written.
  var finished: Bool { finishedAt != nil }
  private var finishedAt: Int?
  /// A later action started after the writer finished.
  private var sealed = false
  /// The tick of the first item, and whether an action boundary came since.
  private var firstTime: Int?
  private var boundarySeen = false
  /// The writer finished in the action of its subscription.
  private var finishedWhileSubscribing = false

  /// Copies a subscription item (an event goes through `emit`).
  mutating func pass(_ item: LogItem) {
    if let finishedAt {
      // A later action closes the action the writer finished in. A writer that finished while
      // being subscribed is disposed once subscribing returned, so everything subscribed in
      // that action is made and disposed at once. Otherwise it is disposed at once: only
      // subscriptions of a subscribe call already running (forced) are still made, and a
      // subscription that is not (made by a call that started after the end) closes the action.
      if case .boundary = item { sealed = true }
      if case .subscribe(_, _, _, false) = item, !finishedWhileSubscribing { sealed = true }
      if case .subscribe(let time, _, let id, let forced) = item, time == finishedAt, !sealed,
        forced || finishedWhileSubscribing
      {
        items.append(item)
        items.append(.unsubscribe(time, id: id))
      }
      return
    }
    if firstTime == nil { firstTime = item.time }
    switch item {
    case .subscribe(_, _, let id, _): open.append(id)
    case .unsubscribe(_, let id):
      guard open.contains(id) else { return }
      open.removeAll { $0 == id }
    case .mark: break
    case .boundary: boundarySeen = true
    case .event: preconditionFailure("events go through emit")
    }
    items.append(item)
  }

  /// Sends an event; a terminal event disposes every open subscription at its tick.
  mutating func emit(_ time: Int, _ event: ModelEvent) {
    guard !finished else { return }
    if firstTime == nil { firstTime = time }
    items.append(.event(time, event))
    if event.isTerminal { finish(at: time) }
  }

  /// Disposes every open subscription at `time` (the operator lets go of its current source).
  mutating func closeAll(at time: Int) {
    for id in open { items.append(.unsubscribe(time, id: id)) }
    open.removeAll()
  }

  /// Disposes everything and stops writing: the operator's subscription ends at `time`.
  mutating func finish(at time: Int) {
    guard !finished else { return }
    closeAll(at: time)
    finishedAt = time
    finishedWhileSubscribing = !boundarySeen && (firstTime ?? time) == time
  }

  /// Copies another log (a sequence the operator switched to) until it or this writer ends.
  mutating func append(contentsOf log: [LogItem]) {
    for item in log {
      if case .event(let time, let event) = item { emit(time, event) } else { pass(item) }
    }
  }
}

/// A model operator driven by the upstream log and, optionally, one timer.
protocol TimedModelOperator {
  /// The tick of the pending timer, if any.
  var due: Int? { get }
  /// The operator stopped listening to its upstream (switched to another sequence).
  var detached: Bool { get }
  /// The timer fires at `due`.
  mutating func fire(_ writer: inout LogWriter) throws
  /// The upstream sends `event` at `time`.
  mutating func on(_ time: Int, _ event: ModelEvent, _ writer: inout LogWriter) throws
}

extension TimedModelOperator {
  var due: Int? { nil }
  var detached: Bool { false }
  mutating func fire(_ writer: inout LogWriter) throws {}
}

/// Feeds `log` to `op`, firing its timer before every later item. A timer due at the tick of an
/// upstream item is an ambiguity (the order depends on when each was scheduled).
func drive<Op: TimedModelOperator>(_ op: inout Op, _ log: [LogItem]) throws -> [LogItem] {
  var writer = LogWriter()
  for item in epilogueFirst(log) {
    while !writer.finished, !op.detached, let due = op.due, due <= item.time {
      if due == item.time {
        throw ModelAmbiguity(description: "timer at \(due) ties with \(item)")
      }
      writer.pass(.boundary(due))
      try op.fire(&writer)
    }
    if op.detached { break }
    if case .event(let time, let event) = item {
      if !writer.finished { try op.on(time, event, &writer) }
    } else {
      writer.pass(item)
    }
  }
  while !writer.finished, !op.detached, let due = op.due, due <= modelHorizon {
    writer.pass(.boundary(due))
    try op.fire(&writer)
  }
  return writer.items
}

/// No timer of the model fires after this tick (a periodic timer would otherwise run forever;
/// every consumer is disposed long before).
let modelHorizon = 10_000

/// Moves what a log records after its terminal event (subscriptions made and disposed in the same
/// tick, see `startWith`) before it: the consumer reacts to the terminal event by subscribing to
/// something else in the same tick, and the order of subscriptions within a tick is not compared.
func epilogueFirst(_ log: [LogItem]) -> [LogItem] {
  guard
    let index = log.firstIndex(where: {
      if case .event(_, let event) = $0 { return event.isTerminal }
      return false
    }), index < log.count - 1
  else { return log }
  return Array(log[..<index]) + log[(index + 1)...] + [log[index]]
}

/// Cuts a log at `time` for a reason outside it (a disposal): items before stay, open
/// subscriptions are disposed at `time`. An event or subscription at exactly `time` is an
/// ambiguity.
func cut(_ log: [LogItem], at time: Int) throws -> [LogItem] {
  var writer = LogWriter()
  for item in log {
    if item.time > time { break }
    if item.time == time {
      if case .unsubscribe = item { continue }
      if case .boundary = item { continue }
      throw ModelAmbiguity(description: "\(item) ties with the disposal at \(time)")
    }
    if case .event(let t, let event) = item { writer.emit(t, event) } else { writer.pass(item) }
  }
  writer.finish(at: time)
  return writer.items
}

/// The result of running a pipeline in the model.
struct ModelResult: Equatable {
  /// Per consumer: what it recorded.
  var events: [[Recorded<ModelEvent>]]
  /// Per source: its subscriptions, sorted.
  var subscriptions: [[Subscription]]
}

/// Interprets pipelines over test sources.
final class ReferenceModel {
  let sources: [SourceSpec]
  let shared: [SharedSpec]
  /// Per shared sequence, the subscriptions its subscribers made in the previous round (see
  /// `run`).
  let knownSubscribers: [[SharedSubscriber]]
  /// Per shared sequence, the upstream log of each connection by its start tick.
  var connectionLogs: [[Int: [LogItem]]]
  private var nextID = 0

  init(
    sources: [SourceSpec], shared: [SharedSpec] = [], knownSubscribers: [[SharedSubscriber]] = []
  ) {
    self.sources = sources
    self.shared = shared
    self.knownSubscribers =
      knownSubscribers.isEmpty ? shared.map { _ in [] } : knownSubscribers
    connectionLogs = shared.map { _ in [:] }
  }

  /// Subscribes every consumer at its time, disposes it at its time, and returns what is
  /// recorded.
  ///
  /// Shared sequences are found by rounds: a subscriber's log depends on the connection it finds
  /// when it subscribes, which depends on when the earlier subscribers left, which their
  /// consumers decide. Each round computes every consumer with the subscriber lifetimes of the
  /// round before, until they no longer change (each round settles at least the earliest
  /// subscription still wrong, so this takes at most one round per subscription, plus one).
  static func run(_ pipeline: Pipeline) throws -> ModelResult {
    var known: [[SharedSubscriber]] = pipeline.shared.map { _ in [] }
    for _ in 0..<12 {
      let model = ReferenceModel(
        sources: pipeline.sources, shared: pipeline.shared, knownSubscribers: known)
      var logs: [[LogItem]] = []
      for consumer in pipeline.consumers {
        logs.append(
          try cut(model.log(consumer.root, at: consumer.subscribed), at: consumer.disposed))
      }
      let recorded = model.record(logs)
      let actual = (0..<pipeline.shared.count).map { recorded.shared[-1 - $0] ?? [] }
      guard actual == known else {
        known = actual
        continue
      }
      for starts in actual.map({ $0.map(\.start) }) where Set(starts).count < starts.count {
        throw ModelAmbiguity(description: "two subscribers of a shared sequence at one tick")
      }
      var all = recorded.subscriptions
      for (source, list) in model.record(try model.connectionRecords()).subscriptions {
        all[source, default: []] += list
      }
      return ModelResult(
        events: recorded.events,
        subscriptions: (0..<pipeline.sources.count).map { sortedSubscriptions(all[$0] ?? []) })
    }
    throw ModelAmbiguity(description: "the shared sequences' subscribers do not settle")
  }

  /// The events of each log, the subscriptions of every source, and the subscribers of every
  /// shared sequence (shared sequence `k` is source `-1 - k`).
  private func record(_ logs: [[LogItem]]) -> (
    events: [[Recorded<ModelEvent>]], subscriptions: [Int: [Subscription]],
    shared: [Int: [SharedSubscriber]]
  ) {
    var events: [[Recorded<ModelEvent>]] = []
    var subscriptions: [Int: [Subscription]] = [:]
    var subscribers: [Int: [SharedSubscriber]] = [:]
    for log in logs {
      var recorded: [Recorded<ModelEvent>] = []
      var starts: [Int: (source: Int, time: Int)] = [:]
      var marks: [Int: Int] = [:]
      for item in log {
        switch item {
        case .event(let time, let event): recorded.append(Recorded(time: time, value: event))
        case .subscribe(let time, let source, let id, _): starts[id] = (source, time)
        case .mark(_, let id, let index): marks[id] = index
        case .boundary: break
        case .unsubscribe(let time, let id):
          guard let start = starts.removeValue(forKey: id) else { continue }
          subscriptions[start.source, default: []].append(Subscription(start.time, time))
          if start.source < 0 {
            subscribers[start.source, default: []].append(
              SharedSubscriber(start: start.time, end: time, lastIndex: marks[id] ?? -1))
          }
        }
      }
      precondition(starts.isEmpty, "the model left subscriptions open: \(starts)")
      events.append(recorded)
    }
    return (
      events, subscriptions.mapValues(sortedSubscriptions),
      subscribers.mapValues { $0.sorted { ($0.start, $0.end) < ($1.start, $1.end) } }
    )
  }

  func newID() -> Int {
    nextID += 1
    return nextID
  }

  /// The log of a subscription to `node` made at tick `start`.
  func log(_ node: Node, at start: Int) throws -> [LogItem] {
    switch node {
    case .source(let index): return try sourceLog(index, at: start)
    case .shared(let index): return try sharedLog(index, at: start)
    case .unary(let op, let upstream): return try unaryLog(op, upstream, at: start)
    case .multi(let op, let children): return try multiLog(op, children, at: start)
    case .higher(let op, let outer, let inners): return try higherLog(op, outer, inners, at: start)
    }
  }
  /// A hot source sends its events at their ticks; a cold one at `start` + their ticks. Neither
  /// disposes itself: whoever consumes it does (on a terminal event, at once).
  private func sourceLog(_ index: Int, at start: Int) throws -> [LogItem] {
    let spec = sources[index]
    var items: [LogItem] = [.subscribe(start, source: index, id: newID())]
    for recorded in spec.events {
      let time = spec.isHot ? recorded.time : start + recorded.time
      if time < start { continue }
      if time == start {
        throw ModelAmbiguity(description: "hot s\(index) sends at its subscription tick \(time)")
      }
      items.append(.boundary(time))
      items.append(.event(time, recorded.value))
      if recorded.value.isTerminal { break }
    }
    return items
  }
}

func sortedSubscriptions(_ list: [Subscription]) -> [Subscription] {
  list.sorted { ($0.subscribe, $0.unsubscribe) < ($1.subscribe, $1.unsubscribe) }
}
