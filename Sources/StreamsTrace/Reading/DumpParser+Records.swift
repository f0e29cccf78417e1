// MARK: - Decoding the graph

/// Where a value is in the dump, rendered only when an error needs it: `nodes[3].upstreams[1]`.
struct DecodePath {
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

/// Decodes the records and values of a dump (see ``DumpParser/parseDump()``).
extension DumpParser {
  func checkVersion(_ value: JSONValue, at path: DecodePath) throws(TraceDumpError) {
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

  func node(_ value: JSONValue, at path: DecodePath) throws(TraceDumpError)
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

  func edge(_ value: JSONValue, at path: DecodePath) throws(TraceDumpError)
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

  func subscription(_ value: JSONValue, at path: DecodePath) throws(TraceDumpError)
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

  func delivery(_ value: JSONValue, at path: DecodePath) throws(TraceDumpError)
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
    try enumeration(try required(key, in: fields), at: fields.path.appending(key))
  }

  func enumeration<Value: RawRepresentable & CaseIterable>(
    _ value: JSONValue, at path: DecodePath
  ) throws(TraceDumpError) -> Value where Value.RawValue == String {
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

  func array<Element>(
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

  func string(
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
    for byte in slice(number.isNegative ? number.start + 1 : number.start, number.end) {
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
      return String(decoding: slice(number.start, number.start + limit), as: UTF8.self) + "…"
    }
    return String(decoding: slice(number.start, number.end), as: UTF8.self)
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

  func error(_ message: String, at offset: Int, path: DecodePath) -> TraceDumpError {
    error(message, at: offset, path: path.rendered)
  }
}
