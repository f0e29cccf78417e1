// MARK: - Parsing JSON

/// A JSON value with the byte offset where it starts.
struct JSONValue {
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
struct JSONMember {
  var key: String
  var keyOffset: Int
  var value: JSONValue
}

/// A number as written: where its bytes are, checked against RFC 8259's grammar, converted when a
/// field needs it (while the parser still holds them: see ``DumpParser/keepFrom``).
struct JSONNumber {
  var start: Int
  var end: Int
  var isNegative: Bool
  var hasFraction: Bool
  var hasExponent: Bool
}

/// One step of the path to the value being parsed.
enum PathComponent {
  case key(String)
  case index(Int)
}

/// A strict RFC 8259 parser into ``JSONValue`` trees, keeping the path for its errors.
///
/// It reads a text held whole (``TraceGraph/init(dump:)``) or chunks handed to it one at a time
/// (``TraceGraph/init(readingDump:)``). Either way it holds a window of the input: the bytes from
/// ``keepFrom`` (or ``index``, if earlier) on, and what the last chunk brought. Offsets are
/// counted from the start of the input; the bytes it lets go of are counted into lines and
/// columns first, so that an error anywhere still says where it is.
struct DumpParser {
  /// How deep arrays and objects may nest, the dump object included.
  static let maximumDepth = 64

  /// The bytes held: the input from ``base`` on.
  private(set) var bytes: [UInt8]
  /// The offset of `bytes[0]` in the input.
  private(set) var base = 0
  /// The offset of the next byte to read.
  var index = 0
  /// The earliest offset that a later error or a later conversion may still need: the bytes
  /// before it (and before ``index``) may be let go of when the next chunk is read.
  var keepFrom = 0
  /// The most bytes held at once.
  private(set) var largestWindow: Int
  private(set) var hasByteOrderMark = false
  var depth = 0
  var path: [PathComponent] = []

  /// Gives the next chunk of the input, `nil` at its end; `nil` for an input held whole.
  private let nextChunk: (() -> [UInt8]?)?
  private var ended: Bool

  /// Lines and columns of the bytes let go of: the line at ``base``, the offset where that line
  /// starts, and the Unicode scalars between its start and ``base`` when it starts before.
  private var baseLine = 1
  private var baseLineStart = 0
  private var baseColumn = 0
  /// The dump object's offset and line and column, kept after its bytes are let go of (an error
  /// about a missing key points at it).
  private var rootOffset = 0
  private var rootLocation = (line: 1, column: 1)

  /// A parser of `text`, held whole.
  init(_ text: String) {
    bytes = Array(text.utf8)
    nextChunk = nil
    ended = true
    largestWindow = bytes.count
    skipByteOrderMark()
  }

  /// A parser of the chunks `next` gives, one at a time, until it gives `nil`.
  init(chunks next: @escaping () -> [UInt8]?) {
    bytes = []
    nextChunk = next
    ended = false
    largestWindow = 0
    _ = peek(2)
    skipByteOrderMark()
  }

  private mutating func skipByteOrderMark() {
    hasByteOrderMark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
    if hasByteOrderMark {
      index = 3
      keepFrom = 3
      baseLineStart = 3
    }
  }

  /// The offset just past the bytes held.
  var end: Int { base + bytes.count }

  /// The byte at ``index``, reading the next chunk when the window ends there; `nil` at the end
  /// of the input.
  var current: UInt8? {
    mutating get {
      if index < end { return bytes[index &- base] }
      return readMore() ? bytes[index &- base] : nil
    }
  }

  /// The byte `distance` past ``index``, reading on as needed; `nil` past the end of the input.
  mutating func peek(_ distance: Int) -> UInt8? {
    while index + distance >= end {
      guard readMore() else { return nil }
    }
    return bytes[index + distance - base]
  }

  /// The bytes from offset `start` to `stop`, which the parser holds.
  func slice(_ start: Int, _ stop: Int) -> ArraySlice<UInt8> {
    bytes[(start - base)..<(stop - base)]
  }

  /// Reads the next chunk into the window, first letting go of the bytes before
  /// ``keepFrom`` and ``index`` when they are at least half of it (so each byte moves a bounded
  /// number of times); `false` at the end of the input.
  @inline(never)
  private mutating func readMore() -> Bool {
    guard !ended, let nextChunk else { return false }
    var keep = min(keepFrom, index)
    // A carriage return is a line break unless a line feed follows: keep it until that is known.
    if keep > base, keep == end, bytes[keep - 1 - base] == ASCII.carriageReturn { keep -= 1 }
    if keep > base, (keep - base) * 2 >= bytes.count { letGo(upTo: keep) }
    // An empty chunk ends the input as `nil` does (a reader at its end may give either).
    guard let chunk = nextChunk(), !chunk.isEmpty else {
      ended = true
      return false
    }
    bytes.append(contentsOf: chunk)
    largestWindow = max(largestWindow, bytes.count)
    return true
  }

  /// Lets go of the bytes before `offset`, counting their lines and columns.
  private mutating func letGo(upTo offset: Int) {
    let position = lineAndColumn(at: offset)
    baseLine = position.line
    baseLineStart = position.lineStart
    baseColumn = position.column - 1
    bytes.removeSubrange(0..<(offset - base))
    base = offset
  }

