import Streams
import StreamsTrace
import Testing

extension TraceGraphDumpTests {
  // MARK: Errors

  /// The error `TraceGraph(dump:)` throws for `text`, or `nil` when it reads.
  static func error(_ text: String) -> TraceDumpError? {
    do {
      _ = try TraceGraph(dump: text)
      return nil
    } catch {
      return error
    }
  }

  struct Malformed: Sendable, CustomTestStringConvertible {
    var input: String
    var offset: Int
    var line: Int
    var column: Int
    var path: String?
    var message: String

    init(
      _ input: String, _ offset: Int, _ line: Int, _ column: Int, _ path: String?,
      _ message: String
    ) {
      self.input = input
      self.offset = offset
      self.line = line
      self.column = column
      self.path = path
      self.message = message
    }

    var testDescription: String { input.debugDescription }

    var expected: TraceDumpError {
      TraceDumpError(offset: offset, line: line, column: column, path: path, message: message)
    }
  }

  static let syntaxErrors: [Malformed] = [
    .init("", 0, 1, 1, nil, "expected '{' to start a trace dump, found end of input"),
    .init("[]", 0, 1, 1, nil, "expected '{' to start a trace dump, found '['"),
    .init("  \n x", 4, 2, 2, nil, "expected '{' to start a trace dump, found 'x'"),
    .init(
      "{\r\rx", 3, 3, 1, nil, "expected '\"' to start a key or '}' to end the object, found 'x'"),
    .init(
      "{\r\n\"a\":1,\r\n}", 11, 3, 1, nil, "expected '\"' to start a key after ',', found '}'"),
    .init(
      #"{"a":1} x"#, 8, 1, 9, nil,
      "expected the end of the input after the dump object, found 'x'"),
    .init(
      #"{"a":1}}"#, 7, 1, 8, nil, "expected the end of the input after the dump object, found '}'"),
    .init(#"{"a":1,}"#, 7, 1, 8, nil, "expected '\"' to start a key after ',', found '}'"),
    .init(
      #"{a:1}"#, 1, 1, 2, nil, "expected '\"' to start a key or '}' to end the object, found 'a'"),
    .init(#"{"a" 1}"#, 5, 1, 6, nil, "expected ':' after the key \"a\", found '1'"),
    .init(
      #"{"a":}"#, 5, 1, 6, "a",
      "expected a value (an object, array, string, number, true, false or null), found '}'"),
    .init(#"{"a":"#, 5, 1, 6, "a", "expected a value, found end of input"),
    .init(#"{"a":[1 2]}"#, 8, 1, 9, "a", "expected ',' or ']' after an array element, found '2'"),
    .init(#"{"a":[1,]}"#, 8, 1, 9, "a", "expected a value after ',', found ']'"),
    .init(#"{"a":[}"#, 6, 1, 7, "a", "expected a value or ']' to end the array, found '}'"),
    .init(
      #"{"a":{"b":1 "c":2}}"#, 12, 1, 13, "a",
      "expected ',' or '}' after an object member, found '\"'"),
    .init(
      #"{"a":[[1],{"b c":{"d":x}}]}"#, 22, 1, 23, #"a[1]["b c"].d"#,
      "expected a value (an object, array, string, number, true, false or null), found 'x'"),
    .init(#"{"a":[1,x]}"#, 8, 1, 9, "a", "expected a value after ',', found 'x'"),
    .init(#"{"a":[[x]]}"#, 7, 1, 8, "a[0]", "expected a value or ']' to end the array, found 'x'"),
    .init(#"{"a":tru}"#, 8, 1, 9, "a", "expected 'e' to complete 'true', found '}'"),
    .init(#"{"a":nul"#, 8, 1, 9, "a", "expected 'l' to complete 'null', found end of input"),
    .init(#"{"a":fals"#, 9, 1, 10, "a", "expected 'e' to complete 'false', found end of input"),
    .init(
      #"{"a":True}"#, 5, 1, 6, "a",
      "expected a value (an object, array, string, number, true, false or null), found 'T'"),
    .init(
      #"{"a":01}"#, 6, 1, 7, "a",
      "expected '.', 'e' or the end of the number after a leading '0', found '1' (numbers must"
        + " not have leading zeros)"),
    .init(#"{"a":-}"#, 6, 1, 7, "a", "expected a digit after '-', found '}'"),
    .init(
      #"{"a":+1}"#, 5, 1, 6, "a",
      "expected a value (an object, array, string, number, true, false or null), found '+'"),
    .init(
      #"{"a":.5}"#, 5, 1, 6, "a",
      "expected a value (an object, array, string, number, true, false or null), found '.'"),
    .init(#"{"a":1.}"#, 7, 1, 8, "a", "expected a digit after the decimal point, found '}'"),
    .init(#"{"a":1e+}"#, 8, 1, 9, "a", "expected a digit in the exponent, found '}'"),
    .init(#"{"a":1x}"#, 6, 1, 7, nil, "expected ',' or '}' after an object member, found 'x'"),
    .init(
      #"{"a":"x\qy"}"#, 8, 1, 9, "a",
      "expected an escape character ('\"', '\\', '/', 'b', 'f', 'n', 'r', 't' or 'u') after"
        + " '\\', found 'q'"),
    .init(#"{"a":"\u12G4"}"#, 10, 1, 11, "a", "expected 4 hex digits after '\\u', found 'G'"),
    .init(#"{"a":"\u12"#, 10, 1, 11, "a", "expected 4 hex digits after '\\u', found end of input"),
    .init(
      #"{"a":"\uD83Dx"}"#, 12, 1, 13, "a",
      "expected '\\u' and a low surrogate (DC00 to DFFF) after the high surrogate \\uD83D,"
        + " found 'x'"),
    .init(
      #"{"a":"\uD83D\u0041"}"#, 12, 1, 13, "a",
      "expected a low surrogate (\\uDC00 to \\uDFFF) after the high surrogate \\uD83D, found"
        + " \\u0041"),
    .init(
      #"{"a":"\uDE00"}"#, 6, 1, 7, "a",
      "expected a high surrogate (\\uD800 to \\uDBFF) before the low surrogate \\uDE00, found"
        + " none"),
    .init(
      "{\"a\":\"x\ty\"}", 7, 1, 8, "a",
      "expected a character or '\"' in a string, found a tab (control characters must be"
        + " escaped)"),
    .init(
      "{\"a\":\"x\u{0}\"}", 7, 1, 8, "a",
      "expected a character or '\"' in a string, found control character U+0000 (control"
        + " characters must be escaped)"),
    .init(
      #"{"a":"abc"#, 9, 1, 10, "a",
      "expected '\"' to end the string that starts at offset 5, found end of input"),
    .init(#"{"a":"\"#, 7, 1, 8, "a", "expected an escape character after '\\', found end of input"),
    .init(
      #"{"a":é}"#, 5, 1, 6, "a",
      "expected a value (an object, array, string, number, true, false or null), found 'é'"
        + " (U+00E9)"),
    // Columns count Unicode scalars: "é" is two bytes and one column.
    .init(#"{"é":1 x}"#, 8, 1, 8, nil, "expected ',' or '}' after an object member, found 'x'"),
    .init("\u{FEFF}x", 3, 1, 1, nil, "expected '{' to start a trace dump, found 'x'"),
    .init(
      "{\"a\":\"😀\"\n\n  😀", 15, 3, 3, nil,
      "expected ',' or '}' after an object member, found '😀' (U+1F600)"),
  ]

  @Test(
    "malformed JSON: offset, line, column, path and message",
    arguments: TraceGraphDumpTests.syntaxErrors)
  func syntaxError(_ malformed: Malformed) {
    #expect(Self.error(malformed.input) == malformed.expected)
  }

  static let decodeErrors: [Malformed] = [
    .init("{}", 0, 1, 1, nil, "missing required key \"format\""),
    .init(#"{"format":1}"#, 10, 1, 11, "format", "expected a string, found the number 1"),
    .init(
      #"{"format":"other","version":1}"#, 10, 1, 11, "format",
      "expected format \"streams-trace\", found \"other\": this is not a trace dump"),
    .init(#"{"format":"streams-trace"}"#, 0, 1, 1, nil, "missing required key \"version\""),
    .init(
      #"{"format":"streams-trace","version":2}"#, 36, 1, 37, "version",
      "unsupported version 2: this reader supports version 1 (the dump was written by a newer"
        + " StreamsTrace)"),
    .init(
      #"{"format":"streams-trace","version":99999999999999999999999}"#, 36, 1, 37, "version",
      "unsupported version 99999999999999999999999: this reader supports version 1 (the dump"
        + " was written by a newer StreamsTrace)"),
    .init(
      #"{"format":"streams-trace","version":0}"#, 36, 1, 37, "version",
      "unsupported version 0: this reader supports version 1"),
    .init(
      #"{"format":"streams-trace","version":-1}"#, 36, 1, 37, "version",
      "unsupported version -1: this reader supports version 1"),
    .init(
      #"{"format":"streams-trace","version":"1"}"#, 36, 1, 37, "version",
      "expected an integer version, found the string \"1\""),
    .init(
      #"{"format":"streams-trace","version":1.0}"#, 36, 1, 37, "version",
      "expected an integer version, found the number 1.0"),
    .init(head + "\"nodes\":[]}", 0, 1, 1, nil, "missing required key \"edges\""),
    .init(
      head + #""nodes":{},"edges":[],"subscriptions":[],"deliveries":[]}"#, 46, 1, 47, "nodes",
      "expected an array of node objects, found an object"),
    .init(
      head + #""nodes":[1],"edges":[],"subscriptions":[],"deliveries":[]}"#, 47, 1, 48,
      "nodes[0]", "expected a node object, found the number 1"),
    .init(
      head + #""nodes":[{"id":1}],"edges":[],"subscriptions":[],"deliveries":[]}"#, 47, 1, 48,
      "nodes[0]", "missing required key \"kind\""),
    .init(
      head + #""nodes":[{"id":1,"id":2}],"edges":[],"subscriptions":[],"deliveries":[]}"#, 55, 1,
      56, "nodes[0]", "expected each key once, found \"id\" again"),
    .init(
      head + #""nodes":[],"edges":[],"subscriptions":[],"deliveries":[],"nodes":[]}"#, 95, 1,
      96, nil, "expected each key once, found \"nodes\" again"),
  ]

  @Test(
    "not a trace dump, or one this reader cannot read", arguments: TraceGraphDumpTests.decodeErrors)
  func decodeError(_ malformed: Malformed) {
    #expect(Self.error(malformed.input) == malformed.expected)
  }

  /// A field of the minimal document replaced: `old` becomes `new`, and the error points at
  /// `value`, the bad value inside `new`.
  struct FieldCase {
    var old: String
    var new: String
    var value: String
    var path: String
    var message: String

    init(_ old: String, _ new: String, _ value: String, _ path: String, _ message: String) {
      self.old = old
      self.new = new
      self.value = value
      self.path = path
      self.message = message
    }
  }

  static let uint64Range = "an integer from 0 to 18446744073709551615"
  static let intRange = "an integer from -9223372036854775808 to 9223372036854775807"
  static let nines = String(repeating: "9", count: 44)

  static let fieldErrors: [FieldCase] = [
    .init(
      #""id":1,"kind""#, #""id":"x","kind""#, #""x""#, "nodes[0].id",
      "expected \(uint64Range), found the string \"x\""),
    .init(
      #""id":1,"kind""#, #""id":18446744073709551616,"kind""#, "18446744073709551616",
      "nodes[0].id", "expected \(uint64Range), found 18446744073709551616"),
    .init(
      #""id":1,"kind""#, #""id":"# + nines + #","kind""#, nines, "nodes[0].id",
      "expected \(uint64Range), found \(nines.prefix(40))…"),
    .init(
      #""id":1,"kind""#, #""id":1.5,"kind""#, "1.5", "nodes[0].id",
      "expected \(uint64Range), found 1.5 (fractions and exponents are not allowed)"),
    .init(
      #""id":1,"kind""#, #""id":1e3,"kind""#, "1e3", "nodes[0].id",
      "expected \(uint64Range), found 1e3 (fractions and exponents are not allowed)"),
    .init(
      #""id":1,"kind""#, #""id":-1,"kind""#, "-1", "nodes[0].id",
      "expected \(uint64Range), found -1"),
    .init(
      #""kind":"k""#, #""kind":null"#, "null", "nodes[0].kind", "expected a string, found null"),
    .init(
      #""role":"source""#, #""role":"sink""#, #""sink""#, "nodes[0].role",
      "expected one of \"source\", \"operator\", \"subject\", \"terminal\", found \"sink\""),
    .init(
      #""role":"source""#, #""role":["source"]"#, #"["source"]"#, "nodes[0].role",
      "expected one of \"source\", \"operator\", \"subject\", \"terminal\", found an array"),
    .init(
      #""line":1"#, #""line":18446744073709551616"#, "18446744073709551616", "nodes[0].line",
      "expected an integer from 0 to \(UInt.max), found 18446744073709551616"),
    .init(
      #""upstreams":[]"#, #""upstreams":[1,"2"]"#, #""2""#, "nodes[0].upstreams[1]",
      "expected \(uint64Range), found the string \"2\""),
    .init(
      #""upstreams":[]"#, #""upstreams":{}"#, "{}", "nodes[0].upstreams",
      "expected an array of node ids, found an object"),
    .init(
      #""recentValues":[]"#, #""recentValues":["a",true]"#, "true", "nodes[0].recentValues[1]",
      "expected a string, found true"),
    .init(
      #""subscriptionCount":0"#, #""subscriptionCount":9223372036854775808"#,
      "9223372036854775808", "nodes[0].subscriptionCount",
      "expected \(intRange), found 9223372036854775808"),
    .init(
      #""subscriptionCount":0"#, #""subscriptionCount":-9223372036854775809"#,
      "-9223372036854775809", "nodes[0].subscriptionCount",
      "expected \(intRange), found -9223372036854775809"),
    .init(
      #""ownerGone":false"#, #""ownerGone":0"#, "0", "subscriptions[0].ownerGone",
      "expected true or false, found the number 0"),
    .init(
      #""ownerGone":false,"file":"f""#, #""ownerGone":false,"file":"f","owner":7"#, "7",
      "subscriptions[0].owner", "expected a string or null, found the number 7"),
    .init(
      #""kind":"emission""#, #""kind":"Emission""#, #""Emission""#, "edges[0].kind",
      "expected one of \"subscription\", \"emission\", \"control\", \"chain\", found"
        + " \"Emission\""),
    .init(
      #""lastTime":0"#, #""lastTime":{"ns":0}"#, #"{"ns":0}"#, "edges[0].lastTime",
      "expected \(uint64Range), found an object"),
    .init(
      #""thread":1"#, #""thread":4294967296"#, "4294967296", "deliveries[0].thread",
      "expected an integer from 0 to 4294967295, found 4294967296"),
    .init(
      #""hop":"direct""#, #""hop":"direct","cause":"x""#, #""x""#, "deliveries[0].cause",
      "expected \(uint64Range) or null, found the string \"x\""),
    .init(
      #""event":"next""#, #""event":"next","value":[]"#, "[]", "deliveries[0].value",
      "expected a string or null, found an array"),
    .init(
      #""event":"next""#, #""event":"complete""#, #""complete""#, "deliveries[0].event",
      "expected one of \"next\", \"error\", \"completed\", found \"complete\""),
    .init(
      #""hop":"direct""#, #""hop":"thread""#, #""thread""#, "deliveries[0].hop",
      "expected one of \"direct\", \"scheduler\", \"task\", found \"thread\""),
  ]

  /// The UTF-8 offset of the first `needle` in `text`.
  static func byteOffset(of needle: String, in text: String) -> Int? {
    guard let range = text.utf8.firstRange(of: needle.utf8) else {
      return nil
    }
    return text.utf8.distance(from: text.utf8.startIndex, to: range.lowerBound)
  }

  @Test("a field of the wrong type or out of range: offset of the value, path, message")
  func fieldError() throws {
    for field in Self.fieldErrors {
      let text = Self.minimal.replacing(field.old, with: field.new, maxReplacements: 1)
      let newOffset = try #require(Self.byteOffset(of: field.new, in: text), "\(field.old)")
      let valueOffset = try #require(Self.byteOffset(of: field.value, in: field.new))
      let error = try #require(Self.error(text), "\(field.new) should not read")
      #expect(
        error
          == TraceDumpError(
            offset: newOffset + valueOffset, line: 1, column: newOffset + valueOffset + 1,
            path: field.path, message: field.message))
    }
  }

  @Test("the error's description reads offset, line, column, path and message")
  func errorDescription() {
    let error = Self.error(#"{"format":"streams-trace","version":1,"nodes":[}"#)
    #expect(
      error?.description
        == "offset 47 (line 1, column 48) at nodes: expected a value or ']' to end the array,"
        + " found '}'")
    let version = Self.error("{\"format\":\"streams-trace\",\n\"version\":2}")
    #expect(
      version?.description
        == "offset 37 (line 2, column 11) at version: unsupported version 2: this reader supports"
        + " version 1 (the dump was written by a newer StreamsTrace)")
    let top = Self.error("{} x")
    #expect(
      top?.description
        == "offset 3 (line 1, column 4): expected the end of the input after the dump object,"
        + " found 'x'")
  }
}
