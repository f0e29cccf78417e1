import Streams
import StreamsTrace
import Testing

@Suite("TraceGraph dump")
struct TraceGraphDumpTests {
  // MARK: Fixtures

  /// Quotes, backslashes, every kind of control character, emoji with joiners, non-BMP scalars,
  /// the last scalar, combining marks and the separators JavaScript chokes on.
  static let awkward =
    "q\"b\\s/ \u{0}\u{1}\u{8}\t\n\u{B}\u{C}\r\u{1B}\u{1F}\u{7F} 👩‍👩‍👧 𝄞\u{10FFFF} é e\u{301} 漢字"
    + " \u{2028}\u{2029} \u{FEFF} \\u0041 \"\""

  static let rich = TraceGraph(
    nodes: [
      .init(
        id: 0, kind: "PublishSubject", role: .subject, file: "App/Search.swift", line: 1,
        owner: "SearchViewModel", name: "UIState.contentAlpha", subscriptionCount: 3,
        eventCount: 7, recentValues: ["a", "", awkward]),
      .init(
        id: 1, kind: "map", role: .operator, file: "App/Search.swift", line: 2,
        upstreams: [0, UInt64.max], controlUpstreams: [5]),
      .init(
        id: 5, kind: "interval", role: .source, file: "Módulo/Ünïcode 𝄞.swift", line: UInt.max,
        owner: awkward, upstreams: [], controlUpstreams: [UInt64.max, 0, 1],
        subscriptionCount: Int.max, eventCount: Int.min),
      .init(
        id: UInt64.max, kind: awkward, role: .terminal, file: "", line: 0, name: "",
        subscriptionCount: -1, eventCount: 0, recentValues: [awkward, "\u{0}"]),
    ],
    edges: TraceGraph.EdgeKind.allCases.enumerated().map { index, kind in
      TraceGraph.Edge(
        from: UInt64(index), to: UInt64.max - UInt64(index), kind: kind, count: index * 1000,
        live: index, firstTime: UInt64(index), lastTime: UInt64.max - 1)
    } + [
      .init(
        from: UInt64.max, to: UInt64.max, kind: .chain, count: Int.max, live: Int.min,
        firstTime: UInt64.max, lastTime: UInt64.max)
    ],
    subscriptions: [
      .init(
        id: 1, node: 0, subscriber: UInt64.max, owner: "TopViewModel", ownerGone: true,
        file: "App/Top.swift", line: 42),
      .init(id: UInt64.max, node: 5, subscriber: 1, file: awkward, line: UInt.max),
      .init(id: 0, node: 0, subscriber: 0, owner: "", ownerGone: false, file: "x", line: 7),
    ],
    deliveries: TraceGraph.EventKind.allCases.flatMap { event in
      TraceGraph.Hop.allCases.map { hop in (event, hop) }
    }.enumerated().map { index, pair in
      TraceGraph.Delivery(
        id: UInt64(index), from: 0, to: 1, event: pair.0,
        cause: index.isMultiple(of: 2) ? nil : UInt64(index - 1), hop: pair.1,
        thread: index == 0 ? UInt32.max : UInt32(index), time: UInt64(index) * 1_000_000_007,
        value: index % 3 == 0 ? nil : index % 3 == 1 ? "" : awkward)
    } + [
      .init(
        id: UInt64.max, from: UInt64.max, to: UInt64.max, event: .next, cause: UInt64.max,
        hop: .task, thread: 0, time: UInt64.max, value: "🎉")
    ])

  /// `{"format":"streams-trace","version":1,`: 38 bytes; the next key starts at offset 38.
  static let head = #"{"format":"streams-trace","version":1,"#

