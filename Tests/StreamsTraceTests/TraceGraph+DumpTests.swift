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
}
