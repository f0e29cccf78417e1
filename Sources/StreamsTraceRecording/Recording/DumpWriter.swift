// MARK: - Writing

/// Writes a graph as JSON bytes in the fixed key order.
struct DumpWriter {
  private(set) var bytes: [UInt8] = []

  mutating func write(_ graph: TraceGraph) {
    raw("{\"format\":")
    string(dumpFormatName)
    raw(",\"version\":")
    signed(TraceGraph.formatVersion)
    if graph.origin != .recorded {
      raw(",\"origin\":")
      string(graph.origin.rawValue)
    }
    raw(",\n\"nodes\":")
    array(graph.nodes) { $0.node($1) }
    raw(",\n\"edges\":")
    array(graph.edges) { $0.edge($1) }
    raw(",\n\"subscriptions\":")
    array(graph.subscriptions) { $0.subscription($1) }
    raw(",\n\"deliveries\":")
    array(graph.deliveries) { $0.delivery($1) }
    raw("}")
  }

  private mutating func node(_ node: TraceGraph.Node) {
    raw("{\"id\":")
    unsigned(node.id)
    raw(",\"kind\":")
    string(node.kind)
    raw(",\"role\":")
    string(node.role.rawValue)
    raw(",\"file\":")
    string(node.file)
    raw(",\"line\":")
    unsigned(UInt64(node.line))
    if let owner = node.owner {
      raw(",\"owner\":")
      string(owner)
    }
    if let name = node.name {
      raw(",\"name\":")
      string(name)
    }
    raw(",\"upstreams\":")
    ids(node.upstreams)
    raw(",\"controlUpstreams\":")
    ids(node.controlUpstreams)
    raw(",\"subscriptionCount\":")
    signed(node.subscriptionCount)
    raw(",\"eventCount\":")
    signed(node.eventCount)
    raw(",\"recentValues\":[")
    for (index, value) in node.recentValues.enumerated() {
      if index > 0 {
        raw(",")
      }
      string(value)
    }
    raw("]}")
  }

  private mutating func edge(_ edge: TraceGraph.Edge) {
    raw("{\"from\":")
    unsigned(edge.from)
    raw(",\"to\":")
    unsigned(edge.to)
    raw(",\"kind\":")
    string(edge.kind.rawValue)
    raw(",\"count\":")
    signed(edge.count)
    raw(",\"live\":")
    signed(edge.live)
    raw(",\"firstTime\":")
    unsigned(edge.firstTime)
    raw(",\"lastTime\":")
    unsigned(edge.lastTime)
    raw("}")
  }

  private mutating func subscription(_ subscription: TraceGraph.Subscription) {
    raw("{\"id\":")
    unsigned(subscription.id)
    raw(",\"node\":")
    unsigned(subscription.node)
    raw(",\"subscriber\":")
    unsigned(subscription.subscriber)
    if let owner = subscription.owner {
      raw(",\"owner\":")
      string(owner)
    }
    raw(subscription.ownerGone ? ",\"ownerGone\":true" : ",\"ownerGone\":false")
    raw(",\"file\":")
    string(subscription.file)
    raw(",\"line\":")
    unsigned(UInt64(subscription.line))
    if let bag = subscription.bag {
      raw(",\"bag\":{\"file\":")
      string(bag.file)
      raw(",\"line\":")
      unsigned(UInt64(bag.line))
      if let owner = bag.owner {
        raw(",\"owner\":")
        string(owner)
      }
      raw("}")
    }
    raw("}")
  }

  private mutating func delivery(_ delivery: TraceGraph.Delivery) {
    raw("{\"id\":")
    unsigned(delivery.id)
    raw(",\"from\":")
    unsigned(delivery.from)
    raw(",\"to\":")
    unsigned(delivery.to)
    raw(",\"event\":")
    string(delivery.event.rawValue)
    if let cause = delivery.cause {
      raw(",\"cause\":")
      unsigned(cause)
    }
    raw(",\"hop\":")
    string(delivery.hop.rawValue)
    raw(",\"thread\":")
    unsigned(UInt64(delivery.thread))
    raw(",\"time\":")
    unsigned(delivery.time)
    if let queue = delivery.queue {
      raw(",\"queue\":")
      string(queue)
    }
    if let value = delivery.value {
      raw(",\"value\":")
      string(value)
    }
    raw("}")
  }

