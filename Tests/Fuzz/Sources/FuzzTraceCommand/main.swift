// Fuzz target: the `streams-trace` command line. The input, as UTF-8 (invalid sequences
// repaired), is split at its first empty line: the lines before it are the arguments, one per
// line; what follows is the content of every file the command reads (a path of `missing` fails
// to read instead). Writes go nowhere. Any command line must end with a documented status and,
// on a usage or input error, a message; none may trap.

import FuzzShims
import StreamsTrace

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let text = String(decoding: bytes, as: UTF8.self)
  let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
  let split = lines.firstIndex(of: "") ?? lines.endIndex
  let arguments = lines[..<split].map(String.init)
  let file = lines[split...].dropFirst().joined(separator: "\n")
  let environment = TraceCommand.Environment(
    read: { path throws(TraceFile.Error) in
      if path == "missing" { throw TraceFile.Error("missing: No such file or directory") }
      return file
    },
    write: { _, _ throws(TraceFile.Error) in })
  let result = TraceCommand.run(arguments, environment: environment)
  switch result.status {
  case .usage, .badInput, .noInput, .cannotWrite:
    precondition(!result.error.isEmpty, "status \(result.status) without a message")
  case .success, .found:
    break
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
