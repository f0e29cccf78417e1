/// Writing the laid-out trace as Chrome trace-event JSON.
extension ChromeTraceExport {
  /// The timed events in the order Perfetto reads them.
  enum Timed {
    case slice(Int)
    case flowStart(Int)
    case flowEnd(Int)
    case instant(Int)
    case counter(Int)
  }

  func render() -> String {
    var writer = ChromeTraceWriter()
    writer.raw("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":")
    writer.string("StreamsTrace TraceGraph.chromeTrace()")
    writer.raw(",\"clockBaseNs\":")
    writer.string(String(base))
    writer.raw("},\n\"traceEvents\":[")
    var first = true
    func separate(_ writer: inout ChromeTraceWriter) {
      writer.raw(first ? "\n" : ",\n")
      first = false
    }
    for (index, process) in processes.enumerated() {
      separate(&writer)
      writer.raw("{\"ph\":\"M\",\"pid\":")
      writer.int(index + 1)
      writer.raw(",\"name\":\"process_name\",\"args\":{\"name\":")
      writer.string(process)
      writer.raw("}}")
      separate(&writer)
      writer.raw("{\"ph\":\"M\",\"pid\":")
      writer.int(index + 1)
      writer.raw(",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":")
      writer.int(index + 1)
      writer.raw("}}")
    }
    for thread in threads {
      separate(&writer)
      writer.raw("{\"ph\":\"M\",\"pid\":")
      writer.int(thread.pid)
      writer.raw(",\"tid\":")
      writer.int(thread.tid)
      writer.raw(",\"name\":\"thread_name\",\"args\":{\"name\":")
      writer.string(thread.name)
      writer.raw("}}")
      separate(&writer)
      writer.raw("{\"ph\":\"M\",\"pid\":")
      writer.int(thread.pid)
      writer.raw(",\"tid\":")
      writer.int(thread.tid)
      writer.raw(",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":")
      writer.int(thread.sortIndex)
      writer.raw("}}")
    }
    for event in timedEvents() {
      separate(&writer)
      write(event, to: &writer)
    }
    writer.raw(first ? "]}" : "\n]}")
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  /// Every timed event, sorted by time; at one time slices first (longest first), then arrow
  /// starts, arrow ends, instants and counter samples, each in the order they were made.
  func timedEvents() -> [Timed] {
    var keyed: [(time: UInt64, rank: Int, length: UInt64, order: Int, event: Timed)] = []
    for position in graph.deliveries.indices {
      let length = ends[position] - starts[position]
      keyed.append((starts[position], 0, UInt64.max - length, position, .slice(position)))
    }
    for (index, flow) in flows.enumerated() {
      keyed.append((starts[flow.cause], 1, 0, index, .flowStart(index)))
      keyed.append((starts[flow.effect], 2, 0, index, .flowEnd(index)))
    }
    for (index, instant) in instants.enumerated() {
      keyed.append((instant.time - base, 3, 0, index, .instant(index)))
    }
    for (index, sample) in counters.enumerated() {
      keyed.append((sample.time - base, 4, 0, index, .counter(index)))
    }
    keyed.sort {
      ($0.time, $0.rank, $0.length, $0.order) < ($1.time, $1.rank, $1.length, $1.order)
    }
    return keyed.map(\.event)
  }

  func write(_ event: Timed, to writer: inout ChromeTraceWriter) {
    switch event {
    case .slice(let position):
      writeSlice(position, to: &writer)
    case .flowStart(let index):
      writeFlow(index, start: true, to: &writer)
    case .flowEnd(let index):
      writeFlow(index, start: false, to: &writer)
    case .instant(let index):
      writeInstant(instants[index], to: &writer)
    case .counter(let index):
      writeCounter(counters[index], to: &writer)
    }
  }

  func writeSlice(_ position: Int, to writer: inout ChromeTraceWriter) {
    let delivery = graph.deliveries[position]
    writer.raw("{\"ph\":\"X\",\"ts\":")
    writer.microseconds(starts[position])
    writer.raw(",\"dur\":")
    writer.microseconds(ends[position] - starts[position])
    writeTrack(delivery.to, lane: lanes[position], to: &writer)
    writer.raw(",\"name\":")
    var name = delivery.event.rawValue
    if let value = delivery.value {
      name += ": "
      name += value.count > Self.nameLimit ? String(value.prefix(Self.nameLimit)) + "…" : value
    }
    writer.string(name)
    writer.raw(",\"cat\":\"delivery\",\"args\":{\"delivery\":")
    writer.id(delivery.id)
    writer.raw(",\"event\":")
    writer.string(delivery.event.rawValue)
    writer.raw(",\"from\":")
    writer.id(delivery.from)
    writer.raw(",\"from_node\":")
    writer.string(TraceGraph.describe(nodes[delivery.from], id: delivery.from))
    writer.raw(",\"to\":")
    writer.id(delivery.to)
    if let cause = delivery.cause {
      writer.raw(",\"cause\":")
      writer.id(cause)
    }
    writer.raw(",\"hop\":")
    writer.string(delivery.hop.rawValue)
    if let queue = delivery.queue {
      writer.raw(",\"queue\":")
      writer.string(queue)
    }
    writer.raw(",\"thread\":")
    writer.int(Int(delivery.thread))
    writer.raw(",\"time_ns\":")
    writer.id(delivery.time)
    writer.raw(",\"end\":")
    writer.string(endings[position].rawValue)
    if let value = delivery.value {
      writer.raw(",\"value\":")
      writer.string(value)
    }
    writer.raw("}}")
  }

  func writeFlow(_ index: Int, start: Bool, to writer: inout ChromeTraceWriter) {
    let flow = flows[index]
    let position = start ? flow.cause : flow.effect
    writer.raw(start ? "{\"ph\":\"s\",\"ts\":" : "{\"ph\":\"f\",\"ts\":")
    writer.microseconds(starts[position])
    writeTrack(graph.deliveries[position].to, lane: lanes[position], to: &writer)
    writer.raw(",\"name\":")
    writer.string(graph.deliveries[flow.effect].hop.rawValue)
    writer.raw(",\"cat\":\"cause\",\"id\":")
    writer.int(index + 1)
    if !start {
      writer.raw(",\"bp\":\"e\"")
    }
    writer.raw("}")
  }

  func writeInstant(_ instant: Instant, to writer: inout ChromeTraceWriter) {
    writer.raw("{\"ph\":\"i\",\"ts\":")
    writer.microseconds(instant.time - base)
    writeTrack(instant.node, lane: 0, to: &writer)
    writer.raw(",\"s\":\"t\",\"name\":")
    writer.string(instant.name)
    writer.raw(",\"cat\":\"subscription\",\"args\":{\"from\":")
    writer.id(instant.edge.from)
    writer.raw(",\"to\":")
    writer.id(instant.edge.to)
    writer.raw(",\"kind\":")
    writer.string(instant.edge.kind.rawValue)
    writer.raw(",\"which\":")
    writer.string(instant.which)
    writer.raw(",\"subscriptions\":")
    writer.int(instant.edge.count)
    writer.raw(",\"live\":")
    writer.int(instant.edge.live)
    writer.raw(",\"time_ns\":")
    writer.id(instant.time)
    if let owner = instant.owner {
      writer.raw(",\"owner\":")
      writer.string(owner)
    }
    if let ownerGone = instant.ownerGone {
      writer.raw(ownerGone ? ",\"ownerGone\":true" : ",\"ownerGone\":false")
    }
    writer.raw("}}")
  }

  func writeCounter(_ sample: CounterSample, to writer: inout ChromeTraceWriter) {
    writer.raw("{\"ph\":\"C\",\"ts\":")
    writer.microseconds(sample.time - base)
    writeTrack(sample.node, lane: 0, to: &writer)
    writer.raw(",\"name\":")
    writer.string("\(nodes[sample.node]?.kind ?? "node") #\(sample.node) subscriptions")
    writer.raw(",\"args\":{\"live\":")
    writer.int(sample.live)
    writer.raw("}}")
  }

  func writeTrack(_ node: UInt64, lane: Int, to writer: inout ChromeTraceWriter) {
    let nodeTracks = tracks[node]!
    writer.raw(",\"pid\":")
    writer.int(nodeTracks.pid)
    writer.raw(",\"tid\":")
    writer.int(nodeTracks.tids[lane])
  }
}

/// The two ends of a subscription or control edge.
struct EdgeEnds: Hashable {
  var node: UInt64
  var subscriber: UInt64

  init(_ node: UInt64, _ subscriber: UInt64) {
    self.node = node
    self.subscriber = subscriber
  }
}

/// `a + b`, or `UInt64.max` when that overflows.
func saturatingSum(_ a: UInt64, _ b: UInt64) -> UInt64 {
  let (sum, overflow) = a.addingReportingOverflow(b)
  return overflow ? .max : sum
}

// MARK: - JSON

/// Writes JSON bytes for the trace.
struct ChromeTraceWriter {
  private(set) var bytes: [UInt8] = []

  mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  mutating func int(_ value: Int) {
    bytes.append(contentsOf: String(value).utf8)
  }

  /// An id or a time: a number up to 2^53, where doubles are exact; a string of digits above.
  mutating func id(_ value: UInt64) {
    if value <= 1 << 53 {
      bytes.append(contentsOf: String(value).utf8)
    } else {
      string(String(value))
    }
  }

  /// `nanoseconds` as microseconds, written so that `trunc(µs × 1000)` and `round(µs × 1000)`
  /// in doubles (how Perfetto and scripts read `ts` and `dur`) give the nanoseconds back.
  mutating func microseconds(_ nanoseconds: UInt64) {
    bytes.append(contentsOf: microsecondsText(nanoseconds).utf8)
  }

  /// Appends `value` as a JSON string, escaped as ``TraceGraph/dump()`` escapes.
  mutating func string(_ value: String) {
    appendJSONString(value, to: &bytes)
  }
}

/// `nanoseconds` as a decimal number of microseconds that reads back exactly: the plain
/// three-decimal form when doubles carry it, else that form with a sub-nanosecond tail
/// (`1.001` reads as 1000.999… ns, so it is written `1.00101`).
func microsecondsText(_ nanoseconds: UInt64) -> String {
  let whole = String(nanoseconds / 1000)
  let fraction = nanoseconds % 1000
  if fraction == 0 { return whole }
  let digits = String(fraction)
  let exact = whole + "." + String(repeating: "0", count: 3 - digits.count) + digits
  var trimmed = exact
  while trimmed.hasSuffix("0") { trimmed.removeLast() }
  for candidate in [trimmed, exact + "01", exact + "1"] where readsBack(candidate, nanoseconds) {
    return candidate
  }
  return trimmed
}

/// Whether `text`, read as a double and multiplied by 1000, truncates and rounds to
/// `nanoseconds`.
func readsBack(_ text: String, _ nanoseconds: UInt64) -> Bool {
  guard let value = Double(text) else { return false }
  let scaled = value * 1000
  let target = Double(nanoseconds)
  return scaled.rounded(.towardZero) == target && scaled.rounded() == target
}
