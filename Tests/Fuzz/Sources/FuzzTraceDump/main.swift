// Fuzz target: the trace dump reader. The input, as UTF-8 (invalid sequences repaired), is read
// as a dump: it must give a graph or a `TraceDumpError` whose offset, line and column lie inside
// the text; none may trap. A graph that reads is written again and must read back the same. The
// same text read in chunks (`TraceGraph(readingDump:)`, chunk size from the input's length) must
// give the same graph or the same error.

import FuzzShims
import StreamsTrace

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let text = String(decoding: bytes, as: UTF8.self)
  var rest = Array(text.utf8)[...]
  let chunk = 1 + size % 13
  let chunked = Result { () throws(TraceDumpReadError) in
    try TraceGraph(readingDump: {
      guard !rest.isEmpty else { return nil }
      defer { rest = rest.dropFirst(chunk) }
      return Array(rest.prefix(chunk))
    })
  }
  let whole = Result { () throws(TraceDumpError) in try TraceGraph(dump: text) }
    .mapError { TraceDumpReadError.dump($0) }
  precondition(chunked == whole, "read in chunks of \(chunk): \(chunked), whole: \(whole)")
  do throws(TraceDumpError) {
    let graph = try TraceGraph(dump: text)
    let again = try TraceGraph(dump: graph.dump())
    precondition(again == graph, "a dump written from a read graph reads back differently")
  } catch {
    precondition(
      error.offset >= 0 && error.offset <= text.utf8.count && error.line >= 1
        && error.column >= 1,
      "error position outside the text: \(error)")
    _ = error.description
  }
  return 0
}

// SwiftPM makes this file's top-level code the program's `main`, so libFuzzer's own `main` is not
// linked in: run its driver with the target above.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

var arguments = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&arguments, &argumentValues, fuzz))