  static let minimalNode =
    #"{"id":1,"kind":"k","role":"source","file":"f","line":1,"upstreams":[],"#
    + #""controlUpstreams":[],"subscriptionCount":0,"eventCount":0,"recentValues":[]}"#
  static let minimalEdge =
    #"{"from":1,"to":2,"kind":"emission","count":0,"live":0,"firstTime":0,"lastTime":0}"#
  static let minimalSubscription =
    #"{"id":1,"node":1,"subscriber":2,"ownerGone":false,"file":"f","line":1}"#
  static let minimalDelivery =
    #"{"id":1,"from":1,"to":2,"event":"next","hop":"direct","thread":1,"time":0}"#

  /// A valid document with one minimal entry in each array.
  static let minimal =
    head + #""nodes":["# + minimalNode + #"],"edges":["# + minimalEdge + #"],"subscriptions":["#
    + minimalSubscription + #"],"deliveries":["# + minimalDelivery + "]}"

  static let minimalGraph = TraceGraph(
    nodes: [.init(id: 1, kind: "k", role: .source, file: "f", line: 1)],
    edges: [.init(from: 1, to: 2, kind: .emission)],
    subscriptions: [.init(id: 1, node: 1, subscriber: 2, file: "f", line: 1)],
    deliveries: [.init(id: 1, from: 1, to: 2, event: .next)])

  // MARK: Round trip and layout

  @Test("a rich graph reads back equal")
  func roundTripRich() throws {
    let graph = Self.rich
    #expect(Set(graph.nodes.map(\.role)) == Set(TraceGraph.Role.allCases))
    #expect(Set(graph.edges.map(\.kind)) == Set(TraceGraph.EdgeKind.allCases))
    #expect(Set(graph.deliveries.map(\.event)) == Set(TraceGraph.EventKind.allCases))
    #expect(Set(graph.deliveries.map(\.hop)) == Set(TraceGraph.Hop.allCases))
    let read = try TraceGraph(dump: graph.dump())
    #expect(read == graph)
    #expect(read.nodes[3].kind == Self.awkward)
    #expect(read.nodes[2].line == UInt.max)
    #expect(read.deliveries.last?.cause == UInt64.max)
  }

