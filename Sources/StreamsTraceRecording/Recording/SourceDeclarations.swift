/// The declarations of one Swift source file, as far as naming a trace's nodes needs them: for
/// each line, the statement it belongs to and the types around it.
///
/// It is a lexer, not a parser: it skips comments and string literals (with interpolations, raw
/// and multi-line strings), follows braces to know which type a line is in, and follows
/// statements across lines (`let results = query` then `.debounce(...)` on the next lines). That
/// is enough to read `let added = PublishSubject<Item>()` in `final class CartStore` as
/// `CartStore.added`, without the compiler and without the app's build.
struct SourceDeclarations: Sendable {
  /// A stored property's declaration.
  struct Declaration: Sendable, Equatable {
    /// The enclosing types, outermost first, joined by `.`: `SearchViewModel.Output`.
    var owner: String
    /// The property's name.
    var property: String
    /// The first line (1-based) of the statement that declares or assigns it.
    var statementLine: Int

    /// `Owner.property`.
    var name: String { "\(owner).\(property)" }
  }

  /// A brace scope: a type's body (with its name) or any other block.
  private struct Scope {
    var type: String?
    /// The first line of the statement being read in this scope; `nil` between statements.
    var statementStart: Int?
    /// Open parentheses and brackets in the current statement.
    var depth = 0
    /// Whether the last significant character asks for more (`=`, `,`, `.`, an open paren).
    var continues = false
  }

  /// Each line's text.
  private let lines: [Substring]
  /// Each line's statement start (0-based line), or -1 when the line holds no code.
  private let statementStarts: [Int]
  /// Each line's first code, in UTF-8 bytes from the line's start (after any comment).
  private let codeColumns: [Int]
  /// Each line's enclosing types (at its first code), as an index into `typePaths`.
  private let typePathOfLine: [Int]
  /// Whether each line's first code sits directly in a type's body (not in a function).
  private let inTypeBody: [Bool]
  /// The distinct type paths: `[]`, `["CartStore"]`, `["SearchViewModel", "Output"]`.
  private let typePaths: [[String]]
  /// The stored properties each type path declares (by the index in `typePaths`).
  private let properties: [Int: Set<String>]

