// The strings, numbers and literals of JSON, and how the parser's errors describe them.

extension DumpParser {
  mutating func parseLiteral(_ literal: StaticString) throws(TraceDumpError) {
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

  mutating func parseString() throws(TraceDumpError) -> String {
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
          unescaped.append(contentsOf: slice(runStart, index))
          string = String(decoding: unescaped, as: UTF8.self)
        } else {
          string = String(decoding: slice(runStart, index), as: UTF8.self)
        }
        index += 1
        return string
      case ASCII.backslash:
        hasEscapes = true
        unescaped.append(contentsOf: slice(runStart, index))
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
      guard peek(0) == ASCII.backslash, peek(1) == UInt8(ascii: "u") else {
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

  mutating func parseNumber() throws(TraceDumpError) -> JSONNumber {
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
func startsValue(_ byte: UInt8) -> Bool {
  switch byte {
  case ASCII.openBrace, ASCII.openBracket, ASCII.quote, ASCII.minus, ASCII.zero...ASCII.nine,
    UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
    true
  default:
    false
  }
}

func isDigit(_ byte: UInt8) -> Bool {
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
func hex4(_ value: UInt32) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// `nodes[3].upstreams[1]`; `nil` for the top level.
func render(_ path: [PathComponent]) -> String? {
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
func quoted(_ value: String, limit: Int = 40) -> String {
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
func describeByte(at offset: Int, in bytes: [UInt8]) -> String {
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
