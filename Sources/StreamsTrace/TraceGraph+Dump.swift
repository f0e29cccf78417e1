extension TraceGraph {
  /// Writes the graph as a versioned JSON document (format `"streams-trace"`, version 1) that
  /// ``init(dump:)`` reads back into an equal graph.
  ///
  /// ```swift
  /// let graph = TraceGraph(nodes: [
  ///   .init(id: 1, kind: "PublishSubject", role: .subject, file: "App/Search.swift", line: 12)
  /// ])
  /// print(graph.dump())
  /// // Prints
  /// // {"format":"streams-trace","version":1,
  /// // "nodes":[
  /// // {"id":1,"kind":"PublishSubject","role":"subject","file":"App/Search.swift",⏎
  /// // "line":12,"upstreams":[],"controlUpstreams":[],"subscriptionCount":0,"eventCount":0,⏎
  /// // "recentValues":[]}
  /// // ],
  /// // "edges":[],
  /// // "subscriptions":[],
  /// // "deliveries":[]}
  /// ```
  ///
  /// (`⏎` marks where this page breaks the node's line; the document has it on one line.)
  ///
  /// The document is UTF-8 JSON (RFC 8259): one object whose keys come in a fixed order, one
  /// array entry per line, no other whitespace and no trailing newline, so the same graph always
  /// gives the same bytes and two dumps diff line by line. `Guides/TraceFormat.md` describes the
  /// format for readers written in other languages.
  ///
  /// Schema of version 1. Numbers are JSON integers in plain decimal, exact: *uint64* is
  /// 0...18446744073709551615, *uint32* 0...4294967295, *uint* and *int* are the platform's `UInt`
  /// and `Int` (64 bits on 64-bit platforms). Every key is required except those marked optional,
  /// which are left out when the value is `nil`.
  ///
  /// - Top level: `format` (string, always `"streams-trace"`), `version` (int, `1`), `nodes`,
  ///   `edges`, `subscriptions`, `deliveries` (arrays of the objects below, in the graph's order).
  /// - Node: `id` (uint64, unique in the trace), `kind` (string: `"map"`, `"PublishSubject"`,
  ///   `"subscribe"`), `role` (`"source"`, `"operator"`, `"subject"` or `"terminal"`), `file`
  ///   (string, the `#fileID` of the call that made the node), `line` (uint, its line), `owner`
  ///   (optional string, the owning type), `name` (optional string, a given name such as
  ///   `UIState.contentAlpha`), `upstreams` (array of node ids it takes elements from),
  ///   `controlUpstreams` (array of node ids it subscribes to for control only),
  ///   `subscriptionCount` (int, subscriptions ever made to it), `eventCount` (int, events it
  ///   delivered, once per subscriber), `recentValues` (array of strings, oldest first as
  ///   ``TraceGraph/Node/recentValues`` says; empty when values are not recorded).
  /// - Edge: `from`, `to` (uint64 node ids), `kind` (`"subscription"`, `"emission"`, `"control"`
  ///   or `"chain"`), `count` (int: events for emission and chain edges, subscriptions ever made
  ///   for the others), `live` (int, live subscriptions; 0 for emission and chain edges),
  ///   `firstTime`, `lastTime` (uint64 nanoseconds of the recorder's clock).
  /// - Subscription: `id` (uint64), `node` (uint64, the node subscribed to), `subscriber` (uint64,
  ///   the subscribing node), `owner` (optional string), `ownerGone` (bool, `true` for a leak: the
  ///   owner is gone and the subscription is live), `file` (string), `line` (uint): where it was
  ///   made; `bag` (optional object: `file`, `line`, optional `owner`), the `DisposeBag` that keeps
  ///   it.
  /// - Delivery: `id` (uint64, increasing with time), `from`, `to` (uint64 node ids), `event`
  ///   (`"next"`, `"error"` or `"completed"`), `cause` (optional uint64, the delivery that caused
  ///   this one; absent for a root event), `hop` (`"direct"`, `"scheduler"` or `"task"`), `thread`
  ///   (uint32, 1 is the first thread seen), `time` (uint64 nanoseconds), `value` (optional
  ///   string, the element's description).
  ///
  /// Counts (`subscriptionCount`, `eventCount`, `count`, `live`) are Swift `Int`s: never negative
  /// in a recorded trace, but a negative value set by hand is written as such and read back.
  ///
  /// - Returns: The JSON document. Writing it has no side effects; it cannot fail.
  public func dump() -> String {
    var writer = DumpWriter()
    writer.write(self)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  /// Reads a graph from a document written by ``dump()``.
  ///
  /// ```swift
  /// let graph = try TraceGraph(dump: text)
  /// print(graph.nodes.count)
  /// // Prints "12"
  ///
  /// do {
  ///   _ = try TraceGraph(dump: #"{"format":"streams-trace","version":1,"nodes":[}"#)
  /// } catch {
  ///   print(error)
  /// }
  /// // Prints "offset 47 (line 1, column 48) at nodes: expected a value or ']' to end the
  /// // array, found '}'"
  /// ```
  ///
  /// The reader is strict about JSON (RFC 8259: no comments, no trailing commas, no single
  /// quotes, no unescaped control characters in strings, unpaired UTF-16 surrogate escapes
  /// rejected) and lenient about the schema in the directions that keep it forward compatible:
  /// keys it does not know are skipped, whatever their value, and `null` stands for an absent
  /// optional key. A leading byte order mark is skipped. Numbers read into fields must be
  /// integers written without fraction or exponent that fit the field's type exactly. Arrays and
  /// objects may nest at most 64 deep. The reader checks syntax and types, not the graph's
  /// consistency (an edge may name a node that is not in `nodes`, as a hand-made graph may).
  ///
  /// - Parameter text: A dump, as written by ``dump()`` or by a compatible writer.
  /// - Throws: ``TraceDumpError`` when the text is not valid JSON, is not a trace dump
  ///   (`format` is not `"streams-trace"`), has a version this reader does not support, lacks a
  ///   required key, repeats a key, or has a value of the wrong type or out of range. The error
  ///   gives the UTF-8 byte offset, line and column, the path of the value where known, and what
  ///   was expected and found. Any input gives a graph or an error; none traps.
  public init(dump text: String) throws(TraceDumpError) {
    var parser = DumpParser(text)
    let root = try parser.parseDocument()
    let decoder = DumpDecoder(bytes: parser.bytes, hasByteOrderMark: parser.hasByteOrderMark)
    self = try decoder.graph(root)
  }
}

/// Why a trace dump could not be read, and where.
///
/// ```swift
/// do {
///   _ = try TraceGraph(dump: "{\"format\":\"streams-trace\",\n\"version\":2}")
/// } catch {
///   print(error)
/// }
/// // Prints "offset 37 (line 2, column 11) at version: unsupported version 2: this reader
/// // supports version 1 (the dump was written by a newer StreamsTrace)"
/// ```
public struct TraceDumpError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The UTF-8 byte offset in the input where the problem is (the input's length when the input
  /// ended too early).
  public var offset: Int
  /// The 1-based line of ``offset`` (lines end at `\n`, `\r\n` or `\r`).
  public var line: Int
  /// The 1-based column of ``offset``, counted in Unicode scalars from the start of the line.
  public var column: Int
  /// Where the problem is in the document, like `nodes[3].upstreams[1]`; `nil` at the top level.
  public var path: String?
  /// What was expected and what was found.
  public var message: String

  /// An error with the given position and message.
  ///
  /// - Parameters:
  ///   - offset: The UTF-8 byte offset in the input.
  ///   - line: The 1-based line of the offset.
  ///   - column: The 1-based column of the offset, in Unicode scalars.
  ///   - path: The path of the value in the document, if known.
  ///   - message: What was expected and what was found.
  public init(offset: Int, line: Int, column: Int, path: String? = nil, message: String) {
    self.offset = offset
    self.line = line
    self.column = column
    self.path = path
    self.message = message
  }

  /// `offset 1234 (line 40, column 7) at nodes[3]: expected ',' or ']' after an array element,
  /// found '}'`.
  public var description: String {
    var text = "offset \(offset) (line \(line), column \(column))"
    if let path {
      text += " at \(path)"
    }
    return text + ": " + message
  }
}

// MARK: - Writing

/// Writes a graph as JSON bytes in the fixed key order.
private struct DumpWriter {
  private(set) var bytes: [UInt8] = []

  mutating func write(_ graph: TraceGraph) {
    raw("{\"format\":")
    string(dumpFormatName)
    raw(",\"version\":")
    signed(TraceGraph.formatVersion)
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
private let dumpFormatName = "streams-trace"

/// Appends `value` as a JSON string: `"` and `\` escaped, control characters as `\n`, `\r`,
/// `\t`, `\b`, `\f` or `\u00XX`, everything else as its UTF-8 bytes.
func appendJSONString(_ value: String, to bytes: inout [UInt8]) {
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

private enum ASCII {
  static let quote = UInt8(ascii: "\"")
  static let backslash = UInt8(ascii: "\\")
  static let lineFeed = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")
  static let tab = UInt8(ascii: "\t")
  static let space = UInt8(ascii: " ")
  static let comma = UInt8(ascii: ",")
  static let colon = UInt8(ascii: ":")
  static let openBrace = UInt8(ascii: "{")
  static let closeBrace = UInt8(ascii: "}")
  static let openBracket = UInt8(ascii: "[")
  static let closeBracket = UInt8(ascii: "]")
  static let minus = UInt8(ascii: "-")
  static let plus = UInt8(ascii: "+")
  static let dot = UInt8(ascii: ".")
  static let zero = UInt8(ascii: "0")
  static let nine = UInt8(ascii: "9")
}

// MARK: - Parsing JSON

/// A JSON value with the byte offset where it starts.
private struct JSONValue {
  enum Kind {
    case object([JSONMember])
    case array([JSONValue])
    case string(String)
    case number(JSONNumber)
    case bool(Bool)
    case null
  }

  var offset: Int
  var kind: Kind
}

/// One `"key": value` of an object.
private struct JSONMember {
  var key: String
  var keyOffset: Int
  var value: JSONValue
}

/// A number as written: its bytes, checked against RFC 8259's grammar, converted when a field
/// needs it.
private struct JSONNumber {
  var start: Int
  var end: Int
  var isNegative: Bool
  var hasFraction: Bool
  var hasExponent: Bool
}

/// One step of the path to the value being parsed.
private enum PathComponent {
  case key(String)
  case index(Int)
}

/// A strict RFC 8259 parser into ``JSONValue`` trees, keeping the path for its errors.
private struct DumpParser {
  /// How deep arrays and objects may nest, the dump object included.
  static let maximumDepth = 64

  let bytes: [UInt8]
  let hasByteOrderMark: Bool
  private var index: Int
  private var depth = 0
  private var path: [PathComponent] = []

  init(_ text: String) {
    bytes = Array(text.utf8)
    hasByteOrderMark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
    index = hasByteOrderMark ? 3 : 0
  }

  mutating func parseDocument() throws(TraceDumpError) -> JSONValue {
    skipWhitespace()
    guard current == ASCII.openBrace else {
      throw error("expected '{' to start a trace dump, found \(found())")
    }
    let root = try parseValue()
    skipWhitespace()
    guard index == bytes.count else {
      throw error("expected the end of the input after the dump object, found \(found())")
    }
    return root
  }

  private var current: UInt8? {
    index < bytes.count ? bytes[index] : nil
  }

  private func found() -> String {
    describeByte(at: index, in: bytes)
  }

  private func error(_ message: String, at offset: Int? = nil) -> TraceDumpError {
    makeDumpError(
      bytes: bytes, hasByteOrderMark: hasByteOrderMark, offset: offset ?? index,
      path: render(path), message: message)
  }

  private mutating func skipWhitespace() {
    while let byte = current,
      byte == ASCII.space || byte == ASCII.lineFeed || byte == ASCII.carriageReturn
        || byte == ASCII.tab
    {
      index += 1
    }
  }

  /// Parses the value at `index`; whitespace before it is already skipped.
  private mutating func parseValue() throws(TraceDumpError) -> JSONValue {
    let start = index
    guard let byte = current else {
      throw error("expected a value, found end of input")
    }
    switch byte {
    case ASCII.openBrace:
      return try parseObject()
    case ASCII.openBracket:
      return try parseArray()
    case ASCII.quote:
      return JSONValue(offset: start, kind: .string(try parseString()))
    case ASCII.minus, ASCII.zero...ASCII.nine:
      return JSONValue(offset: start, kind: .number(try parseNumber()))
    case UInt8(ascii: "t"):
      try parseLiteral("true")
      return JSONValue(offset: start, kind: .bool(true))
    case UInt8(ascii: "f"):
      try parseLiteral("false")
      return JSONValue(offset: start, kind: .bool(false))
    case UInt8(ascii: "n"):
      try parseLiteral("null")
      return JSONValue(offset: start, kind: .null)
    default:
      throw error(
        "expected a value (an object, array, string, number, true, false or null), found \(found())"
      )
    }
  }

  private mutating func enterNesting() throws(TraceDumpError) {
    depth += 1
    if depth > Self.maximumDepth {
      throw error(
        "expected at most \(Self.maximumDepth) nested arrays and objects, found one more \(found())"
      )
    }
  }

  private mutating func parseObject() throws(TraceDumpError) -> JSONValue {
    let start = index
    try enterNesting()
    defer { depth -= 1 }
    index += 1
    var members: [JSONMember] = []
    skipWhitespace()
    if current == ASCII.closeBrace {
      index += 1
      return JSONValue(offset: start, kind: .object(members))
    }
    while true {
      guard current == ASCII.quote else {
        throw error(
          members.isEmpty
            ? "expected '\"' to start a key or '}' to end the object, found \(found())"
            : "expected '\"' to start a key after ',', found \(found())")
      }
      let keyOffset = index
      let key = try parseString()
      skipWhitespace()
      guard current == ASCII.colon else {
        throw error("expected ':' after the key \(quoted(key)), found \(found())")
      }
      index += 1
      skipWhitespace()
      path.append(.key(key))
      let value = try parseValue()
      path.removeLast()
      members.append(JSONMember(key: key, keyOffset: keyOffset, value: value))
      skipWhitespace()
      switch current {
      case ASCII.comma:
        index += 1
        skipWhitespace()
      case ASCII.closeBrace:
        index += 1
        return JSONValue(offset: start, kind: .object(members))
      default:
        throw error("expected ',' or '}' after an object member, found \(found())")
      }
    }
  }

  private mutating func parseArray() throws(TraceDumpError) -> JSONValue {
    let start = index
    try enterNesting()
    defer { depth -= 1 }
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if current == ASCII.closeBracket {
      index += 1
      return JSONValue(offset: start, kind: .array(elements))
    }
    while true {
      guard let byte = current, startsValue(byte) else {
        // A value is missing: say so in the words of this position.
        throw error(
          elements.isEmpty
            ? "expected a value or ']' to end the array, found \(found())"
            : "expected a value after ',', found \(found())")
      }
      path.append(.index(elements.count))
      let element = try parseValue()
      path.removeLast()
      elements.append(element)
      skipWhitespace()
      switch current {
      case ASCII.comma:
        index += 1
        skipWhitespace()
      case ASCII.closeBracket:
        index += 1
        return JSONValue(offset: start, kind: .array(elements))
      default:
        throw error("expected ',' or ']' after an array element, found \(found())")
      }
    }
  }

  private mutating func parseLiteral(_ literal: StaticString) throws(TraceDumpError) {
    let missing: UInt8? = literal.withUTF8Buffer { expected in
      for expectedByte in expected {
        guard current == expectedByte else {
          return expectedByte
        }
        index += 1
      }
      return nil
    }
    if let missing {
      throw error(
        "expected '\(Character(Unicode.Scalar(missing)))' to complete '\(literal)', found"
          + " \(found())"
      )
    }
  }

  private mutating func parseString() throws(TraceDumpError) -> String {
    let open = index
    index += 1
    var runStart = index
    var unescaped: [UInt8] = []
    var hasEscapes = false
    while let byte = current {
      switch byte {
      case ASCII.quote:
        let string: String
        if hasEscapes {
          unescaped.append(contentsOf: bytes[runStart..<index])
          string = String(decoding: unescaped, as: UTF8.self)
        } else {
          string = String(decoding: bytes[runStart..<index], as: UTF8.self)
        }
        index += 1
        return string
      case ASCII.backslash:
        hasEscapes = true
        unescaped.append(contentsOf: bytes[runStart..<index])
        try parseEscape(into: &unescaped)
        runStart = index
      case 0..<0x20:
        throw error(
          "expected a character or '\"' in a string, found \(found()) (control characters must be"
            + " escaped)")
      default:
        index += 1
      }
    }
    throw error("expected '\"' to end the string that starts at offset \(open), found end of input")
  }

  /// Parses the escape at `index` (a backslash) and appends what it stands for as UTF-8.
  private mutating func parseEscape(into output: inout [UInt8]) throws(TraceDumpError) {
    let escapeStart = index
    index += 1
    guard let byte = current else {
      throw error("expected an escape character after '\\', found end of input")
    }
    let unescaped: UInt8
    switch byte {
    case ASCII.quote, ASCII.backslash, UInt8(ascii: "/"):
      unescaped = byte
    case UInt8(ascii: "b"):
      unescaped = 0x08
    case UInt8(ascii: "f"):
      unescaped = 0x0C
    case UInt8(ascii: "n"):
      unescaped = ASCII.lineFeed
    case UInt8(ascii: "r"):
      unescaped = ASCII.carriageReturn
    case UInt8(ascii: "t"):
      unescaped = ASCII.tab
    case UInt8(ascii: "u"):
      index += 1
      let scalar = try parseUnicodeEscape(startingAt: escapeStart)
      UTF8.encode(scalar) { output.append($0) }
      return
    default:
      throw error(
        "expected an escape character ('\"', '\\', '/', 'b', 'f', 'n', 'r', 't' or 'u') after"
          + " '\\', found \(found())")
    }
    output.append(unescaped)
    index += 1
  }

  /// Parses the four hex digits after `\u` (and a second `\uXXXX` for a surrogate pair).
  private mutating func parseUnicodeEscape(
    startingAt escapeStart: Int
  ) throws(TraceDumpError) -> Unicode.Scalar {
    let unit = try parseHex4()
    var value = UInt32(unit)
    switch unit {
    case 0xD800...0xDBFF:
      guard index + 1 < bytes.count, bytes[index] == ASCII.backslash,
        bytes[index + 1] == UInt8(ascii: "u")
      else {
        throw error(
          "expected '\\u' and a low surrogate (DC00 to DFFF) after the high surrogate"
            + " \\u\(hex4(value)), found \(found())")
      }
      let lowStart = index
      index += 2
      let low = try parseHex4()
      guard (0xDC00...0xDFFF).contains(low) else {
        throw error(
          "expected a low surrogate (\\uDC00 to \\uDFFF) after the high surrogate"
            + " \\u\(hex4(value)), found \\u\(hex4(UInt32(low)))", at: lowStart)
      }
      value = 0x10000 + ((value - 0xD800) << 10) + (UInt32(low) - 0xDC00)
    case 0xDC00...0xDFFF:
      throw error(
        "expected a high surrogate (\\uD800 to \\uDBFF) before the low surrogate"
          + " \\u\(hex4(value)), found none", at: escapeStart)
    default:
      break
    }
    guard let scalar = Unicode.Scalar(value) else {
      // Unreachable: surrogates are handled above and four hex digits stay below 0x110000.
      throw error("expected a Unicode scalar, found U+\(hex4(value))", at: escapeStart)
    }
    return scalar
  }

  private mutating func parseHex4() throws(TraceDumpError) -> UInt16 {
    var value: UInt16 = 0
    for _ in 0..<4 {
      guard let byte = current, let digit = hexValue(byte) else {
        throw error("expected 4 hex digits after '\\u', found \(found())")
      }
      value = value << 4 | UInt16(digit)
      index += 1
    }
    return value
  }

  private mutating func parseNumber() throws(TraceDumpError) -> JSONNumber {
    let start = index
    let isNegative = current == ASCII.minus
    if isNegative {
      index += 1
    }
    guard let first = current, isDigit(first) else {
      throw error("expected a digit after '-', found \(found())")
    }
    index += 1
    if first == ASCII.zero {
      if let next = current, isDigit(next) {
        throw error(
          "expected '.', 'e' or the end of the number after a leading '0', found \(found())"
            + " (numbers must not have leading zeros)")
      }
    } else {
      skipDigits()
    }
    var hasFraction = false
    if current == ASCII.dot {
      index += 1
      guard let digit = current, isDigit(digit) else {
        throw error("expected a digit after the decimal point, found \(found())")
      }
      skipDigits()
      hasFraction = true
    }
    var hasExponent = false
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      index += 1
      if current == ASCII.plus || current == ASCII.minus {
        index += 1
      }
      guard let digit = current, isDigit(digit) else {
        throw error("expected a digit in the exponent, found \(found())")
      }
      skipDigits()
      hasExponent = true
    }
    return JSONNumber(
      start: start, end: index, isNegative: isNegative, hasFraction: hasFraction,
      hasExponent: hasExponent)
  }

  private mutating func skipDigits() {
    while let byte = current, isDigit(byte) {
      index += 1
    }
  }
}

/// Whether `byte` can start a JSON value.
private func startsValue(_ byte: UInt8) -> Bool {
  switch byte {
  case ASCII.openBrace, ASCII.openBracket, ASCII.quote, ASCII.minus, ASCII.zero...ASCII.nine,
    UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
    true
  default:
    false
  }
}

private func isDigit(_ byte: UInt8) -> Bool {
  ASCII.zero...ASCII.nine ~= byte
}

private func hexValue(_ byte: UInt8) -> UInt8? {
  switch byte {
  case ASCII.zero...ASCII.nine: byte - ASCII.zero
  case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
  case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
  default: nil
  }
}

/// `value` as at least four uppercase hex digits.
private func hex4(_ value: UInt32) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// `nodes[3].upstreams[1]`; `nil` for the top level.
private func render(_ path: [PathComponent]) -> String? {
  guard !path.isEmpty else {
    return nil
  }
  var text = ""
  for component in path {
    switch component {
    case .index(let index):
      text += "[\(index)]"
    case .key(let key) where isIdentifier(key):
      text += text.isEmpty ? key : "." + key
    case .key(let key):
      text += "[\(quoted(key, limit: 1000))]"
    }
  }
  return text
}

private func isIdentifier(_ key: String) -> Bool {
  guard let first = key.utf8.first, !isDigit(first) else {
    return false
  }
  return key.utf8.allSatisfy { byte in
    isDigit(byte) || byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")) ~= byte
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")) ~= byte
  }
}

/// `value` as a JSON string, shortened to `limit` characters with `…` after the closing quote.
private func quoted(_ value: String, limit: Int = 40) -> String {
  var bytes: [UInt8] = []
  if value.count > limit {
    appendJSONString(String(value.prefix(limit)), to: &bytes)
    bytes.append(contentsOf: "…".utf8)
  } else {
    appendJSONString(value, to: &bytes)
  }
  return String(decoding: bytes, as: UTF8.self)
}

/// What is at `offset`, for an error message: `'}'`, `a line feed`, `'é' (U+00E9)`, `end of
/// input`.
private func describeByte(at offset: Int, in bytes: [UInt8]) -> String {
  guard offset < bytes.count else {
    return "end of input"
  }
  let byte = bytes[offset]
  switch byte {
  case ASCII.space:
    return "a space"
  case ASCII.tab:
    return "a tab"
  case ASCII.lineFeed:
    return "a line feed"
  case ASCII.carriageReturn:
    return "a carriage return"
  case 0x21...0x7E:
    return "'\(Character(Unicode.Scalar(byte)))'"
  case 0..<0x20, 0x7F:
    return "control character U+\(hex4(UInt32(byte)))"
  default:
    let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
    let end = min(offset + length, bytes.count)
    let text = String(decoding: bytes[offset..<end], as: UTF8.self)
    guard let scalar = text.unicodeScalars.first else {
      return "byte 0x\(hex4(UInt32(byte)))"
    }
    return "'\(scalar)' (U+\(hex4(scalar.value)))"
  }
}

/// An error at `offset`, with its line and column worked out from the input.
private func makeDumpError(
  bytes: [UInt8], hasByteOrderMark: Bool, offset: Int, path: String?, message: String
) -> TraceDumpError {
  let end = min(max(offset, 0), bytes.count)
  var line = 1
  var lineStart = hasByteOrderMark ? min(3, end) : 0
  var position = lineStart
  while position < end {
    let byte = bytes[position]
    if byte == ASCII.lineFeed
      || (byte == ASCII.carriageReturn
        && !(position + 1 < bytes.count && bytes[position + 1] == ASCII.lineFeed))
    {
      line += 1
      lineStart = position + 1
    }
    position += 1
  }
  var column = 1
  for byte in bytes[lineStart..<end] where byte & 0xC0 != 0x80 {
    column += 1
  }
  return TraceDumpError(offset: offset, line: line, column: column, path: path, message: message)
}

// MARK: - Decoding the graph

/// Where a value is in the dump, rendered only when an error needs it: `nodes[3].upstreams[1]`.
private struct DecodePath {
  var key: String?
  var element: Int?
  var field: String?
  var fieldElement: Int?

  func appending(_ key: String) -> DecodePath {
    var path = self
    if path.key == nil {
      path.key = key
    } else {
      path.field = key
    }
    return path
  }

  func appending(_ index: Int) -> DecodePath {
    var path = self
    if path.field == nil {
      path.element = index
    } else {
      path.fieldElement = index
    }
    return path
  }

  var rendered: String? {
    guard let key else {
      return nil
    }
    var text = key
    if let element {
      text += "[\(element)]"
    }
    if let field {
      text += "." + field
    }
    if let fieldElement {
      text += "[\(fieldElement)]"
    }
    return text
  }
}

/// The members of an object being decoded.
private struct Fields {
  var members: [JSONMember]
  var offset: Int
  var path: DecodePath
}

/// Turns a parsed document into a ``TraceGraph``, checking keys and types.
private struct DumpDecoder {
  let bytes: [UInt8]
  let hasByteOrderMark: Bool

  func graph(_ root: JSONValue) throws(TraceDumpError) -> TraceGraph {
    let path = DecodePath()
    let fields = try object(root, at: path, expected: "the dump object")
    let format = try required("format", in: fields)
    let name = try string(format, at: path.appending("format"), expected: "a string")
    guard name == dumpFormatName else {
      throw error(
        "expected format \(quoted(dumpFormatName)), found \(quoted(name)): this is not a trace"
          + " dump",
        at: format.offset, path: path.appending("format"))
    }
    try checkVersion(try required("version", in: fields), at: path.appending("version"))
    let nodes = try array(
      try required("nodes", in: fields), at: path.appending("nodes"), expected: "node objects"
    ) { (value, path) throws(TraceDumpError) in try node(value, at: path) }
    let edges = try array(
      try required("edges", in: fields), at: path.appending("edges"), expected: "edge objects"
    ) { (value, path) throws(TraceDumpError) in try edge(value, at: path) }
    let subscriptions = try array(
      try required("subscriptions", in: fields), at: path.appending("subscriptions"),
      expected: "subscription objects"
    ) { (value, path) throws(TraceDumpError) in try subscription(value, at: path) }
    let deliveries = try array(
      try required("deliveries", in: fields), at: path.appending("deliveries"),
      expected: "delivery objects"
    ) { (value, path) throws(TraceDumpError) in try delivery(value, at: path) }
    return TraceGraph(
      nodes: nodes, edges: edges, subscriptions: subscriptions, deliveries: deliveries)
  }

  private func checkVersion(_ value: JSONValue, at path: DecodePath) throws(TraceDumpError) {
    guard case .number(let number) = value.kind, !number.hasFraction, !number.hasExponent else {
      throw error(
        "expected an integer version, found \(describe(value))", at: value.offset, path: path)
    }
    let supported = TraceGraph.formatVersion
    let readable = supported == 1 ? "version 1" : "versions 1 to \(supported)"
    // A non-negative version too large for `Int` is newer than any reader.
    let version = magnitude(of: number).map { Int(exactly: $0) ?? Int.max } ?? Int.max
    guard !number.isNegative, version >= 1 else {
      throw error(
        "unsupported version \(text(of: number)): this reader supports \(readable)",
        at: value.offset, path: path)
    }
    guard version <= supported else {
      throw error(
        "unsupported version \(text(of: number)): this reader supports \(readable) (the dump was"
          + " written by a newer StreamsTrace)", at: value.offset, path: path)
    }
  }

  private func node(_ value: JSONValue, at path: DecodePath) throws(TraceDumpError)
    -> TraceGraph.Node
  {
    let fields = try object(value, at: path, expected: "a node object")
    return TraceGraph.Node(
      id: try unsigned("id", in: fields),
      kind: try string("kind", in: fields),
      role: try enumeration("role", in: fields),
      file: try string("file", in: fields),
      line: try unsigned("line", in: fields),
      owner: try optionalString("owner", in: fields),
      name: try optionalString("name", in: fields),
      upstreams: try ids("upstreams", in: fields),
      controlUpstreams: try ids("controlUpstreams", in: fields),
      subscriptionCount: try signed("subscriptionCount", in: fields),
      eventCount: try signed("eventCount", in: fields),
      recentValues: try array(
        try required("recentValues", in: fields), at: path.appending("recentValues"),
        expected: "strings"
      ) { (value, path) throws(TraceDumpError) in
        try string(value, at: path, expected: "a string")
      })
  }

  private func edge(_ value: JSONValue, at path: DecodePath) throws(TraceDumpError)
    -> TraceGraph.Edge
  {
    let fields = try object(value, at: path, expected: "an edge object")
    return TraceGraph.Edge(
      from: try unsigned("from", in: fields),
      to: try unsigned("to", in: fields),
      kind: try enumeration("kind", in: fields),
      count: try signed("count", in: fields),
      live: try signed("live", in: fields),
      firstTime: try unsigned("firstTime", in: fields),
      lastTime: try unsigned("lastTime", in: fields))
  }

  private func subscription(_ value: JSONValue, at path: DecodePath) throws(TraceDumpError)
    -> TraceGraph.Subscription
  {
    let fields = try object(value, at: path, expected: "a subscription object")
    return TraceGraph.Subscription(
      id: try unsigned("id", in: fields),
      node: try unsigned("node", in: fields),
      subscriber: try unsigned("subscriber", in: fields),
      owner: try optionalString("owner", in: fields),
      ownerGone: try bool("ownerGone", in: fields),
      file: try string("file", in: fields),
      line: try unsigned("line", in: fields),
      bag: try optional("bag", in: fields).map { (value) throws(TraceDumpError) in
        try bag(value, at: fields.path.appending("bag"))
      })
  }

  private func bag(_ value: JSONValue, at path: DecodePath) throws(TraceDumpError)
    -> TraceGraph.Bag
  {
    let fields = try object(value, at: path, expected: "a bag object")
    return TraceGraph.Bag(
      file: try string("file", in: fields),
      line: try unsigned("line", in: fields),
      owner: try optionalString("owner", in: fields))
  }

  private func delivery(_ value: JSONValue, at path: DecodePath) throws(TraceDumpError)
    -> TraceGraph.Delivery
  {
    let fields = try object(value, at: path, expected: "a delivery object")
    return TraceGraph.Delivery(
      id: try unsigned("id", in: fields),
      from: try unsigned("from", in: fields),
      to: try unsigned("to", in: fields),
      event: try enumeration("event", in: fields),
      cause: try optionalUnsigned("cause", in: fields),
      hop: try enumeration("hop", in: fields),
      thread: try unsigned("thread", in: fields),
      time: try unsigned("time", in: fields),
      queue: try optionalString("queue", in: fields),
      value: try optionalString("value", in: fields))
  }

  // MARK: Keys

  private func object(
    _ value: JSONValue, at path: DecodePath, expected: String
  ) throws(TraceDumpError) -> Fields {
    guard case .object(let members) = value.kind else {
      throw error("expected \(expected), found \(describe(value))", at: value.offset, path: path)
    }
    return Fields(members: members, offset: value.offset, path: path)
  }

  /// The value of `key`, or `nil` when the object lacks it; a key given twice is an error.
  private func lookup(_ key: String, in fields: Fields) throws(TraceDumpError) -> JSONValue? {
    var result: JSONValue?
    for member in fields.members where member.key == key {
      guard result == nil else {
        throw error(
          "expected each key once, found \(quoted(key)) again", at: member.keyOffset,
          path: fields.path)
      }
      result = member.value
    }
    return result
  }

  private func required(_ key: String, in fields: Fields) throws(TraceDumpError) -> JSONValue {
    guard let value = try lookup(key, in: fields) else {
      throw error("missing required key \(quoted(key))", at: fields.offset, path: fields.path)
    }
    return value
  }

  /// The value of an optional key: `nil` when absent or `null`.
  private func optional(_ key: String, in fields: Fields) throws(TraceDumpError) -> JSONValue? {
    guard let value = try lookup(key, in: fields) else {
      return nil
    }
    if case .null = value.kind {
      return nil
    }
    return value
  }

  private func string(_ key: String, in fields: Fields) throws(TraceDumpError) -> String {
    try string(
      try required(key, in: fields), at: fields.path.appending(key), expected: "a string")
  }

  private func optionalString(_ key: String, in fields: Fields) throws(TraceDumpError) -> String? {
    guard let value = try optional(key, in: fields) else {
      return nil
    }
    return try string(value, at: fields.path.appending(key), expected: "a string or null")
  }

  private func unsigned<Value: FixedWidthInteger & UnsignedInteger>(
    _ key: String, in fields: Fields
  ) throws(TraceDumpError) -> Value {
    try unsigned(try required(key, in: fields), at: fields.path.appending(key))
  }

  private func optionalUnsigned<Value: FixedWidthInteger & UnsignedInteger>(
    _ key: String, in fields: Fields
  ) throws(TraceDumpError) -> Value? {
    guard let value = try optional(key, in: fields) else {
      return nil
    }
    return try unsigned(value, at: fields.path.appending(key), orNull: true)
  }

  private func signed(_ key: String, in fields: Fields) throws(TraceDumpError) -> Int {
    let value = try required(key, in: fields)
    let path = fields.path.appending(key)
    // Built only for a message: formatting the bounds costs more than reading the number.
    func expected() -> String { "an integer from \(Int.min) to \(Int.max)" }
    let number = try integer(value, at: path, expected: expected())
    if let magnitude = magnitude(of: number) {
      if !number.isNegative, let result = Int(exactly: magnitude) {
        return result
      }
      if number.isNegative {
        if magnitude <= UInt64(Int.max) {
          return -Int(magnitude)
        }
        if magnitude == UInt64(Int.max) + 1 {
          return Int.min
        }
      }
    }
    throw error("expected \(expected()), found \(text(of: number))", at: value.offset, path: path)
  }

  private func bool(_ key: String, in fields: Fields) throws(TraceDumpError) -> Bool {
    let value = try required(key, in: fields)
    guard case .bool(let result) = value.kind else {
      throw error(
        "expected true or false, found \(describe(value))", at: value.offset,
        path: fields.path.appending(key))
    }
    return result
  }

  private func enumeration<Value: RawRepresentable & CaseIterable>(
    _ key: String, in fields: Fields
  ) throws(TraceDumpError) -> Value where Value.RawValue == String {
    let value = try required(key, in: fields)
    let path = fields.path.appending(key)
    func expected() -> String {
      "one of " + Value.allCases.map { quoted($0.rawValue) }.joined(separator: ", ")
    }
    let raw = try string(value, at: path, expected: expected())
    guard let result = Value(rawValue: raw) else {
      throw error("expected \(expected()), found \(quoted(raw))", at: value.offset, path: path)
    }
    return result
  }

  private func ids(_ key: String, in fields: Fields) throws(TraceDumpError) -> [UInt64] {
    try array(
      try required(key, in: fields), at: fields.path.appending(key), expected: "node ids"
    ) { (value, path) throws(TraceDumpError) in try unsigned(value, at: path) }
  }

  // MARK: Values

  private func array<Element>(
    _ value: JSONValue, at path: DecodePath, expected: String,
    _ element: (JSONValue, DecodePath) throws(TraceDumpError) -> Element
  ) throws(TraceDumpError) -> [Element] {
    guard case .array(let values) = value.kind else {
      throw error(
        "expected an array of \(expected), found \(describe(value))", at: value.offset, path: path)
    }
    var result: [Element] = []
    result.reserveCapacity(values.count)
    for (index, item) in values.enumerated() {
      result.append(try element(item, path.appending(index)))
    }
    return result
  }

  private func string(
    _ value: JSONValue, at path: DecodePath, expected: @autoclosure () -> String
  ) throws(TraceDumpError) -> String {
    guard case .string(let result) = value.kind else {
      throw error("expected \(expected()), found \(describe(value))", at: value.offset, path: path)
    }
    return result
  }

  private func unsigned<Value: FixedWidthInteger & UnsignedInteger>(
    _ value: JSONValue, at path: DecodePath, orNull: Bool = false
  ) throws(TraceDumpError) -> Value {
    func expected() -> String { "an integer from 0 to \(Value.max)" + (orNull ? " or null" : "") }
    let number = try integer(value, at: path, expected: expected())
    guard !number.isNegative, let magnitude = magnitude(of: number),
      let result = Value(exactly: magnitude)
    else {
      throw error("expected \(expected()), found \(text(of: number))", at: value.offset, path: path)
    }
    return result
  }

  /// The number in `value`, which must be an integer (no fraction, no exponent).
  private func integer(
    _ value: JSONValue, at path: DecodePath, expected: @autoclosure () -> String
  ) throws(TraceDumpError) -> JSONNumber {
    guard case .number(let number) = value.kind else {
      throw error("expected \(expected()), found \(describe(value))", at: value.offset, path: path)
    }
    guard !number.hasFraction, !number.hasExponent else {
      throw error(
        "expected \(expected()), found \(text(of: number)) (fractions and exponents are not"
          + " allowed)", at: value.offset, path: path)
    }
    return number
  }

  /// The absolute value of an integer, or `nil` when it exceeds `UInt64.max`.
  private func magnitude(of number: JSONNumber) -> UInt64? {
    var result: UInt64 = 0
    for byte in bytes[(number.isNegative ? number.start + 1 : number.start)..<number.end] {
      guard isDigit(byte) else {
        return nil
      }
      let (product, productOverflow) = result.multipliedReportingOverflow(by: 10)
      let (sum, sumOverflow) = product.addingReportingOverflow(UInt64(byte - ASCII.zero))
      guard !productOverflow, !sumOverflow else {
        return nil
      }
      result = sum
    }
    return result
  }

  private func text(of number: JSONNumber) -> String {
    let limit = 40
    if number.end - number.start > limit {
      return String(decoding: bytes[number.start..<(number.start + limit)], as: UTF8.self) + "…"
    }
    return String(decoding: bytes[number.start..<number.end], as: UTF8.self)
  }

  private func describe(_ value: JSONValue) -> String {
    switch value.kind {
    case .object: "an object"
    case .array: "an array"
    case .string(let string): "the string \(quoted(string))"
    case .number(let number): "the number \(text(of: number))"
    case .bool(let bool): "\(bool)"
    case .null: "null"
    }
  }

  private func error(_ message: String, at offset: Int, path: DecodePath) -> TraceDumpError {
    makeDumpError(
      bytes: bytes, hasByteOrderMark: hasByteOrderMark, offset: offset, path: path.rendered,
      message: message)
  }
}
