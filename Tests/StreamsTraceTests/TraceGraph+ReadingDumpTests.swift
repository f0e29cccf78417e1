import StreamsTest
import Testing

@testable import StreamsTrace
@testable import StreamsTraceRecording

@Suite("TraceGraph read in chunks")
struct TraceGraphReadingDumpTests {
  /// Reads `bytes` handed over `size` bytes at a time.
  static func read(_ bytes: [UInt8], chunksOf size: Int) -> Result<TraceGraph, TraceDumpError> {
    var rest = bytes[...]
    return Result { () throws(TraceDumpError) in
      do throws(TraceDumpReadError) {
        return try TraceGraph(readingDump: {
          guard !rest.isEmpty else { return nil }
          defer { rest = rest.dropFirst(size) }
          return Array(rest.prefix(size))
        })
      } catch {
        guard case .dump(let problem) = error else { preconditionFailure("\(error)") }
        throw problem
      }
    }
  }

  static func whole(_ bytes: [UInt8]) -> Result<TraceGraph, TraceDumpError> {
    Result { () throws(TraceDumpError) in
      try TraceGraph(dump: String(decoding: bytes, as: UTF8.self))
    }
  }

  @Test(
    "every malformed dump gives the same error, offset, line and column in chunks as whole",
    arguments: TraceGraphDumpTests.syntaxErrors + TraceGraphDumpTests.decodeErrors)
  func sameErrors(_ malformed: TraceGraphDumpTests.Malformed) {
    let bytes = Array(malformed.input.utf8)
    for size in [1, 2, 3, 5, 64] {
      #expect(Self.read(bytes, chunksOf: size) == Self.whole(bytes), "chunks of \(size)")
    }
  }

  @Test("a multi-line dump cut anywhere, mutated anywhere: the same graph or the same error")
  func sameResultsUnderMutation() {
    let original = Array(TraceGraphDumpTests.rich.dump().utf8)
    #expect(Self.read(original, chunksOf: 1) == .success(TraceGraphDumpTests.rich))
    var generator = TraceGraphDumpTests.SeededGenerator(state: 0xC4A2_0000_0000_0026)
    let interesting = Array(#"{}[]:,"\-0123456789tn "#.utf8) + [0x0A, 0x0D, 0xC3, 0xFF]
    for round in 0..<1500 {
      var bytes = original
      for _ in 0...Int.random(in: 0...2, using: &generator) {
        let position = Int.random(in: 0..<bytes.count, using: &generator)
        let byte = interesting.randomElement(using: &generator)!
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: bytes[position] = byte
        case 1: bytes.remove(at: position)
        default: bytes.insert(byte, at: position)
        }
      }
      // Whole reading decodes the text, replacing invalid UTF-8: read the same bytes in chunks.
      let valid = Array(String(decoding: bytes, as: UTF8.self).utf8)
      let size = [1, 7, 50, 333][round % 4]
      #expect(Self.read(valid, chunksOf: size) == Self.whole(valid), "round \(round)")
    }
  }

  @Test("a dump of megabytes is read holding a window of kilobytes")
  func boundedWindow() throws {
    let app = GeneratedAppTrace.make(screens: 60, subscriptionsPerScreen: 25)
    let bytes = Array(app.dump().utf8)
    #expect(bytes.count > 1_000_000)
    var rest = bytes[...]
    var parser = DumpParser(chunks: {
      guard !rest.isEmpty else { return nil }
      defer { rest = rest.dropFirst(4096) }
      return Array(rest.prefix(4096))
    })
    #expect(try parser.parseDump() == app)
    // The longest record is under a kilobyte: the window holds a few chunks, whatever the size.
    #expect(parser.largestWindow <= 4 * 4096)
    var whole = DumpParser(String(decoding: bytes, as: UTF8.self))
    #expect(try whole.parseDump() == app)
    #expect(whole.largestWindow == bytes.count)
  }

  @Test("a chunk that cannot be read is that error, not a truncated dump; an empty chunk ends it")
  func readFailure() {
    let bytes = Array(TraceGraphDumpTests.rich.dump().utf8)
    var handed = 0
    let failing = Result { () throws(TraceDumpReadError) in
      try TraceGraph(readingDump: { () throws(TraceFile.Error) in
        handed += 1
        if handed == 3 { throw TraceFile.Error("Input/output error") }
        return Array(bytes[((handed - 1) * 100)..<(handed * 100)])
      })
    }
    #expect(failing == .failure(.file(TraceFile.Error("Input/output error"))))
    #expect(
      TraceDumpReadError.file(TraceFile.Error("Input/output error")).description
        == "cannot read: Input/output error")
    var chunks = [Array(bytes), []]
    let ended = Result { () throws(TraceDumpReadError) in
      try TraceGraph(readingDump: { chunks.isEmpty ? nil : chunks.removeFirst() })
    }
    #expect(ended == .success(TraceGraphDumpTests.rich))
  }

  @Test("a dump that ends early in chunks is the error of the truncated text")
  func endsEarly() {
    let bytes = Array(TraceGraphDumpTests.rich.dump().utf8)
    for length in stride(from: 0, to: bytes.count, by: 97) {
      let prefix = Array(bytes[..<length])
      let valid = Array(String(decoding: prefix, as: UTF8.self).utf8)
      #expect(Self.read(valid, chunksOf: 16) == Self.whole(valid), "\(length) bytes")
    }
  }
}
