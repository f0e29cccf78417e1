import Streams
import StreamsTrace
import Testing

extension TraceGraphDumpTests {
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
