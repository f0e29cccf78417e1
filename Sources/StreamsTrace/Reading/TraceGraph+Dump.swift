extension TraceGraph {
  /// Reads a graph from a document written by ``/StreamsTraceRecording/TraceGraph/dump()``.
  ///
  /// ```swift
  /// let graph = try TraceGraph(dump: text)
  /// print(graph.nodes.count)
  /// // Prints "12"
  ///
  /// do {
  ///   _ = try TraceGraph(dump: #"{"format":"streams-trace","version":1,"nodes":[}"#)
  /// } catch {
  ///   print(error)
  /// }
  /// // Prints "offset 47 (line 1, column 48) at nodes: expected a value or ']' to end the
  /// // array, found '}'"
  /// ```
  ///
  /// The reader is strict about JSON (RFC 8259: no comments, no trailing commas, no single
  /// quotes, no unescaped control characters in strings, unpaired UTF-16 surrogate escapes
  /// rejected) and lenient about the schema in the directions that keep it forward compatible:
  /// keys it does not know are skipped, whatever their value, and `null` stands for an absent
  /// optional key. A leading byte order mark is skipped. Numbers read into fields must be
  /// integers written without fraction or exponent that fit the field's type exactly. Arrays and
  /// objects may nest at most 64 deep. The reader checks syntax and types, not the graph's
  /// consistency (an edge may name a node that is not in `nodes`, as a hand-made graph may).
  ///
  /// - Parameter text: A dump, as written by ``/StreamsTraceRecording/TraceGraph/dump()`` or by a compatible writer.
  /// - Throws: ``TraceDumpError`` when the text is not valid JSON, is not a trace dump
  ///   (`format` is not `"streams-trace"`), has a version this reader does not support, lacks a
  ///   required key, repeats a key, or has a value of the wrong type or out of range. The error
  ///   gives the UTF-8 byte offset, line and column, the path of the value where known, and what
  ///   was expected and found. Any input gives a graph or an error; none traps.
  public init(dump text: String) throws(TraceDumpError) {
    var parser = DumpParser(text)
    self = try parser.parseDump()
  }

  /// Reads a dump handed over in chunks, as ``init(dump:)`` reads it whole, holding only the
  /// chunk being read and the record in it: memory grows with the graph, not with the file.
  ///
  /// ```swift
  /// let file = try TraceFile.chunks("screen.dump.json")
  /// let graph = try TraceGraph(readingDump: file.next)
  /// ```
  ///
  /// The bytes are read as they are: a dump that is not valid UTF-8 reads as ``init(dump:)``
  /// reads the text `String(decoding:as:)` makes of it, but its error offsets count the bytes
  /// given.
  ///
  /// - Parameter nextChunk: Gives the next bytes of the dump, in order, and `nil` (or an empty
  ///   chunk) at its end. Chunks may be cut anywhere, even inside a character.
  /// - Throws: ``TraceDumpReadError/file(_:)`` with what `nextChunk` threw, or
  ///   ``TraceDumpReadError/dump(_:)`` with the ``TraceDumpError`` that ``init(dump:)`` would
  ///   throw.
  public init(readingDump nextChunk: () throws(TraceFile.Error) -> [UInt8]?)
    throws(TraceDumpReadError)
  {
    var failure: TraceFile.Error?
    let graph = withoutActuallyEscaping(nextChunk) { next -> Result<TraceGraph, TraceDumpError> in
      var parser = DumpParser(chunks: {
        do throws(TraceFile.Error) {
          return try next()
        } catch {
          failure = error  // the parser then sees the input end
          return nil
        }
      })
      return Result { () throws(TraceDumpError) in try parser.parseDump() }
    }
    if let failure { throw .file(failure) }
    switch graph {
    case .success(let graph): self = graph
    case .failure(let error): throw .dump(error)
    }
  }
}

/// Why a dump handed over in chunks (``StreamsTraceRecording/TraceGraph/init(readingDump:)``) could not be read.
public enum TraceDumpReadError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The chunks could not be read: what the system said.
  case file(TraceFile.Error)
  /// They are not a dump this reader can read.
  case dump(TraceDumpError)

  /// `cannot read: ...`, or the dump error's description.
  public var description: String {
    switch self {
    case .file(let error): "cannot read: \(error.message)"
    case .dump(let error): error.description
    }
  }
}

/// Why a trace dump could not be read, and where.
///
/// ```swift
/// do {
///   _ = try TraceGraph(dump: "{\"format\":\"streams-trace\",\n\"version\":2}")
/// } catch {
///   print(error)
/// }
/// // Prints "offset 37 (line 2, column 11) at version: unsupported version 2: this reader
/// // supports version 1 (the dump was written by a newer StreamsTrace)"
/// ```
public struct TraceDumpError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The UTF-8 byte offset in the input where the problem is (the input's length when the input
  /// ended too early).
  public var offset: Int
  /// The 1-based line of ``offset`` (lines end at `\n`, `\r\n` or `\r`).
  public var line: Int
  /// The 1-based column of ``offset``, counted in Unicode scalars from the start of the line.
  public var column: Int
  /// Where the problem is in the document, like `nodes[3].upstreams[1]`; `nil` at the top level.
  public var path: String?
  /// What was expected and what was found.
  public var message: String

  /// An error with the given position and message.
  ///
  /// - Parameters:
  ///   - offset: The UTF-8 byte offset in the input.
  ///   - line: The 1-based line of the offset.
  ///   - column: The 1-based column of the offset, in Unicode scalars.
  ///   - path: The path of the value in the document, if known.
  ///   - message: What was expected and what was found.
  public init(offset: Int, line: Int, column: Int, path: String? = nil, message: String) {
    self.offset = offset
    self.line = line
    self.column = column
    self.path = path
    self.message = message
  }

  /// `offset 1234 (line 40, column 7) at nodes[3]: expected ',' or ']' after an array element,
  /// found '}'`.
  public var description: String {
    var text = "offset \(offset) (line \(line), column \(column))"
    if let path {
      text += " at \(path)"
    }
    return text + ": " + message
  }
}
