// Reading a dump's top level: format and version first, then each array of records as it comes.

/// The arrays of records in a dump, in the order a reader checks them, and what each holds.
private let recordKeys = ["nodes", "edges", "subscriptions", "deliveries"]
private let recordObjects = [
  "nodes": "node objects", "edges": "edge objects", "subscriptions": "subscription objects",
  "deliveries": "delivery objects",
]

/// The keys of the dump object that a reader knows: each may come once.
private let knownKeys = Set(recordKeys + ["format", "version", "origin"])

/// Reads a dump into a ``TraceGraph``, checking keys and types.
extension DumpParser {
  /// Parses and decodes the whole dump.
  ///
  /// Once `format` and `version` are read and checked (every writer puts them first), each array
  /// of records is decoded element by element as it is read, and the parser keeps only the
  /// record being read: memory holds the graph and a window of the input, not the input. What
  /// comes before them is kept whole and decoded when they have been read, or at the end.
  mutating func parseDump() throws(TraceDumpError) -> TraceGraph {
    skipWhitespace()
    guard current == ASCII.openBrace else {
      throw error("expected '{' to start a trace dump, found \(found())")
    }
    markRoot()
    let rootOffset = index
    try enterNesting()
    index += 1
    var reading = DumpReading(rootOffset: rootOffset)
    skipWhitespace()
    if current == ASCII.closeBrace {
      index += 1
    } else {
      var first = true
      repeat {
        keepFrom = reading.keptFrom ?? index
        let (key, keyOffset) = try parseKey(first: first)
        first = false
        if knownKeys.contains(key), reading.seen.contains(key) {
          throw error(
            "expected each key once, found \(quoted(key)) again", at: keyOffset,
            path: DecodePath())
        }
        reading.seen.insert(key)
        path.append(.key(key))
        if reading.checked, recordKeys.contains(key), current == ASCII.openBracket {
          try parseRecords(key, into: &reading.graph)
        } else if key == "origin" {
          reading.graph.origin = try enumeration(try parseValue(), at: DecodePath().appending(key))
        } else {
          let value = try parseValue()
          if knownKeys.contains(key) {
            reading.kept[key] = value
            if reading.keptFrom == nil { reading.keptFrom = keyOffset }
          }
        }
        path.removeLast()
        // Once checked, what is kept is decoded at once, while the parser holds its bytes.
        if reading.checked { try decodeKept(&reading) } else { try check(&reading) }
      } while try parseMemberEnd()
    }
    depth -= 1
    keepFrom = reading.keptFrom ?? index
    skipWhitespace()
    guard current == nil else {
      throw error("expected the end of the input after the dump object, found \(found())")
    }
    if !reading.checked { try check(&reading) }
    let root = DecodePath()
    for key in recordKeys where !reading.seen.contains(key) {
      throw error("missing required key \(quoted(key))", at: rootOffset, path: root)
    }
    try decodeKept(&reading)
    return reading.graph
  }

  /// Checks `format` and then `version` once read (a missing one only at the end of the dump),
  /// and decodes the arrays of records kept whole before them.
  private mutating func check(_ reading: inout DumpReading) throws(TraceDumpError) {
    let root = DecodePath()
    let atEnd = depth == 0
    guard let format = reading.kept["format"] else {
      if atEnd {
        throw error("missing required key \"format\"", at: reading.rootOffset, path: root)
      }
      return
    }
    if !reading.formatChecked {
      let name = try string(format, at: root.appending("format"), expected: "a string")
      guard name == dumpFormatName else {
        throw error(
          "expected format \(quoted(dumpFormatName)), found \(quoted(name)): this is not a trace"
            + " dump",
          at: format.offset, path: root.appending("format"))
      }
      reading.formatChecked = true
    }
    guard let version = reading.kept["version"] else {
      if atEnd {
        throw error("missing required key \"version\"", at: reading.rootOffset, path: root)
      }
      return
    }
    try checkVersion(version, at: root.appending("version"))
    reading.checked = true
    try decodeKept(&reading)
  }

  /// Decodes the arrays of records kept whole, in the order a reader checks them.
  private mutating func decodeKept(_ reading: inout DumpReading) throws(TraceDumpError) {
    let root = DecodePath()
    for key in recordKeys {
      guard let value = reading.kept.removeValue(forKey: key) else { continue }
      _ = try array(value, at: root.appending(key), expected: recordObjects[key]!) {
        (element, path) throws(TraceDumpError) in
        try decodeRecord(key, element, at: path, into: &reading.graph)
      }
    }
    if reading.kept["nodes"] == nil, reading.kept["edges"] == nil,
      reading.kept["subscriptions"] == nil, reading.kept["deliveries"] == nil
    {
      reading.keptFrom = nil
    }
  }

  /// Parses the array of records `key` at ``index`` (a `[`), decoding each element as it is read
  /// and keeping only its bytes.
  private mutating func parseRecords(_ key: String, into graph: inout TraceGraph)
    throws(TraceDumpError)
  {
    let path = DecodePath().appending(key)
    try parseElements { (parser, position) throws(TraceDumpError) in
      parser.keepFrom = parser.index
      let value = try parser.parseValue()
      try parser.decodeRecord(key, value, at: path.appending(position), into: &graph)
    }
  }

  /// Decodes one record of the array `key` and appends it to `graph`.
  private func decodeRecord(
    _ key: String, _ value: JSONValue, at path: DecodePath, into graph: inout TraceGraph
  ) throws(TraceDumpError) {
    switch key {
    case "nodes": graph.nodes.append(try node(value, at: path))
    case "edges": graph.edges.append(try edge(value, at: path))
    case "subscriptions": graph.subscriptions.append(try subscription(value, at: path))
    default: graph.deliveries.append(try delivery(value, at: path))
    }
  }
}

/// What ``DumpParser/parseDump()`` has read so far.
private struct DumpReading {
  let rootOffset: Int
  var graph = TraceGraph()
  /// The keys of the dump object read so far (each may come once).
  var seen: Set<String> = []
  /// `format`, `version` and the arrays of records read before they were checked.
  var kept: [String: JSONValue] = [:]
  /// Where the first value kept whole starts: the parser keeps its bytes until it is decoded.
  var keptFrom: Int?
  var formatChecked = false
  /// Whether `format` and `version` are read and checked.
  var checked = false

  init(rootOffset: Int) {
    self.rootOffset = rootOffset
  }
}
