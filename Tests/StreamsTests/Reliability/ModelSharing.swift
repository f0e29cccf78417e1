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
// consumers' logs tell; `ReferenceModel.run` feeds the subscribers' lifetimes back in rounds.

import StreamsTest

extension ReferenceModel {
  struct Connection {
    var start: Int
    var log: [LogItem]
    var terminal: (time: Int, event: ModelEvent)?
    /// The last tick a subscriber of this connection leaves.
    var lastLeave: Int
    /// When the source subscription ends: at its terminal event or when the last subscriber
    /// leaves.
    var end: Int { min(terminal?.time ?? Int.max, lastLeave) }
    /// The terminal event reached the subscribers (the forever subject ended with it).
    var terminated: Bool { terminal.map { $0.time <= lastLeave } ?? false }

    /// The elements the connection passed on before or at `time`.
    func elements(through time: Int) -> [Int] {
      log.compactMap {
        guard case .event(let at, .next(let value)) = $0, at <= time, at <= end else { return nil }
        return value
      }
    }
  }

  private func connectionLog(_ index: Int, at start: Int) throws -> [LogItem] {
    if let log = connectionLogs[index][start] { return log }
    let log = try self.log(shared[index].upstream, at: start)
    connectionLogs[index][start] = log
    return log
  }

  /// The connections of shared sequence `index` made for `subscribers` (sorted by start).
  private func connections(_ index: Int, _ subscribers: [Subscription]) throws -> [Connection] {
    let forever = shared[index].kind.isForever
    var connections: [Connection] = []
    for subscriber in subscribers {
      let start = subscriber.subscribe
      // A forever subject that terminated answers new subscribers itself.
      if forever, connections.contains(where: { $0.terminated && $0.terminal!.time <= start }) {
        if consumerStarts.contains(start), connections.last?.terminal?.time == start {
          throw ModelAmbiguity(description: "shared\(index) terminates as a consumer subscribes")
        }
        continue
      }
      if let last = connections.last, start < last.end {
        connections[connections.count - 1].lastLeave = max(last.lastLeave, subscriber.unsubscribe)
        continue
      }
      // A subscription in the tick the source terminated comes after the terminal event when
      // the event caused it (`retry`, `concat`, ...); a consumer's own subscription in that
      // tick was scheduled independently.
      if let last = connections.last, start == last.end,
        last.terminal?.time != start || consumerStarts.contains(start)
      {
        throw ModelAmbiguity(description: "shared\(index): a subscriber comes at \(start) as the last leaves")
      }
      let log = try connectionLog(index, at: start)
      var terminal: (Int, ModelEvent)?
      for case .event(let time, let event) in log where event.isTerminal {
        terminal = (time, event)
        break
      }
      connections.append(
        Connection(start: start, log: log, terminal: terminal, lastLeave: subscriber.unsubscribe))
    }
    return connections
  }

  /// The log of a subscriber of shared sequence `index` subscribed at `start`.
  func sharedLog(_ index: Int, at start: Int) throws -> [LogItem] {
    let kind = shared[index].kind
    let earlier = knownSubscribers[index].filter { $0.subscribe < start }
    let all = try connections(index, earlier + [Subscription(start, Int.max)])
    var items: [LogItem] = [.subscribe(start, source: -1 - index, id: newID())]
    guard let connection = all.last else { preconditionFailure("no connection at \(start)") }
    // The forever subject's elements before this subscription: those of earlier connections
    // (up to their ends) and of the one joined.
    let joined = connection.start != start
    var previous = all.dropLast()
    if kind.isForever, connection.terminated, connection.terminal!.time <= start, joined {
      previous = all[...]
    }
    if kind.isForever,
      let ended = previous.first(where: { $0.terminated && $0.terminal!.time <= start })
    {
      // A terminated subject answers at once: the replayed element, then the terminal event.
      if kind.replay > 0, let value = previous.flatMap({ $0.elements(through: start) }).last {
        items.append(.event(start, .next(value)))
      }
      items.append(.event(start, ended.terminal!.event))
      return items
    }
    precondition(!joined || start < connection.end, "shared\(index): joined a closed connection")
    if joined, connection.log.contains(where: { $0.time == start && isEvent($0) }) {
      throw ModelAmbiguity(description: "shared\(index) sends at \(start) as a subscriber comes")
    }
    // A subscriber receives the replay first, then (when it connects) what the source sends
    // while being subscribed.
    if kind.replay > 0 {
      var values = joined ? connection.elements(through: start - 1) : []
      if kind.isForever { values = previous.flatMap { $0.elements(through: start) } + values }
      if let value = values.last { items.append(.event(start, .next(value))) }
    }
    for case .event(let time, let event) in connection.log where time > start || !joined {
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
        let end = connection.end
        for item in epilogueFirst(connection.log) {
          if item.time > end { break }
          if item.time == end, connection.terminal?.time != end, item.time != connection.start {
            // The last subscriber left at this tick: what the source did at it is decided by
            // which came first.
            if isEvent(item) { continue }
            if case .unsubscribe = item { continue }
            throw ModelAmbiguity(description: "shared\(index): \(item) as the last subscriber leaves")
          }
          if case .event(let time, let event) = item {
            writer.emit(time, event)
          } else {
            writer.pass(item)
          }
        }
        writer.finish(at: end)
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