  /// `[` and `]` around the elements, one element per line; `[]` when empty.
  private mutating func array<Element>(
    _ elements: [Element], _ writeElement: (inout DumpWriter, Element) -> Void
  ) {
    raw("[")
    for (index, element) in elements.enumerated() {
      raw(index == 0 ? "\n" : ",\n")
      writeElement(&self, element)
    }
    raw(elements.isEmpty ? "]" : "\n]")
  }

  private mutating func ids(_ ids: [UInt64]) {
    raw("[")
    for (index, id) in ids.enumerated() {
      if index > 0 {
        raw(",")
      }
      unsigned(id)
    }
    raw("]")
  }

  private mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  private mutating func unsigned(_ value: UInt64) {
    bytes.append(contentsOf: String(value).utf8)
  }

  private mutating func signed(_ value: Int) {
    bytes.append(contentsOf: String(value).utf8)
  }

  private mutating func string(_ value: String) {
    appendJSONString(value, to: &bytes)
  }
}

/// The value of the top-level `format` key.
package let dumpFormatName = "streams-trace"

/// Appends `value` as a JSON string: `"` and `\` escaped, control characters as `\n`, `\r`,
/// `\t`, `\b`, `\f` or `\u00XX`, everything else as its UTF-8 bytes.
package func appendJSONString(_ value: String, to bytes: inout [UInt8]) {
  bytes.append(ASCII.quote)
  for byte in value.utf8 {
    switch byte {
    case ASCII.quote, ASCII.backslash:
      bytes.append(ASCII.backslash)
      bytes.append(byte)
    case ASCII.lineFeed:
      bytes.append(ASCII.backslash)
      bytes.append(UInt8(ascii: "n"))
    case ASCII.carriageReturn:
      bytes.append(ASCII.backslash)
      bytes.append(UInt8(ascii: "r"))
    case ASCII.tab:
      bytes.append(ASCII.backslash)
      bytes.append(UInt8(ascii: "t"))
    case 0x08:
      bytes.append(ASCII.backslash)
      bytes.append(UInt8(ascii: "b"))
    case 0x0C:
      bytes.append(ASCII.backslash)
      bytes.append(UInt8(ascii: "f"))
    case 0..<0x20:
      bytes.append(contentsOf: "\\u00".utf8)
      bytes.append(hexDigit(byte >> 4))
      bytes.append(hexDigit(byte & 0xF))
    default:
      bytes.append(byte)
    }
  }
  bytes.append(ASCII.quote)
}

private func hexDigit(_ value: UInt8) -> UInt8 {
  value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
}

package enum ASCII {
  package static let quote = UInt8(ascii: "\"")
  package static let backslash = UInt8(ascii: "\\")
  package static let lineFeed = UInt8(ascii: "\n")
  package static let carriageReturn = UInt8(ascii: "\r")
  package static let tab = UInt8(ascii: "\t")
  package static let space = UInt8(ascii: " ")
  package static let comma = UInt8(ascii: ",")
  package static let colon = UInt8(ascii: ":")
  package static let openBrace = UInt8(ascii: "{")
  package static let closeBrace = UInt8(ascii: "}")
  package static let openBracket = UInt8(ascii: "[")
  package static let closeBracket = UInt8(ascii: "]")
  package static let minus = UInt8(ascii: "-")
  package static let plus = UInt8(ascii: "+")
  package static let dot = UInt8(ascii: ".")
  package static let zero = UInt8(ascii: "0")
  package static let nine = UInt8(ascii: "9")
}
