// The model of `share(replay:scope:)` and `publish().refCount()`, written from RxSwift's
// documented behaviour:
//
// - `.whileConnected` (RxSwift's `ShareWhileConnected` / `ShareReplay1WhileConnected`) and
//   `publish().refCount()` (`multicast { PublishSubject() }`, a subject per connection): the first
//   subscriber connects (subscribes the source); later ones join, a replaying one receiving the
//   connection's last element first; the connection ends when the source terminates (every
//   subscriber receives the terminal event) or when the last subscriber leaves, and the next
//   subscriber connects again, with nothing to replay.
// - `.forever` (a subject made once, `multicast(subject).refCount()`):
//   the subject outlives connections, so a subscriber after a reconnection still receives the
//   last element (replay 1); once the source terminated, a subscriber receives the replayed
//   element and the terminal event while subscribing and does not connect again.
//
// A connection's source subscription ends when its last subscriber leaves, which only the
// consumers' logs tell; `ReferenceModel.run` feeds the subscribers' lifetimes back in rounds. A
// subscriber that leaves in a tick where the connection also sends (`take(1)` over a source that
// sends an element and completes at once) leaves between two of its events: each event reaches
// a subscriber behind a `mark` with its index, so the consumer's log tells which was the last
// one received, and what the connection sent after it reached nobody (the forever subject does
// not see that terminal event, and keeps an earlier element for its replay).

import StreamsTest

/// A subscriber of a shared sequence: when it came and left, and the index (in its connection's
/// log) of the last event it received, -1 for none.
struct SharedSubscriber: Equatable {
  var start: Int
  var end: Int
  var lastIndex: Int
}

extension ReferenceModel {
  struct Connection {
    var start: Int
    var log: [LogItem]
    var terminalIndex: Int?
    /// How many items of `log` happened before the last subscriber left, and when it left.
    var leave: (time: Int, prefix: Int)

    /// The terminal event reached the subscribers.
    var terminated: Bool { terminalIndex.map { $0 < leave.prefix } ?? false }
    /// When the source subscription ends: at its terminal event or when the last subscriber
    /// leaves.
    var end: Int { terminated ? log[terminalIndex!].time : leave.time }
    /// The items of `log` that happened while connected.
    var prefix: Int { terminated ? log.count : leave.prefix }

    /// The elements the connection passed on.
    var elements: [Int] {
      log[..<prefix].compactMap {
        guard case .event(_, .next(let value)) = $0 else { return nil }
        return value
      }
    }

    /// Where in `log` a subscriber leaving at `time` after receiving item `lastIndex` left.
    func position(leaving time: Int, after lastIndex: Int) throws -> (time: Int, prefix: Int) {
      if time == Int.max { return (time, log.count) }
      // A subscriber that leaves in the tick it connected leaves once its subscription call
      // returned (its disposable did not exist before), so after everything the source sent
      // while being subscribed (RxSwift's `RefCountSink` likewise).
      if time == start { return (time, log.firstIndex { $0.time > time } ?? log.count) }
      if lastIndex >= 0, lastIndex < log.count, log[lastIndex].time == time {
        return (time, lastIndex + 1)
      }
      // Leaving for another reason in a tick the source acts in: the order is the scheduler's.
      if log.contains(where: { $0.time == time }) {
        throw ModelAmbiguity(description: "a subscriber leaves at \(time) as the source acts")
      }
      return (time, log.firstIndex { $0.time >= time } ?? log.count)
    }
  }

  private func connectionLog(_ index: Int, at start: Int) throws -> [LogItem] {
    if let log = connectionLogs[index][start] { return log }
    let log = try self.log(shared[index].upstream, at: start)
    connectionLogs[index][start] = log
    return log
  }

