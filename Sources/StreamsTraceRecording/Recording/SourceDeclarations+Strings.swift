// String literals, as the lexer of `SourceDeclarations` skips them: plain, raw (`#"…"#`) and
// multi-line, with interpolations.

extension SourceDeclarations {
  /// At a string literal's start: the number of `#` and of quotes (1 or 3).
  static func stringStart(_ bytes: [UInt8], at index: Int) -> (hashes: Int, quotes: Int)? {
    var cursor = index
    while cursor < bytes.count, bytes[cursor] == UInt8(ascii: "#") { cursor += 1 }
    guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") else { return nil }
    let hashes = cursor - index
    let triple =
      cursor + 2 < bytes.count && bytes[cursor + 1] == UInt8(ascii: "\"")
      && bytes[cursor + 2] == UInt8(ascii: "\"")
    return (hashes, triple ? 3 : 1)
  }

  /// Skips a string literal's body (its opening delimiter already passed); returns the index
  /// after its closing delimiter. Interpolations are skipped with the strings inside them.
  ///
  /// A single-line string still open at the end of its line (a `"` in a regex literal) ends
  /// there: the newline is left for the caller to count. Interpolations nested deeper than
  /// `nesting` allows are read as plain text, so a hostile file cannot exhaust the stack.
  static func skipString(
    _ bytes: [UInt8], from start: Int, hashes: Int, multiline: Bool,
    onNewline: (Int) -> Void, nesting: Int = 0
  ) -> Int {
    var index = start
    let quotes = multiline ? 3 : 1
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\n") {
        if !multiline { return index }
        onNewline(index)
        index += 1
        continue
      }
      if byte == UInt8(ascii: "\\"), Self.hashes(bytes, from: index + 1) >= hashes {
        let after = index + 1 + hashes
        if after < bytes.count, bytes[after] == UInt8(ascii: "("), nesting < 16 {
          index = skipInterpolation(
            bytes, from: after + 1, onNewline: onNewline, nesting: nesting + 1)
        } else if after < bytes.count, bytes[after] == UInt8(ascii: "\n") {
          // A line continuation in a multi-line string: the newline still counts.
          if !multiline { return after }
          onNewline(after)
          index = after + 1
        } else {
          index = after + 1
        }
        continue
      }
      if byte == UInt8(ascii: "\""), closes(bytes, at: index, quotes: quotes, hashes: hashes) {
        return index + quotes + hashes
      }
      index += 1
    }
    return index
  }

  fileprivate static func hashes(_ bytes: [UInt8], from index: Int) -> Int {
    var cursor = index
    while cursor < bytes.count, bytes[cursor] == UInt8(ascii: "#") { cursor += 1 }
    return cursor - index
  }

  fileprivate static func closes(_ bytes: [UInt8], at index: Int, quotes: Int, hashes: Int) -> Bool
  {
    guard index + quotes + hashes <= bytes.count else { return false }
    for offset in 0..<quotes where bytes[index + offset] != UInt8(ascii: "\"") { return false }
    for offset in 0..<hashes where bytes[index + quotes + offset] != UInt8(ascii: "#") {
      return false
    }
    return true
  }

  /// Skips an interpolation's expression up to its closing parenthesis.
  fileprivate static func skipInterpolation(
    _ bytes: [UInt8], from start: Int, onNewline: (Int) -> Void, nesting: Int
  ) -> Int {
    var index = start
    var depth = 1
    while index < bytes.count {
      let byte = bytes[index]
      if let (hashes, quotes) = stringStart(bytes, at: index) {
        index = skipString(
          bytes, from: index + hashes + quotes, hashes: hashes, multiline: quotes == 3,
          onNewline: onNewline, nesting: nesting)
        continue
      }
      if byte == UInt8(ascii: "\n") { onNewline(index) }
      if byte == UInt8(ascii: "(") { depth += 1 }
      if byte == UInt8(ascii: ")") {
        depth -= 1
        if depth == 0 { return index + 1 }
      }
      index += 1
    }
    return index
  }
}