  /// The line of `offset`, where that line starts and the column of `offset` (1-based, in
  /// Unicode scalars; a line ends at `\n`, `\r\n` or `\r`), counted from ``base``.
  private func lineAndColumn(at offset: Int) -> (line: Int, lineStart: Int, column: Int) {
    var line = baseLine
    var lineStart = baseLineStart
    var column = baseColumn
    var position = max(base, baseLineStart)
    let stop = min(offset, end)
    while position < stop {
      let byte = bytes[position - base]
      if byte == ASCII.lineFeed
        || (byte == ASCII.carriageReturn
          && !(position + 1 < end && bytes[position + 1 - base] == ASCII.lineFeed))
      {
        line += 1
        lineStart = position + 1
        column = 0
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
      position += 1
    }
    return (line, lineStart, column + 1)
  }

  /// An error at `offset` (``index`` when `nil`), with its line and column.
  func error(_ message: String, at offset: Int? = nil, path: String?) -> TraceDumpError {
    let offset = offset ?? index
    let location: (line: Int, column: Int)
    if offset < base {
      // Only the dump object's own offset is named after its bytes are let go of.
      assert(offset == rootOffset, "an error at \(offset), before the bytes kept (\(base))")
      location = offset == rootOffset ? rootLocation : (baseLine, baseColumn + 1)
    } else {
      let position = lineAndColumn(at: offset)
      location = (position.line, position.column)
    }
    return TraceDumpError(
      offset: offset, line: location.line, column: location.column, path: path, message: message)
  }

  /// An error at `offset` (``index`` when `nil`) at the path being parsed.
  func error(_ message: String, at offset: Int? = nil) -> TraceDumpError {
    error(message, at: offset, path: render(path))
  }

  /// Notes that the dump object starts at ``index``, for errors that name it later.
  mutating func markRoot() {
    rootOffset = index
    let position = lineAndColumn(at: index)
    rootLocation = (position.line, position.column)
  }

  /// What is at ``index``, for an error message: `'}'`, `a line feed`, `end of input`.
  mutating func found() -> String {
    _ = peek(3)  // a UTF-8 character has up to four bytes
    return describeByte(at: index - base, in: bytes)
  }

  mutating func skipWhitespace() {
    while let byte = current,
      byte == ASCII.space || byte == ASCII.lineFeed || byte == ASCII.carriageReturn
        || byte == ASCII.tab
    {
      index += 1
    }
  }

  /// Parses the value at ``index``; whitespace before it is already skipped.
  mutating func parseValue() throws(TraceDumpError) -> JSONValue {
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

  mutating func enterNesting() throws(TraceDumpError) {
    depth += 1
    if depth > Self.maximumDepth {
      throw error(
        "expected at most \(Self.maximumDepth) nested arrays and objects, found one more \(found())"
      )
    }
  }

  /// Parses a key at ``index`` and the `:` after it: the key and its offset.
  mutating func parseKey(first: Bool) throws(TraceDumpError) -> (key: String, offset: Int) {
    guard current == ASCII.quote else {
      throw error(
        first
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
    return (key, keyOffset)
  }

  /// After an object member: `true` past a `,` (another member follows), `false` past the `}`.
  mutating func parseMemberEnd() throws(TraceDumpError) -> Bool {
    skipWhitespace()
    switch current {
    case ASCII.comma:
      index += 1
      skipWhitespace()
      return true
    case ASCII.closeBrace:
      index += 1
      return false
    default:
      throw error("expected ',' or '}' after an object member, found \(found())")
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
    repeat {
      let (key, keyOffset) = try parseKey(first: members.isEmpty)
      path.append(.key(key))
      let value = try parseValue()
      path.removeLast()
      members.append(JSONMember(key: key, keyOffset: keyOffset, value: value))
    } while try parseMemberEnd()
    return JSONValue(offset: start, kind: .object(members))
  }

  private mutating func parseArray() throws(TraceDumpError) -> JSONValue {
    let start = index
    var elements: [JSONValue] = []
    try parseElements { (parser, _) throws(TraceDumpError) in
      elements.append(try parser.parseValue())
    }
    return JSONValue(offset: start, kind: .array(elements))
  }

  /// Parses the array at ``index`` (a `[`), handing `element` the parser at each element with
  /// its position; `element` parses it.
  mutating func parseElements(
    _ element: (inout DumpParser, Int) throws(TraceDumpError) -> Void
  ) throws(TraceDumpError) {
    try enterNesting()
    defer { depth -= 1 }
    index += 1
    skipWhitespace()
    if current == ASCII.closeBracket {
      index += 1
      return
    }
    var count = 0
    while true {
      guard let byte = current, startsValue(byte) else {
        // A value is missing: say so in the words of this position.
        throw error(
          count == 0
            ? "expected a value or ']' to end the array, found \(found())"
            : "expected a value after ',', found \(found())")
      }
      path.append(.index(count))
      try element(&self, count)
      path.removeLast()
      count += 1
      skipWhitespace()
      switch current {
      case ASCII.comma:
        index += 1
        skipWhitespace()
      case ASCII.closeBracket:
        index += 1
        return
      default:
        throw error("expected ',' or ']' after an array element, found \(found())")
      }
    }
  }
}
