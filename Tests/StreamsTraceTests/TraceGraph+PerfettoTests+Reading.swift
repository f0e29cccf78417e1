import Foundation
import Streams
import StreamsTrace
import Testing

// MARK: - Reading a trace back

/// A process and thread.
struct ChromeTrack: Hashable, CustomStringConvertible {
  var pid: Int
  var tid: Int

  init(_ pid: Int, _ tid: Int) {
    self.pid = pid
    self.tid = tid
  }

  var description: String { "\(pid)/\(tid)" }
}

/// A trace read back with `JSONSerialization`, with its slices, arrows, instants and counters
/// replayed as Perfetto's JSON importer reads them.
struct ChromeTraceReading {
  struct Slice: CustomStringConvertible {
    var index: Int
    var track: ChromeTrack
    var start: Int64
    var end: Int64
    var name: String
    var args: [String: Any]
    var delivery: UInt64

    var description: String { "#\(delivery) \(name) [\(start), \(end)] on \(track)" }
  }

  struct FlowEnd {
    var index: Int
    var track: ChromeTrack
    var time: Int64
    var name: String
    var category: String
  }

  struct Instant {
    var index: Int
    var track: ChromeTrack
    var time: Int64
    var name: String
    var args: [String: Any]
  }

  struct Counter {
    var track: ChromeTrack
    var time: Int64
    var name: String
    var live: Int
  }

  let text: String
  let events: [[String: Any]]
  var displayTimeUnit: String?
  var clockBase: String?
  var processNames: [Int: String] = [:]
  var processSortIndex: [Int: Int] = [:]
  var threadNames: [ChromeTrack: String] = [:]
  var threadSortIndex: [ChromeTrack: Int] = [:]
  var slices: [Slice] = []
  var flowStarts: [Int: FlowEnd] = [:]
  var flowEnds: [Int: FlowEnd] = [:]
  var instants: [Instant] = []
  var counters: [Counter] = []
  /// Times whose truncated and rounded nanoseconds differ.
  var inexactTimes: [String] = []
  /// Events out of Perfetto's reading order.
  var unsortedEvents: [String] = []
  /// Slices overlapping without nesting on one track.
  var overlaps: [String] = []
  /// Timed events whose `ts` is not the second key.
  var keyOrderProblems: [String] = []
  /// The slice (position in `slices`) each arrow's start and finish bind to in Perfetto.
  var perfettoBinding: [Int: (source: Int?, target: Int?)] = [:]

  init(_ text: String) throws {
    self.text = text
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    let root = try #require(object as? [String: Any])
    displayTimeUnit = root["displayTimeUnit"] as? String
    clockBase = (root["otherData"] as? [String: Any])?["clockBaseNs"] as? String
    events = try #require(root["traceEvents"] as? [[String: Any]])
    for line in text.split(separator: "\n") where line.hasPrefix("{\"ph\":\"") {
      if !line.hasPrefix("{\"ph\":\"M\""), !line.dropFirst(8).hasPrefix("\",\"ts\":") {
        keyOrderProblems.append(String(line))
      }
    }
    try read()
    replay()
  }

  /// Nanoseconds as Perfetto reads microseconds: × 1000, truncated.
  private mutating func nanoseconds(_ value: Any?, _ what: String) throws -> Int64 {
    let number = try #require(value as? NSNumber, "\(what) is not a number")
    let scaled = number.doubleValue * 1000
    if scaled.rounded(.towardZero) != scaled.rounded() {
      inexactTimes.append("\(what): \(number)")
    }
    guard let nanoseconds = Int64(exactly: scaled.rounded(.towardZero)) else {
      inexactTimes.append("\(what): \(number) is out of range")
      return .max
    }
    return nanoseconds
  }