  /// The connections of shared sequence `index` made for `subscribers` (sorted by start).
  private func connections(_ index: Int, _ subscribers: [SharedSubscriber]) throws
    -> [Connection]
  {
    let forever = shared[index].kind.isForever
    var connections: [Connection] = []
    for subscriber in subscribers {
      let start = subscriber.start
      // A forever subject that terminated answers new subscribers itself.
      if forever, connections.contains(where: { $0.terminated && $0.end <= start }) {
        if connections.last?.end == start {
          throw ModelAmbiguity(description: "shared\(index) terminates as a consumer subscribes")
        }
        continue
      }
      if let last = connections.last, start < last.end {
        let position = try last.position(leaving: subscriber.end, after: subscriber.lastIndex)
        if (position.time, position.prefix) > (last.leave.time, last.leave.prefix) {
          connections[connections.count - 1].leave = position
        }
        continue
      }
      // A subscription in the tick the connection ends: before or after depends on which
      // scheduler action came first (also after a terminal event: `concat` may subscribe for
      // another source's completion in that tick).
      if let last = connections.last, start == last.end {
        throw ModelAmbiguity(
          description: "shared\(index): a subscriber comes at \(start) as the last leaves")
      }
      let log = try connectionLog(index, at: start)
      let terminalIndex = log.firstIndex {
        if case .event(_, let event) = $0 { return event.isTerminal }
        return false
      }
      var connection = Connection(
        start: start, log: log, terminalIndex: terminalIndex, leave: (start, 0))
      connection.leave = try connection.position(
        leaving: subscriber.end, after: subscriber.lastIndex)
      connections.append(connection)
    }
    return connections
  }

  /// The log of a subscriber of shared sequence `index` subscribed at `start`.
  func sharedLog(_ index: Int, at start: Int) throws -> [LogItem] {
    let kind = shared[index].kind
    let earlier = knownSubscribers[index].filter { $0.start < start }
    let all = try connections(
      index, earlier + [SharedSubscriber(start: start, end: Int.max, lastIndex: Int.max)])
    let id = newID()
    var items: [LogItem] = [.subscribe(start, source: -1 - index, id: id)]
    guard let connection = all.last else { preconditionFailure("no connection at \(start)") }
    let joined = connection.start != start
    // The forever subject's elements before this subscription: those of earlier connections and
    // of the one joined.
    var previous = all.dropLast()
    if kind.isForever, joined, connection.terminated, connection.end <= start {
      previous = all[...]
    }
    if kind.isForever, let ended = previous.first(where: { $0.terminated && $0.end <= start }) {
      // A terminated subject answers at once: the replayed element, then the terminal event.
      if kind.replay > 0, let value = previous.flatMap(\.elements).last {
        items.append(.event(start, .next(value)))
      }
      guard case .event(_, let terminal) = ended.log[ended.terminalIndex!] else {
        preconditionFailure("a terminal index that is no event")
      }
      items.append(.event(start, terminal))
      return items
    }
    precondition(!joined || start < connection.end, "shared\(index): joined a closed connection")
    if joined, connection.log.contains(where: { $0.time == start && isEvent($0) }) {
      throw ModelAmbiguity(description: "shared\(index) sends at \(start) as a subscriber comes")
    }
    // A subscriber receives the replay first, then (when it connects) what the source sends
    // while being subscribed.
    if kind.replay > 0 {
      var values: [Int] = []
      if kind.isForever { values = previous.flatMap(\.elements) }
      if joined {
        for case .event(let time, .next(let value)) in connection.log where time < start {
          values.append(value)
        }
      }
      if let value = values.last { items.append(.event(start, .next(value))) }
    }
    for (offset, item) in connection.log.enumerated() {
      if case .boundary(let time) = item, time > start || !joined { items.append(item) }
      guard case .event(let time, let event) = item, time > start || !joined else { continue }
      items.append(.mark(time, id: id, index: offset))
      items.append(.event(time, event))
      if event.isTerminal { break }
    }
    return items
  }

  /// The source subscriptions of every connection of every shared sequence, as logs.
  func connectionRecords() throws -> [[LogItem]] {
    var logs: [[LogItem]] = []
    for index in shared.indices {
      for connection in try connections(index, knownSubscribers[index]) {
        var writer = LogWriter()
        for item in connection.log[..<connection.prefix] {
          if case .event(let time, let event) = item {
            writer.emit(time, event)
          } else {
            writer.pass(item)
          }
        }
        // A forced subscription the source still makes in the tick it is disposed (see
        // `startWith`) is made and disposed at once.
        for item in connection.log[connection.prefix...] where item.time == connection.end {
          if case .boundary = item { break }
          guard case .subscribe(_, _, let id, true) = item else { continue }
          writer.pass(item)
          writer.pass(.unsubscribe(connection.end, id: id))
        }
        writer.finish(at: connection.end)
        logs.append(writer.items)
      }
    }
    return logs
  }
}

private func isEvent(_ item: LogItem) -> Bool {
  if case .event = item { return true }
  return false
}