  /// Reads `text`.
  init(_ text: String) {
    let bytes = Array(text.utf8)
    // Lines end at each `\n` byte, as the lexer below counts them (`\r\n` is one Character).
    let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map { Substring($0) }
    self.lines = lines

    var statementStarts = [Int](repeating: -1, count: lines.count)
    var codeColumns = [Int](repeating: 0, count: lines.count)
    var lineStartByte = 0
    var typePathOfLine = [Int](repeating: 0, count: lines.count)
    var inTypeBody = [Bool](repeating: false, count: lines.count)
    var typePaths: [[String]] = [[]]
    var pathIndex: [[String]: Int] = [[]: 0]
    var stack: [Scope] = [Scope(type: nil)]
    var header: [UInt8] = []
    var line = 0
    var lineHasCode = false
    var index = 0

    func currentPath() -> Int {
      let path = stack.compactMap(\.type)
      if let known = pathIndex[path] { return known }
      typePaths.append(path)
      pathIndex[path] = typePaths.count - 1
      return typePaths.count - 1
    }
    func newLine(at newline: Int) {
      line += 1
      lineHasCode = false
      lineStartByte = newline + 1
    }
    // Marks the first code of a line: decides whether it starts a statement.
    func code(_ byte: UInt8) {
      if lineHasCode { return }
      lineHasCode = true
      var scope = stack[stack.count - 1]
      let continuing =
        scope.statementStart != nil
        && (scope.depth > 0 || scope.continues || Self.continuesFromLineStart(byte))
      if !continuing { scope.statementStart = line }
      stack[stack.count - 1] = scope
      guard line < statementStarts.count else { return }
      statementStarts[line] = scope.statementStart ?? line
      codeColumns[line] = index - lineStartByte
      typePathOfLine[line] = currentPath()
      inTypeBody[line] = scope.type != nil
    }
    func significant(_ byte: UInt8) {
      var scope = stack[stack.count - 1]
      switch byte {
      case UInt8(ascii: "("), UInt8(ascii: "["): scope.depth += 1
      case UInt8(ascii: ")"), UInt8(ascii: "]"): scope.depth = max(0, scope.depth - 1)
      default: break
      }
      scope.continues = Self.asksForMore(byte)
      stack[stack.count - 1] = scope
      header.append(byte)
      if header.count > 400 { header.removeFirst(header.count - 300) }
    }

    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\n"):
        newLine(at: index)
        index += 1
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
        if !header.isEmpty, header.last != UInt8(ascii: " ") { header.append(UInt8(ascii: " ")) }
        index += 1
      case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
      case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
        var nesting = 0
        while index < bytes.count {
          if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count,
            bytes[index + 1] == UInt8(ascii: "*")
          {
            nesting += 1
            index += 2
          } else if bytes[index] == UInt8(ascii: "*"), index + 1 < bytes.count,
            bytes[index + 1] == UInt8(ascii: "/")
          {
            nesting -= 1
            index += 2
            if nesting == 0 { break }
          } else {
            if bytes[index] == UInt8(ascii: "\n") { newLine(at: index) }
            index += 1
          }
        }
      case UInt8(ascii: "\""), UInt8(ascii: "#"):
        code(byte)
        guard let (hashes, quotes) = Self.stringStart(bytes, at: index) else {
          // `#if`, `#selector`: code.
          significant(byte)
          index += 1
          continue
        }
        index += hashes + quotes
        index = Self.skipString(
          bytes, from: index, hashes: hashes, multiline: quotes == 3,
          onNewline: { newLine(at: $0) })
        significant(UInt8(ascii: "\""))
      case UInt8(ascii: "{"):
        code(byte)
        let type = Self.typeName(inHeader: header)
        // The statement that opened the block goes on after it (a trailing closure).
        var outer = stack[stack.count - 1]
        outer.continues = false
        stack[stack.count - 1] = outer
        stack.append(Scope(type: type))
        header.removeAll(keepingCapacity: true)
        index += 1
      case UInt8(ascii: "}"):
        // The line belongs to the block around: `}.map { ... }` goes on with its statement.
        if stack.count > 1 {
          let closed = stack.removeLast()
          if closed.type != nil {
            // A type's body ends its declaration.
            stack[stack.count - 1].statementStart = nil
          }
        }
        code(byte)
        header.removeAll(keepingCapacity: true)
        index += 1
      case UInt8(ascii: ";"):
        code(byte)
        stack[stack.count - 1].statementStart = nil
        stack[stack.count - 1].depth = 0
        header.removeAll(keepingCapacity: true)
        index += 1
      default:
        code(byte)
        significant(byte)
        index += 1
      }
    }

    // The stored properties each type declares, for assignments in its initializers.
    var properties: [Int: Set<String>] = [:]
    for number in lines.indices where inTypeBody[number] && statementStarts[number] == number {
      let code = lines[number].utf8.dropFirst(codeColumns[number])
      if let name = Self.declaredName(in: Substring(code)) {
        properties[typePathOfLine[number], default: []].insert(name)
      }
    }
    self.statementStarts = statementStarts
    self.codeColumns = codeColumns
    self.typePathOfLine = typePathOfLine
    self.inTypeBody = inTypeBody
    self.typePaths = typePaths
    self.properties = properties
  }

  /// The stored property that the statement at `line` (1-based) declares or assigns: `let added
  /// = PublishSubject<Item>()` in a type's body, `self.results = query.map(...)` (or `results =
  /// ...` when the type declares `results`) anywhere in its methods. `nil` for a local, a line
  /// outside any type, or a statement that declares nothing.
  func declaration(atLine line: Int) -> Declaration? {
    let number = line - 1
    guard number >= 0, number < lines.count else { return nil }
    let start = statementStarts[number]
    guard start >= 0 else { return nil }
    let path = typePaths[typePathOfLine[start]]
    guard !path.isEmpty else { return nil }
    let text = Substring(lines[start].utf8.dropFirst(codeColumns[start]))
    let owner = path.joined(separator: ".")
    if inTypeBody[start] {
      guard let name = Self.declaredName(in: text) else { return nil }
      return Declaration(owner: owner, property: name, statementLine: start + 1)
    }
    guard let name = Self.assignedName(in: text) else { return nil }
    let isSelf = text.drop { $0 == " " || $0 == "\t" }.hasPrefix("self.")
    guard isSelf || properties[typePathOfLine[start]]?.contains(name) == true else { return nil }
    return Declaration(owner: owner, property: name, statementLine: start + 1)
  }

  // MARK: Reading a line

  /// The name a `let` or `var` declares (after any attributes and modifiers), when it has an
  /// initial value or an explicit type.
  static func declaredName(in line: Substring) -> String? {
    var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
    while let word = words.first, word != "let", word != "var" {
      guard word.hasPrefix("@") || modifiers.contains(String(word.prefix { $0 != "(" })) else {
        return nil
      }
      words = words.dropFirst()
    }
    guard words.first != nil, let rest = words.dropFirst().first else { return nil }
    let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
    guard let first = name.first, first.isLetter || first == "_" else { return nil }
    return String(name)
  }

  /// The property `self.name = ...` or `name = ...` assigns (not `==`).
  static func assignedName(in line: Substring) -> String? {
    var text = line.drop { $0 == " " || $0 == "\t" }
    if text.hasPrefix("self.") { text = text.dropFirst(5) }
    let name = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
    guard let first = name.first, first.isLetter || first == "_" else { return nil }
    let after = text.dropFirst(name.count).drop { $0 == " " }
    guard after.hasPrefix("="), !after.hasPrefix("==") else { return nil }
    return String(name)
  }

  private static let modifiers: Set<String> = [
    "private", "fileprivate", "internal", "public", "open", "package", "static", "class",
    "final", "lazy", "nonisolated", "weak", "unowned", "override", "dynamic",
  ]

  /// The type a block's header declares (`final class CartStore: Store`, `extension Foo.Bar
  /// where ...`), or `nil` for a function, a closure or any other block.
  static func typeName(inHeader header: [UInt8]) -> String? {
    let words = String(decoding: header, as: UTF8.self).split(whereSeparator: {
      !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".")
    })
    guard let at = words.lastIndex(where: { typeKeywords.contains(String($0)) }),
      at + 1 < words.count
    else { return nil }
    let name = words[at + 1]
    guard !notTypeNames.contains(String(name)), name.first?.isLetter == true || name.first == "_"
    else { return nil }
    // `func`, `init` or `=` after the name: a method of a class (`class func`) or a closure.
    if words[(at + 1)...].contains(where: { notTypeNames.contains(String($0)) }) { return nil }
    return String(name)
  }

  private static let typeKeywords: Set<String> = [
    "class", "struct", "enum", "actor", "extension", "protocol",
  ]
  private static let notTypeNames: Set<String> = [
    "func", "var", "let", "subscript", "init", "case", "deinit",
  ]

  /// Whether a statement whose last significant character is `byte` goes on at the next line.
  static func asksForMore(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "="), UInt8(ascii: ","), UInt8(ascii: "("), UInt8(ascii: "["),
      UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "&"), UInt8(ascii: "|"):
      true
    default: false
    }
  }

  /// Whether a line that begins with `byte` goes on with the statement before it.
  static func continuesFromLineStart(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "."), UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"),
      UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: ":"):
      true
    default: false
    }
  }
}
