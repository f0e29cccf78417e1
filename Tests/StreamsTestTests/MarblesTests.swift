import Streams
import StreamsTest
import Testing

@Suite("Marbles")
struct MarblesTests {
  @Test("one character is one frame of 10 ticks; values come from the map")
  func basic() throws {
    let events = try Marbles.parse("--a--b--|", values: ["a": 1, "b": 2])
    #expect(events == [.next(20, 1), .next(50, 2), .completed(80)])
  }

  @Test("groups put their events in the frame of '(' and take one frame per character")
  func groups() throws {
    let events = try Marbles.parse("-a-(bc)-|", values: ["a": 1, "b": 2, "c": 3], offset: 100)
    #expect(events == [.next(110, 1), .next(130, 2), .next(130, 3), .completed(180)])
    let terminal = try Marbles.parse("(a|)", values: ["a": 1])
    #expect(terminal == [.next(0, 1), .completed(0)])
  }

  @Test("spaces are ignored and take no time")
  func spaces() throws {
    let spaced = try Marbles.parse("  - a - | ", values: ["a": 1])
    let compact = try Marbles.parse("-a-|", values: ["a": 1])
    #expect(spaced == compact)
  }

  @Test("frame size and offset are configurable")
  func frameSize() throws {
    let events = try Marbles.parse("-a-|", values: ["a": "x"], frameSize: 1, offset: 200)
    #expect(events == [.next(201, "x"), .completed(203)])
  }

  @Test("'#' is the supplied error, MarbleDefaultError when none is given")
  func errors() throws {
    let custom = try Marbles.parse("-a#", values: ["a": 1], error: TestFailure.boom)
    #expect(custom == [.next(10, 1), .error(20, TestFailure.boom)])
    let standard = try Marbles.parse("#", values: [Character: Int]())
    #expect(standard == [.error(0, MarbleDefaultError())])
    #expect("\(MarbleDefaultError())" == "error")
  }

  @Test("'^' is the time origin: frames before it are earlier")
  func caret() throws {
    let events = try Marbles.parse("-a-^-b-|", values: ["a": 1, "b": 2], offset: 200)
    #expect(events == [.next(180, 1), .next(220, 2), .completed(240)])
  }

  @Test("a hot observable from marbles puts '^' at the subscription; start sees what follows")
  func hotObservable() throws {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = try scheduler.createHotObservable(
      marbles: "-a-^-b-c-|", values: ["a": 1, "b": 2, "c": 3])
    #expect(xs.recordedEvents == [.next(180, 1), .next(220, 2), .next(240, 3), .completed(260)])
    let res = scheduler.start { xs.map { $0 * 10 } }
    let expected = try Recorded.events(
      marbles: "   ^-B-C-|", values: ["B": 20, "C": 30])
    #expect(res.events == expected)
    #expect(xs.subscriptions == [Subscription(200, 260)])
  }

  @Test("a hot observable without '^' starts at the subscription time")
  func hotWithoutCaret() throws {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = try scheduler.createHotObservable(marbles: "-a-|", subscribed: 300)
    #expect(xs.recordedEvents == [.next(310, "a"), .completed(330)])
  }

  @Test("a cold observable from marbles is relative to each subscription")
  func coldObservable() throws {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = try scheduler.createColdObservable(marbles: "--a-(bc)|")
    let res = scheduler.start { xs.filter { $0 != "b" } }
    // The group still takes four frames, so the expectation keeps its width with a '-'.
    #expect(res.events == (try Recorded.events(marbles: "--a-(c)-|")))
    #expect(res.events == [.next(220, "a"), .next(240, "c"), .completed(280)])
    #expect(xs.subscriptions == [Subscription(200, 280)])
  }

  @Test("expected recordings from marbles default to an offset of 200")
  func expectations() throws {
    let expected = try Recorded.events(marbles: "-a-b-|", values: ["a": 1, "b": 2])
    #expect(expected == [.next(210, 1), .next(230, 2), .completed(250)])
    let shifted = try Recorded.events(marbles: "a|", offset: 0)
    #expect(shifted == [.next(0, "a"), .completed(10)])
  }

  @Test(
    "malformed diagrams throw a MarbleError naming index, character and expectation",
    arguments: [
      ("--a--x", 5, "x", "'-', '|', '#', '^', '(', ')' or a character of the values map"),
      ("--a--)", 5, ")", "'(' before ')'"),
      ("-(a(b))", 3, "(", "')' to close the group opened at index 1"),
      ("-()", 2, ")", "at least one event inside the group"),
      ("-(a-b)", 3, "-", "a value, '|', '#' or ')' inside a group"),
      ("-(^a)", 2, "^", "'^' outside a group"),
      ("-^-^", 3, "^", "a single '^'"),
    ] as [(String, Int, Character, String)])
  func malformed(marbles: String, index: Int, character: Character, expected: String) {
    #expect(
      throws: MarbleError(
        marbles: marbles, index: index, character: character, expected: expected)
    ) {
      try Marbles.parse(marbles, values: ["a": 1, "b": 2])
    }
  }

  @Test("an unclosed group fails at the end of the diagram")
  func unclosed() throws {
    let error = try #require(throws: MarbleError.self) {
      try Marbles.parse("-a-(a", values: ["a": 1])
    }
    #expect(error.index == 5)
    #expect(error.character == nil)
    #expect(
      error.description
        == "marble diagram \"-a-(a\": at index 5 (end of diagram): expected ')' to close the group opened at index 3"
    )
  }

  @Test("the index counts spaces, so it points into the string as written")
  func indexWithSpaces() throws {
    let error = try #require(throws: MarbleError.self) {
      try Marbles.parse("- a - ?", values: ["a": 1])
    }
    #expect(error.index == 6)
    #expect(error.character == "?")
  }

  @Test("a cold observable rejects '^'")
  func coldCaret() {
    let scheduler = TestScheduler(initialClock: 0)
    #expect(throws: MarbleError.self) {
      try scheduler.createColdObservable(marbles: "-^-a|")
    }
    #expect(throws: MarbleError.self) {
      try scheduler.createColdObservable(marbles: "^a", values: ["a": 1])
    }
  }

  @Test("render draws recordings back as diagrams")
  func render() throws {
    let diagram = "-a-(bc)--|"
    let values: [Character: Int] = ["a": 1, "b": 2, "c": 3]
    let events = try Recorded.events(marbles: diagram, values: values)
    #expect(Marbles.render(events, values: values) == diagram)
    #expect(Marbles.render([Recorded<Event<Int>>](), values: values) == "")
    let failed: [Recorded<Event<Int>>] = [.next(200, 1), .error(220, TestFailure.boom)]
    #expect(Marbles.render(failed, values: values) == "a-#")
    let custom = Marbles.render([.next(5, 7)], frameSize: 5, offset: 0) {
      Character(String($0))
    }
    #expect(custom == "-7")
  }

  @Test("render returns nil for recordings a diagram cannot show")
  func renderImpossible() {
    let values: [Character: Int] = ["a": 1]
    #expect(Marbles.render([.next(215, 1)], values: values) == nil)
    #expect(Marbles.render([.next(190, 1)], values: values) == nil)
    #expect(Marbles.render([.next(210, 2)], values: values) == nil)
    // A group takes four frames here, so an event one frame later cannot be drawn.
    #expect(Marbles.render([.next(200, 1), .next(200, 1), .next(210, 1)], values: values) == nil)
    #expect(Marbles.render([.next(200, "-")], frameSize: 10, offset: 200) { $0.first } == nil)
  }
}
