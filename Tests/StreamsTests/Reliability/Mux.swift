// A `Mux` merges the logs of an operator's inputs in time order. An input's items at the tick it
// is subscribed are sent while subscribing, so they are handled at once, before the operator
// subscribes anything else. Two inputs with items at the same later tick were scheduled
// independently; the model does not guess their order (`ModelAmbiguity`).

/// The inputs of one multi-source operator, merged in time order.
final class Mux {
  private struct Input {
    var items: [LogItem]
    var index = 0
    var open: [Int] = []

    var nextTime: Int? { index < items.count ? items[index].time : nil }
  }

  /// Called for every event of an input: the input's key, the tick, the event.
  typealias Handler = (Int, Int, ModelEvent) throws -> Void

  private var inputs: [Int: Input] = [:]
  private var nextKey = 0
  var writer = LogWriter()
  var handler: Handler = { _, _, _ in }

  var finished: Bool { writer.finished }
  /// How many inputs are subscribed.
  var count: Int { inputs.count }

  func isSubscribed(_ key: Int) -> Bool { inputs[key] != nil }

  /// How an operator that subscribes its inputs in one go treats one subscribed after the
  /// result ended in the same tick.
  enum Forced {
    /// Not subscribed once anything ended the result.
    case no
    /// Subscribed regardless (RxSwift's sinks that subscribe all their sources in one go): its
    /// subscriptions are made, and disposed at once.
    case always
    /// Subscribed when the consumer ended the result (its disposal waits until subscribing
    /// returns), not when the operator itself sent a terminal event (Streams' `merge`; RxSwift's
    /// `MergeArray` still subscribes the remaining sources into its group then, and disposes
    /// them when subscribing returns: no event shows the difference, only those sources'
    /// subscriptions at that tick; not in the migration guide yet).
    case unlessEnded
  }

  /// Subscribes an input at `time` and handles what it sends while being subscribed. Returns its
  /// key.
  @discardableResult
  func add(_ log: [LogItem], at time: Int, forced: Forced = .no) throws -> Int {
    let key = nextKey
    nextKey += 1
    guard !writer.finished else {
      if forced == .always { discard(log, at: time) }
      return key
    }
    var log = log
    if forced != .no {
      // Subscribed even if the consumer ended the result earlier in this tick.
      for (index, item) in log.enumerated() where item.time == time {
        guard case .subscribe(_, let source, let id, false) = item else { continue }
        log[index] = .subscribe(time, source: source, id: id, forced: true)
      }
    }
    inputs[key] = Input(items: epilogueFirst(log))
    try pump(key, through: time)
    return key
  }

  /// An input subscribed at `time` and disposed at once, what it sends meanwhile ignored (an
  /// `amb` loser subscribed after the winner was chosen).
  func discard(_ log: [LogItem], at time: Int) {
    for item in log where item.time == time {
      guard case .subscribe(_, let source, let id, _) = item else { continue }
      writer.pass(.subscribe(time, source: source, id: id, forced: true))
      if !writer.finished { writer.pass(.unsubscribe(time, id: id)) }
    }
  }

  /// Disposes input `key` at `time`.
  func remove(_ key: Int, at time: Int) {
    guard let input = inputs.removeValue(forKey: key) else { return }
    for id in input.open { writer.pass(.unsubscribe(time, id: id)) }
    // A forced subscription the input still makes in this tick is made and disposed at once.
    for item in input.items[input.index...] where item.time == time {
      if case .boundary = item { break }
      guard case .subscribe(_, _, let id, true) = item else { continue }
      writer.pass(item)
      writer.pass(.unsubscribe(time, id: id))
    }
  }

  /// Handles the items of input `key` up to tick `time`.
  private func pump(_ key: Int, through time: Int) throws {
    while let input = inputs[key], let next = input.nextTime, next <= time {
      let item = input.items[input.index]
      inputs[key]?.index += 1
      if writer.finished {
        // What the input still records in this tick: a forced subscription (see `startWith`).
        switch item {
        case .subscribe, .boundary: writer.pass(item)
        default: break
        }
        continue
      }
      switch item {
      case .subscribe(_, _, let id, _):
        inputs[key]?.open.append(id)
        writer.pass(item)
      case .unsubscribe(_, let id):
        inputs[key]?.open.removeAll { $0 == id }
        writer.pass(item)
      case .mark, .boundary: writer.pass(item)
      case .event(let time, let event):
        try handler(key, time, event)
      }
    }
  }

  /// Handles every input's items in time order; returns the operator's log.
  func run() throws -> [LogItem] {
    while !writer.finished {
      var best: (key: Int, time: Int)?
      var tie = false
      for key in inputs.keys.sorted() {
        guard let time = inputs[key]?.nextTime else { continue }
        if let current = best, current.time <= time {
          if current.time == time { tie = true }
          continue
        }
        best = (key, time)
        tie = false
      }
      guard let best else { break }
      if tie { throw ModelAmbiguity(description: "two inputs send at \(best.time)") }
      try pump(best.key, through: best.time)
    }
    return writer.items
  }
}
