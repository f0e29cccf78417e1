public import Streams

/// Marble diagrams: a string form of a recording, such as `"--a--b--|"`.
///
/// ```swift
/// let xs = try scheduler.createColdObservable(marbles: "-a-b-|", values: ["a": 1, "b": 2])
/// let res = scheduler.start { xs.map { $0 * 10 } }
/// let expected = try Recorded.events(marbles: "-a-b-|", values: ["a": 10, "b": 20])
/// #expect(res.events == expected)   // [.next(210, 10), .next(230, 20), .completed(250)]
/// ```
///
/// Syntax (as RxJS marbles; one character is one frame of ``defaultFrameSize`` ticks unless a
/// `frameSize` is given):
///
/// | character | meaning |
/// | --- | --- |
/// | `-` | one frame passes |
/// | `a`, `1`, ... | a `.next` of the value the `values` map gives for the character |
/// | `|` | `.completed` |
/// | `#` | `.error` with the supplied error |
/// | `^` | the subscription point of a hot observable (or the offset of an expectation) |
/// | `(ab)` | a group: its events happen in the frame of `(`; the group still takes one frame per character, parentheses included |
/// | space | ignored: use it to line diagrams up; it takes no time |
///
/// Times: frame `i` (counting every character but spaces) is at
/// `base + (i - caret) * frameSize`, where `caret` is the frame of `^` (0 without one) and `base`
/// is the subscription time for hot observables (default 200), 0 for cold ones (relative to each
/// subscription) and `offset` for expectations (default 200). Events after a terminal event are
/// kept, as RxTest recordings allow them. Malformed diagrams throw a ``MarbleError``.
public enum Marbles {
  /// Ticks per frame when no `frameSize` is given: 10, so that `"--a"` puts `a` 20 ticks in.
  public static let defaultFrameSize: TestTime = 10

  /// Parses `marbles` into recorded events.
  ///
  /// ```swift
  /// let events = try Marbles.parse("-a-(bc)-|", values: ["a": 1, "b": 2, "c": 3], offset: 0)
  /// print(events)
  /// // Prints "[next(1) @ 10, next(2) @ 30, next(3) @ 30, completed @ 80]"
  /// ```
  ///
  /// - Parameters:
  ///   - marbles: The diagram.
  ///   - values: The element for each value character.
  ///   - error: The error `#` stands for.
  ///   - frameSize: Ticks per frame.
  ///   - offset: The time of frame 0, or of `^` when the diagram has one.
  ///   - allowsSubscriptionPoint: `false` makes `^` a parse error (cold observables).
  /// - Throws: ``MarbleError`` naming the offending character and what was expected there.
  public static func parse<Element>(
    _ marbles: String, values: [Character: Element], error: any Error = MarbleDefaultError(),
    frameSize: TestTime = defaultFrameSize, offset: TestTime = 0,
    allowsSubscriptionPoint: Bool = true
  ) throws -> [Recorded<Event<Element>>] {
    try parse(
      marbles, error: error, frameSize: frameSize, offset: offset,
      allowsSubscriptionPoint: allowsSubscriptionPoint
    ) { values[$0] }
  }

  /// Renders recorded events as a marble diagram, or returns `nil` when they cannot be drawn:
  /// a time before `offset` or between frames, two groups that overlap, or an element without a
  /// symbol.
  ///
  /// ```swift
  /// let line = Marbles.render([.next(210, 1), .completed(250)], offset: 200) {
  ///   Character(String($0))
  /// }
  /// print(line ?? "-")
  /// // Prints "-1---|"
  /// ```
  ///
  /// - Parameters:
  ///   - events: The recorded events to draw.
  ///   - frameSize: The virtual time one character stands for.
  ///   - offset: The virtual time of the first character (the subscription time by default).
  ///   - symbol: The character for an element, or `nil` when it has none.
  public static func render<Element>(
    _ events: [Recorded<Event<Element>>], frameSize: TestTime = defaultFrameSize,
    offset: TestTime = TestScheduler.Defaults.subscribed, symbol: (Element) -> Character?
  ) -> String? {
    var output = ""
    var cursor = 0  // the next free frame
    var index = events.startIndex
    while index < events.endIndex {
      let time = events[index].time
      guard time >= offset, (time - offset) % frameSize == 0 else { return nil }
      let frame = (time - offset) / frameSize
      guard frame >= cursor else { return nil }
      var symbols: [Character] = []
      while index < events.endIndex, events[index].time == time {
        guard let character = marbleSymbol(events[index].value, symbol: symbol) else { return nil }
        symbols.append(character)
        index += 1
      }
      output += String(repeating: "-", count: frame - cursor)
      if symbols.count == 1 {
        output.append(symbols[0])
        cursor = frame + 1
      } else {
        output += "(" + String(symbols) + ")"
        cursor = frame + symbols.count + 2
      }
    }
    return output
  }