  @Test("an empty graph reads back equal")
  func roundTripEmpty() throws {
    let text = TraceGraph().dump()
    #expect(
      text == """
        {"format":"streams-trace","version":1,
        "nodes":[],
        "edges":[],
        "subscriptions":[],
        "deliveries":[]}
        """)
    #expect(try TraceGraph(dump: text) == TraceGraph())
  }

  @Test("the documented example is what dump() writes")
  func documentedExample() throws {
    let graph = TraceGraph(nodes: [
      .init(id: 1, kind: "PublishSubject", role: .subject, file: "App/Search.swift", line: 12)
    ])
    #expect(
      graph.dump() == """
        {"format":"streams-trace","version":1,
        "nodes":[
        {"id":1,"kind":"PublishSubject","role":"subject","file":"App/Search.swift","line":12,\
        "upstreams":[],"controlUpstreams":[],"subscriptionCount":0,"eventCount":0,\
        "recentValues":[]}
        ],
        "edges":[],
        "subscriptions":[],
        "deliveries":[]}
        """)
  }

  @Test("the example in Guides/TraceFormat.md reads and writes back byte for byte")
  func guideExample() throws {
    let text = #"""
      {"format":"streams-trace","version":1,
      "nodes":[
      {"id":1,"kind":"PublishSubject","role":"subject","file":"App/SearchViewModel.swift",\#
      "line":14,"owner":"SearchViewModel","name":"SearchViewModel.query","upstreams":[],\#
      "controlUpstreams":[],"subscriptionCount":1,"eventCount":2,"recentValues":["sw","swi"]},
      {"id":2,"kind":"debounce","role":"operator","file":"App/SearchViewModel.swift","line":31,\#
      "owner":"SearchViewModel","upstreams":[1],"controlUpstreams":[],"subscriptionCount":1,\#
      "eventCount":1,"recentValues":["swi"]},
      {"id":3,"kind":"subscribe","role":"terminal","file":"App/SearchViewModel.swift","line":33,\#
      "owner":"SearchViewModel","upstreams":[2],"controlUpstreams":[],"subscriptionCount":0,\#
      "eventCount":0,"recentValues":[]},
      {"id":4,"kind":"BehaviorRelay","role":"subject","file":"App/SearchUIState.swift","line":9,\#
      "owner":"SearchUIState","name":"SearchUIState.results","upstreams":[],"controlUpstreams":[],\#
      "subscriptionCount":0,"eventCount":0,"recentValues":["[\"Swift\"]"]}
      ],
      "edges":[
      {"from":1,"to":2,"kind":"subscription","count":1,"live":1,"firstTime":1000,"lastTime":1000},
      {"from":1,"to":2,"kind":"emission","count":2,"live":0,"firstTime":5000,"lastTime":9000},
      {"from":2,"to":3,"kind":"subscription","count":1,"live":1,"firstTime":1000,"lastTime":1000},
      {"from":2,"to":3,"kind":"emission","count":1,"live":0,"firstTime":309000000,\#
      "lastTime":309000000},
      {"from":3,"to":4,"kind":"chain","count":1,"live":0,"firstTime":309000000,\#
      "lastTime":309000000}
      ],
      "subscriptions":[
      {"id":1,"node":1,"subscriber":2,"owner":"SearchViewModel","ownerGone":false,\#
      "file":"App/SearchViewModel.swift","line":31},
      {"id":2,"node":2,"subscriber":3,"owner":"SearchViewModel","ownerGone":false,\#
      "file":"App/SearchViewModel.swift","line":33}
      ],
      "deliveries":[
      {"id":1,"from":1,"to":2,"event":"next","hop":"direct","thread":1,"time":5000,"value":"sw"},
      {"id":2,"from":1,"to":2,"event":"next","hop":"direct","thread":1,"time":9000,"value":"swi"},
      {"id":3,"from":2,"to":3,"event":"next","cause":2,"hop":"scheduler","thread":1,\#
      "time":309000000,"queue":"main queue","value":"swi"},
      {"id":4,"from":3,"to":4,"event":"next","cause":3,"hop":"direct","thread":1,"time":309000000,\#
      "value":"[\"Swift\"]"}
      ]}
      """#
    let graph = try TraceGraph(dump: text)
    #expect(graph.dump() == text)
    #expect(graph.nodes.map(\.role) == [.subject, .operator, .terminal, .subject])
    #expect(graph.edges.last?.kind == .chain)
    #expect(graph.deliveries.map(\.cause) == [nil, nil, 2, 3])
    #expect(graph.deliveries.last?.value == #"["Swift"]"#)
  }

  @Test("every field, one entry per line, optionals left out when nil, strings escaped")
  func exactLayout() {
    let graph = TraceGraph(
      nodes: [
        .init(
          id: 18_446_744_073_709_551_615, kind: "map", role: .operator, file: "A.swift", line: 3,
          owner: "Owner", name: "n", upstreams: [1, 2], controlUpstreams: [3],
          subscriptionCount: 4, eventCount: -5, recentValues: ["a\"\\\n\u{1}é😀"]),
        .init(id: 2, kind: "just", role: .source, file: "B.swift", line: 4),
      ],
      edges: [
        .init(from: 2, to: 1, kind: .subscription, count: 1, live: 1, firstTime: 5, lastTime: 6)
      ],
      subscriptions: [
        .init(id: 9, node: 1, subscriber: 3, owner: "VM", ownerGone: true, file: "C", line: 1),
        .init(id: 10, node: 1, subscriber: 3, file: "C", line: 2),
      ],
      deliveries: [
        .init(
          id: 1, from: 2, to: 1, event: .error, cause: 0, hop: .scheduler, thread: 2, time: 7,
          value: "v"),
        .init(id: 2, from: 2, to: 1, event: .completed),
      ])
    let expected = """
      {"format":"streams-trace","version":1,
      "nodes":[
      {"id":18446744073709551615,"kind":"map","role":"operator","file":"A.swift","line":3,\
      "owner":"Owner","name":"n","upstreams":[1,2],"controlUpstreams":[3],"subscriptionCount":4,\
      "eventCount":-5,"recentValues":["a\\"\\\\\\n\\u0001é😀"]},
      {"id":2,"kind":"just","role":"source","file":"B.swift","line":4,"upstreams":[],\
      "controlUpstreams":[],"subscriptionCount":0,"eventCount":0,"recentValues":[]}
      ],
      "edges":[
      {"from":2,"to":1,"kind":"subscription","count":1,"live":1,"firstTime":5,"lastTime":6}
      ],
      "subscriptions":[
      {"id":9,"node":1,"subscriber":3,"owner":"VM","ownerGone":true,"file":"C","line":1},
      {"id":10,"node":1,"subscriber":3,"ownerGone":false,"file":"C","line":2}
      ],
      "deliveries":[
      {"id":1,"from":2,"to":1,"event":"error","cause":0,"hop":"scheduler","thread":2,"time":7,\
      "value":"v"},
      {"id":2,"from":2,"to":1,"event":"completed","hop":"direct","thread":1,"time":0}
      ]}
      """
    #expect(graph.dump() == expected)
  }

  @Test("control characters are written as short escapes or \\u00XX")
  func controlCharacterEscapes() throws {
    let all = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
    let graph = TraceGraph(nodes: [.init(id: 1, kind: all, role: .source, file: "", line: 0)])
    let text = graph.dump()
    #expect(
      text.contains(
        #""kind":"\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f"#
          + #"\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c"#
          + #"\u001d\u001e\u001f""#))
    #expect(try TraceGraph(dump: text) == graph)
  }

  @Test("the same graph always gives the same bytes")
  func determinism() throws {
    let first = Self.rich.dump()
    #expect(Self.rich.dump() == first)
    let copy = Self.rich
    #expect(copy.dump() == first)
    let reread = try TraceGraph(dump: first)
    #expect(reread.dump() == first)
    #expect(Array(reread.dump().utf8) == Array(first.utf8))
    // One line per entry: the head, then for each (non-empty) array its opening line, one line
    // per entry, and its closing line.
    let lines = first.split(separator: "\n", omittingEmptySubsequences: false)
    let graph = Self.rich
    let entries =
      graph.nodes.count + graph.edges.count + graph.subscriptions.count + graph.deliveries.count
    #expect(lines.count == 1 + 4 + entries + 4)
    #expect(lines[0] == #"{"format":"streams-trace","version":1,"#)
    #expect(lines.filter { $0.hasPrefix("{\"") }.count == entries + 1)
    #expect(lines.filter { $0.hasPrefix("\"") && $0.hasSuffix(":[") }.count == 4)
    #expect(lines.filter { $0 == "]," }.count == 3)
    #expect(lines.last == "]}")
    #expect(!first.hasSuffix("\n"))
  }

  // MARK: Reading

  @Test("the minimal document with every required key reads")
  func minimalDocument() throws {
    #expect(try TraceGraph(dump: Self.minimal) == Self.minimalGraph)
  }

  @Test("unknown keys are ignored at every level, whatever their value")
  func unknownKeys() throws {
    let future =
      #""future":{"a":[1.5e-10,-0.25,1E+3,true,false,null,"\u00e9\ud83d\ude00",{}],"b":[]}"#
    let text =
      #"{"#
      + future + #","format":"streams-trace","version":1,"nodes":[{"extra":-12,"# + future + ","
      + String(Self.minimalNode.dropFirst())
      + #"],"edges":["# + String(Self.minimalEdge.dropLast()) + ",\"weight\":0.5}"
      + #"],"subscriptions":["# + Self.minimalSubscription
      + #"],"deliveries":["# + Self.minimalDelivery + #"],"comment":"hello"}"#
    #expect(try TraceGraph(dump: text) == Self.minimalGraph)
  }

  @Test("whitespace anywhere between tokens, any key order, null for optional keys")
  func lenientLayout() throws {
    let text = """
       \t\r
      {
        "deliveries" : [ { "time" : 0 , "thread" : 1 , "hop" : "direct" , "event" : "next" ,
                           "to" : 2 , "from" : 1 , "id" : 1 , "cause" : null , "value" : null } ] ,
        "subscriptions" : [ { "line" : 1 , "file" : "f" , "ownerGone" : false , "subscriber" : 2 ,
                              "node" : 1 , "id" : 1 , "owner" : null } ] ,
        "edges" : [ { "lastTime" : 0 , "firstTime" : 0 , "live" : 0 , "count" : 0 ,
                      "kind" : "emission" , "to" : 2 , "from" : 1 } ] ,
        "nodes" : [ { "recentValues" : [ ] , "eventCount" : 0 , "subscriptionCount" : 0 ,
                      "controlUpstreams" : [ ] , "upstreams" : [ ] , "line" : 1 , "file" : "f" ,
                      "role" : "source" , "kind" : "k" , "id" : 1 , "owner" : null ,
                      "name" : null } ] ,
        "version" : 1 , "format" : "streams-trace"
      }\r\n\t
      """
    #expect(try TraceGraph(dump: text) == Self.minimalGraph)
  }

  @Test("every escape, surrogate pairs, and a byte order mark")
  func escapes() throws {
    let text =
      "\u{FEFF}" + Self.head
      + #""nodes":[{"id":1,"kind":"\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC"#
      + #"\uD834\uDD1E\ud83d\ude00\u0000","#
      + #""role":"source","file":"f","line":1,"upstreams":[],"controlUpstreams":[],"#
      + #""subscriptionCount":0,"eventCount":0,"recentValues":[]}],"#
      + #""edges":[],"subscriptions":[],"deliveries":[]}"#
    let graph = try TraceGraph(dump: text)
    #expect(graph.nodes.first?.kind == "\"\\/\u{8}\u{C}\n\r\tAé€𝄞😀\u{0}")
  }

  @Test("extreme integers: UInt64.max, UInt32.max, Int.min and Int.max read exactly")
  func extremeIntegers() throws {
    let text =
      Self.head
      + #""nodes":[{"id":18446744073709551615,"kind":"k","role":"source","file":"f","#
      + #""line":0,"upstreams":[0,18446744073709551615],"controlUpstreams":[],"#
      + #""subscriptionCount":-9223372036854775808,"eventCount":9223372036854775807,"#
      + #""recentValues":[]}],"edges":[],"subscriptions":[],"deliveries":[{"id":0,"from":0,"#
      + #""to":0,"event":"next","hop":"task","thread":4294967295,"time":18446744073709551615,"#
      + #""cause":-0}]}"#
    // `cause` is unsigned: -0 is refused even though it is zero.
    #expect(
      Self.error(text)?.message
        == "expected an integer from 0 to 18446744073709551615 or null, found -0")
    let good = try TraceGraph(dump: text.replacing(#","cause":-0"#, with: ""))
    #expect(good.nodes[0].id == UInt64.max)
    #expect(good.nodes[0].upstreams == [0, UInt64.max])
    #expect(good.nodes[0].subscriptionCount == Int.min)
    #expect(good.nodes[0].eventCount == Int.max)
    #expect(good.deliveries[0].thread == UInt32.max)
    #expect(good.deliveries[0].time == UInt64.max)
  }

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

  // MARK: Nesting

  /// The minimal document with `value` under an unknown key.
  static func withUnknown(_ value: String) -> String {
    Self.head + "\"x\":" + value + "," + String(Self.minimal.dropFirst(Self.head.utf8.count))
  }

  @Test("nesting up to the limit reads; one level more throws at the extra bracket")
  func nestingLimit() throws {
    // The dump object is level 1, so 63 arrays under it make 64 levels.
    let atLimit = Self.withUnknown(
      String(repeating: "[", count: 63) + String(repeating: "]", count: 63))
    #expect(try TraceGraph(dump: atLimit) == Self.minimalGraph)

    let over = Self.withUnknown(
      String(repeating: "[", count: 64) + String(repeating: "]", count: 64))
    let error = try #require(Self.error(over))
    // "x": is at offset 38...41; the brackets start at 42 and the 64th is at 42 + 63.
    #expect(error.offset == 105)
    #expect(error.column == 106)
    #expect(error.message == "expected at most 64 nested arrays and objects, found one more '['")
    #expect(error.path == "x" + String(repeating: "[0]", count: 63))

    let objects = Self.withUnknown(
      String(repeating: #"{"k":"#, count: 64) + "1" + String(repeating: "}", count: 64))
    let objectError = try #require(Self.error(objects))
    #expect(objectError.offset == 42 + 5 * 63)
    #expect(
      objectError.message == "expected at most 64 nested arrays and objects, found one more '{'")
  }

  @Test("very deep nesting throws instead of exhausting the stack")
  func veryDeepNesting() {
    for text in [
      String(repeating: "[", count: 200_000), "{\"a\":" + String(repeating: "[", count: 200_000),
      String(repeating: #"{"a":"#, count: 100_000),
      Self.withUnknown(String(repeating: "[{\"a\":", count: 50_000)),
    ] {
      let error = Self.error(text)
      #expect(error != nil)
    }
  }

  // MARK: Truncation and corruption

  @Test("every proper prefix of a dump throws, at the end of the input")
  func everyPrefixThrows() throws {
    let bytes = Array(Self.rich.dump().utf8)
    for length in 0..<bytes.count {
      // Cutting inside a UTF-8 sequence leaves a replacement character, which is still a prefix
      // of a document that never closes.
      let text = String(decoding: bytes[..<length], as: UTF8.self)
      guard let error = Self.error(text) else {
        Issue.record("the prefix of \(length) bytes reads")
        continue
      }
      #expect(error.offset == text.utf8.count, "\(length): \(error)")
      #expect(error.message.hasSuffix("found end of input"), "\(length): \(error)")
      #expect(error.line >= 1 && error.column >= 1)
    }
    #expect(try TraceGraph(dump: String(decoding: bytes, as: UTF8.self)) == Self.rich)
  }

  /// SplitMix64: a small seeded generator, so failures reproduce.
  struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  @Test("seeded random byte mutations, insertions and deletions either read or throw")
  func randomMutations() throws {
    let original = Array(Self.rich.dump().utf8)
    let interesting =
      Array(#"{}[]:,"\/-+.0123456789eEtrufalsn u"#.utf8) + [0, 0x0A, 0x1F, 0x7F, 0xC3, 0xFF]
    var generator = SeededGenerator(state: 0x5EED_0000_0000_0012)
    var read = 0
    var thrown = 0
    for round in 0..<4000 {
      var bytes = original
      for _ in 0...Int.random(in: 0...2, using: &generator) {
        let position = Int.random(in: 0..<bytes.count, using: &generator)
        let byte =
          Bool.random(using: &generator)
          ? interesting.randomElement(using: &generator)!
          : UInt8.random(in: 0...255, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: bytes[position] = byte
        case 1: bytes.remove(at: position)
        default: bytes.insert(byte, at: position)
        }
      }
      let text = String(decoding: bytes, as: UTF8.self)
      let graph: TraceGraph
      do {
        graph = try TraceGraph(dump: text)
      } catch {
        thrown += 1
        #expect(error.offset >= 0 && error.offset <= text.utf8.count, "round \(round): \(error)")
        #expect(error.line >= 1 && error.column >= 1, "round \(round): \(error)")
        #expect(error.description.hasPrefix("offset \(error.offset) (line \(error.line), column"))
        #expect(
          error.message.contains("expected") || error.message.contains("missing")
            || error.message.contains("unsupported"), "round \(round): \(error)")
        continue
      }
      read += 1
      // Whatever was read writes and reads back the same.
      #expect(try TraceGraph(dump: graph.dump()) == graph, "round \(round)")
    }
    #expect(read > 0)
    #expect(thrown > 0)
    #expect(read + thrown == 4000)
  }
}