  private func track(_ event: [String: Any]) throws -> ChromeTrack {
    ChromeTrack(try #require(event["pid"] as? Int), try #require(event["tid"] as? Int))
  }

  private mutating func read() throws {
    var lastKey: (Int64, Int64, Int)?
    for (index, event) in events.enumerated() {
      let phase = try #require(event["ph"] as? String)
      let args = event["args"] as? [String: Any] ?? [:]
      if phase == "M" {
        let pid = try #require(event["pid"] as? Int)
        switch event["name"] as? String {
        case "process_name": processNames[pid] = args["name"] as? String
        case "process_sort_index": processSortIndex[pid] = args["sort_index"] as? Int
        case "thread_name": threadNames[try track(event)] = args["name"] as? String
        case "thread_sort_index": threadSortIndex[try track(event)] = args["sort_index"] as? Int
        default: Issue.record("unknown metadata \(event)")
        }
        continue
      }
      let time = try nanoseconds(event["ts"], "ts of event \(index)")
      let name = try #require(event["name"] as? String)
      var key = Int64.max
      switch phase {
      case "X":
        let duration = try nanoseconds(event["dur"], "dur of event \(index)")
        key = .max - duration
        slices.append(
          Slice(
            index: index, track: try track(event), start: time, end: time + duration,
            name: name, args: args,
            delivery: try #require(Self.id(args["delivery"]), "slice without a delivery")))
      case "s", "f":
        let end = FlowEnd(
          index: index, track: try track(event), time: time, name: name,
          category: try #require(event["cat"] as? String))
        let id = try #require(event["id"] as? Int)
        if phase == "s" {
          #expect(flowStarts.updateValue(end, forKey: id) == nil, "flow \(id) starts twice")
        } else {
          #expect(flowEnds.updateValue(end, forKey: id) == nil, "flow \(id) ends twice")
          #expect(event["bp"] as? String == "e", "flow \(id) binds to the enclosing slice")
        }
      case "i":
        #expect(event["s"] as? String == "t")
        instants.append(
          Instant(index: index, track: try track(event), time: time, name: name, args: args))
      case "C":
        counters.append(
          Counter(
            track: try track(event), time: time, name: name,
            live: try #require(args["live"] as? Int)))
      default:
        Issue.record("unexpected phase \(phase)")
      }
      // Perfetto reads events by time; at one time, the longest slice first, then the rest in
      // file order.
      let current = (time, key, index)
      if let lastKey, lastKey > current {
        unsortedEvents.append("event \(index) at \(time) ns after one at \(lastKey.0) ns")
      }
      lastKey = current
    }
  }

  /// Replays the events in file order (Perfetto's reading order, checked in `read()`): a slice
  /// or thread instant first closes the slices of its track that ended, then opens; an arrow
  /// end binds to the topmost open slice of its track.
  private mutating func replay() {
    var opened: [Int: (slice: Int?, track: ChromeTrack, start: Int64, end: Int64)] = [:]
    for (position, slice) in slices.enumerated() {
      opened[slice.index] = (position, slice.track, slice.start, slice.end)
    }
    for instant in instants {
      opened[instant.index] = (nil, instant.track, instant.time, instant.time)
    }
    var arrowEnds: [Int: (id: Int, start: Bool, track: ChromeTrack)] = [:]
    for (id, start) in flowStarts {
      arrowEnds[start.index] = (id, true, start.track)
    }
    for (id, end) in flowEnds {
      arrowEnds[end.index] = (id, false, end.track)
    }
    var stacks: [ChromeTrack: [(slice: Int?, start: Int64, end: Int64)]] = [:]
    for index in events.indices {
      if let (slice, track, start, end) = opened[index] {
        var stack = stacks[track] ?? []
        while let top = stack.last {
          let bothInstants = top.end == top.start && end == start
          if top.end < start || (top.end == start && !bothInstants) {
            stack.removeLast()
            continue
          }
          if start < top.end && end > top.end {
            overlaps.append("event \(index) [\(start), \(end)] overlaps [\(top.start), \(top.end)]")
          }
          break
        }
        stack.append((slice, start, end))
        stacks[track] = stack
      } else if let arrow = arrowEnds[index] {
        let top = stacks[arrow.track]?.last?.slice
        if arrow.start {
          perfettoBinding[arrow.id, default: (nil, nil)].source = top
        } else {
          perfettoBinding[arrow.id, default: (nil, nil)].target = top
        }
      }
    }
  }

  /// The (cause, effect) delivery ids of the arrows as Perfetto binds them, sorted.
  func boundFlows() throws -> [[UInt64]] {
    #expect(Set(flowStarts.keys) == Set(flowEnds.keys), "every start has a finish")
    var pairs: [[UInt64]] = []
    for (id, binding) in perfettoBinding {
      let source = try #require(binding.source, "flow \(id) starts on no slice")
      let target = try #require(binding.target, "flow \(id) finishes on no slice")
      #expect(source != target)
      #expect(flowStarts[id]?.name == flowEnds[id]?.name)
      #expect(flowStarts[id]?.category == flowEnds[id]?.category)
      #expect(try #require(flowStarts[id]).index < (try #require(flowEnds[id])).index)
      pairs.append([slices[source].delivery, slices[target].delivery])
    }
    return pairs.sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// The (cause, effect) delivery ids of the arrows as `chrome://tracing` binds them: the
  /// deepest slice on the track that encloses the time (the latest-starting one, as they nest),
  /// slices covering [start, end), or their start when they last no time.
  func timeBoundFlows() throws -> [[UInt64]] {
    func enclosing(_ end: FlowEnd) throws -> Slice {
      let candidates = slices.filter {
        $0.track == end.track && $0.start <= end.time
          && (end.time < $0.end || $0.start == $0.end && end.time == $0.start)
      }
      return try #require(candidates.max { ($0.start, -$0.end) < ($1.start, -$1.end) })
    }
    var pairs: [[UInt64]] = []
    for (id, start) in flowStarts {
      let end = try #require(flowEnds[id])
      pairs.append([try enclosing(start).delivery, try enclosing(end).delivery])
    }
    return pairs.sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// A delivery id from the args: a number, or a string of digits above 2^53.
  static func id(_ value: Any?) -> UInt64? {
    if let string = value as? String { return UInt64(string) }
    return (value as? NSNumber)?.uint64Value
  }
}