  /// Renders recorded events, naming each element by its key in `values` (the reverse of
  /// ``parse(_:values:error:frameSize:offset:allowsSubscriptionPoint:)``).
  ///
  /// ```swift
  /// let line = Marbles.render([.next(220, 5), .completed(240)], values: ["x": 5])
  /// print(line ?? "-")
  /// // Prints "--x-|"
  /// ```
  public static func render<Element: Equatable>(
    _ events: [Recorded<Event<Element>>], values: [Character: Element],
    frameSize: TestTime = defaultFrameSize, offset: TestTime = TestScheduler.Defaults.subscribed
  ) -> String? {
    let keys = values.keys.sorted()
    return render(events, frameSize: frameSize, offset: offset) { element in
      keys.first { values[$0] == element }
    }
  }

  /// The symbol of an element whose description is a single character that marbles can show,
  /// used by the failure diffs.
  static func describedSymbol<Element>(_ element: Element) -> Character? {
    let text = String(describing: element)
    guard text.count == 1, let character = text.first, !reserved.contains(character) else {
      return nil
    }
    return character
  }

  static let reserved: Set<Character> = ["-", "|", "#", "^", "(", ")", " "]

  private static func marbleSymbol<Element>(
    _ event: Event<Element>, symbol: (Element) -> Character?
  ) -> Character? {
    switch event {
    case .next(let element):
      guard let character = symbol(element), !reserved.contains(character),
        !character.isWhitespace
      else { return nil }
      return character
    case .completed: return "|"
    case .error: return "#"
    }
  }

  static func parse<Element>(
    _ marbles: String, error: any Error, frameSize: TestTime, offset: TestTime,
    allowsSubscriptionPoint: Bool, value: (Character) -> Element?
  ) throws -> [Recorded<Event<Element>>] {
    if frameSize <= 0 { fatalError("Marbles need a positive frameSize, got \(frameSize)") }
    var parsed: [(frame: Int, event: Event<Element>)] = []
    var frame = 0
    var caret: Int?
    var group: (frame: Int, index: Int, events: Int)?
    func fail(_ index: Int, _ character: Character?, _ expected: String) -> MarbleError {
      MarbleError(marbles: marbles, index: index, character: character, expected: expected)
    }
    for (index, character) in marbles.enumerated() {
      if character.isWhitespace { continue }
      let eventFrame = group?.frame ?? frame
      switch character {
      case "-":
        if group != nil {
          throw fail(index, character, "a value, '|', '#' or ')' inside a group")
        }
      case "(":
        if let open = group {
          throw fail(index, character, "')' to close the group opened at index \(open.index)")
        }
        group = (frame, index, 0)
      case ")":
        guard let open = group else {
          throw fail(index, character, "'(' before ')'")
        }
        if open.events == 0 {
          throw fail(index, character, "at least one event inside the group")
        }
        group = nil
      case "^":
        if group != nil {
          throw fail(index, character, "'^' outside a group")
        }
        if !allowsSubscriptionPoint {
          throw fail(index, character, "no '^': cold observables start at their subscription")
        }
        if caret != nil {
          throw fail(index, character, "a single '^'")
        }
        caret = frame
      case "|":
        parsed.append((eventFrame, .completed))
        group?.events += 1
      case "#":
        parsed.append((eventFrame, .error(error)))
        group?.events += 1
      default:
        guard let element = value(character) else {
          throw fail(
            index, character, "'-', '|', '#', '^', '(', ')' or a character of the values map")
        }
        parsed.append((eventFrame, .next(element)))
        group?.events += 1
      }
      frame += 1
    }
    if let open = group {
      throw fail(
        marbles.count, nil, "')' to close the group opened at index \(open.index)")
    }
    let start = caret ?? 0
    return parsed.map { Recorded(time: offset + ($0.frame - start) * frameSize, value: $0.event) }
  }
}

/// A malformed marble diagram: where it went wrong and what was expected there.
///
/// ```swift
/// do {
///   _ = try Marbles.parse("--a--)", values: ["a": 1])
/// } catch {
///   print(error)
/// }
/// // Prints "marble diagram "--a--)": at index 5 (')'): expected '(' before ')'"
/// ```
public struct MarbleError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The whole diagram.
  public let marbles: String
  /// The offset of the offending character in the diagram, counted in characters (spaces
  /// included); `marbles.count` when the diagram ended too early.
  public let index: Int
  /// The offending character, or `nil` when the diagram ended too early.
  public let character: Character?
  /// What the parser expected at that position.
  public let expected: String

  /// An error at `index`.
  public init(marbles: String, index: Int, character: Character?, expected: String) {
    self.marbles = marbles
    self.index = index
    self.character = character
    self.expected = expected
  }

  /// A message naming the diagram, the position and the expectation.
  public var description: String {
    let found = character.map { "'\($0)'" } ?? "end of diagram"
    return "marble diagram \"\(marbles)\": at index \(index) (\(found)): expected \(expected)"
  }
}

/// The error `#` stands for when no error is supplied: equal to any other `MarbleDefaultError`.
///
/// ```swift
/// let xs = try scheduler.createColdObservable(marbles: "-#", values: [Character: Int]())
/// let res = scheduler.start { xs }
/// // res.events == [.error(210, MarbleDefaultError())]
/// ```
public struct MarbleDefaultError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
  /// The default error.
  public init() {}

  /// `"error"`, as RxJS's default marble error.
  public var description: String { "error" }
}

extension TestScheduler {
  /// A hot observable from a marble diagram: `^` (or, without one, the first character) is at
  /// `subscribed`, and frames before it are earlier.
  ///
  /// ```swift
  /// let xs = try scheduler.createHotObservable(marbles: "-a-^-b-|", values: ["a": 1, "b": 2])
  /// // xs.recordedEvents == [.next(180, 1), .next(220, 2), .completed(240)]
  /// let res = scheduler.start { xs }
  /// // res.events == [.next(220, 2), .completed(240)]
  /// ```
  ///
  /// - Throws: ``MarbleError`` for a malformed diagram or a character missing from `values`.
  public func createHotObservable<Element>(
    marbles: String, values: [Character: Element], error: any Error = MarbleDefaultError(),
    frameSize: TestTime = Marbles.defaultFrameSize, subscribed: TestTime = Defaults.subscribed
  ) throws -> TestableObservable<Element> {
    createHotObservable(
      try Marbles.parse(
        marbles, values: values, error: error, frameSize: frameSize, offset: subscribed))
  }

  /// A hot observable of `String`s from a marble diagram: each value character stands for
  /// itself.
  ///
  /// ```swift
  /// let xs = try scheduler.createHotObservable(marbles: "^-a-|")
  /// // xs.recordedEvents == [.next(220, "a"), .completed(240)]
  /// ```
  public func createHotObservable(
    marbles: String, error: any Error = MarbleDefaultError(),
    frameSize: TestTime = Marbles.defaultFrameSize, subscribed: TestTime = Defaults.subscribed
  ) throws -> TestableObservable<String> {
    createHotObservable(
      try Marbles.parse(
        marbles, error: error, frameSize: frameSize, offset: subscribed,
        allowsSubscriptionPoint: true
      ) { String($0) })
  }

  /// A cold observable from a marble diagram: frame 0 is each subscription's time.
  ///
  /// ```swift
  /// let xs = try scheduler.createColdObservable(marbles: "--a-|", values: ["a": 1])
  /// let res = scheduler.start { xs }
  /// // res.events == [.next(220, 1), .completed(240)]
  /// ```
  ///
  /// - Throws: ``MarbleError`` for a malformed diagram, a character missing from `values`, or a
  ///   `^` (a cold observable has no subscription point of its own).
  public func createColdObservable<Element>(
    marbles: String, values: [Character: Element], error: any Error = MarbleDefaultError(),
    frameSize: TestTime = Marbles.defaultFrameSize
  ) throws -> TestableObservable<Element> {
    createColdObservable(
      try Marbles.parse(
        marbles, values: values, error: error, frameSize: frameSize, offset: 0,
        allowsSubscriptionPoint: false))
  }

  /// A cold observable of `String`s from a marble diagram: each value character stands for
  /// itself.
  ///
  /// ```swift
  /// let xs = try scheduler.createColdObservable(marbles: "-a-(bc)|")
  /// // xs.recordedEvents == [.next(10, "a"), .next(30, "b"), .next(30, "c"), .completed(70)]
  /// ```
  public func createColdObservable(
    marbles: String, error: any Error = MarbleDefaultError(),
    frameSize: TestTime = Marbles.defaultFrameSize
  ) throws -> TestableObservable<String> {
    createColdObservable(
      try Marbles.parse(
        marbles, error: error, frameSize: frameSize, offset: 0, allowsSubscriptionPoint: false
      ) { String($0) })
  }
}

extension Recorded {
  /// Expected recorded events from a marble diagram: frame 0 (or `^`) is at `offset`, by default
  /// the subscription time of ``TestScheduler/start(file:line:_:)``.
  ///
  /// ```swift
  /// let expected = try Recorded.events(marbles: "-a-b-|", values: ["a": 1, "b": 2])
  /// // [.next(210, 1), .next(230, 2), .completed(250)]
  /// ```
  ///
  /// - Throws: ``MarbleError`` for a malformed diagram or a character missing from `values`.
  public static func events<Element>(
    marbles: String, values: [Character: Element], error: any Error = MarbleDefaultError(),
    frameSize: TestTime = Marbles.defaultFrameSize,
    offset: TestTime = TestScheduler.Defaults.subscribed
  ) throws -> [Recorded<Event<Element>>] where Value == Event<Element> {
    try Marbles.parse(marbles, values: values, error: error, frameSize: frameSize, offset: offset)
  }

  /// Expected recorded `String` events from a marble diagram: each value character stands for
  /// itself.
  ///
  /// ```swift
  /// let expected = try Recorded.events(marbles: "-a-|")
  /// // [.next(210, "a"), .completed(230)]
  /// ```
  public static func events(
    marbles: String, error: any Error = MarbleDefaultError(),
    frameSize: TestTime = Marbles.defaultFrameSize,
    offset: TestTime = TestScheduler.Defaults.subscribed
  ) throws -> [Recorded<Event<String>>] where Value == Event<String> {
    try Marbles.parse(
      marbles, error: error, frameSize: frameSize, offset: offset, allowsSubscriptionPoint: true
    ) { String($0) }
  }
}
