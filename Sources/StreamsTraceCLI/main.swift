// `streams-trace`: questions and exports over StreamsTrace dumps. The commands, their messages
// and exit statuses live in `TraceCommand` (StreamsTrace), where they are tested; this file only
// reaches the file system. Run `swift run streams-trace --help`.

import StreamsTrace

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system's message for the last failed call.
func systemError() -> TraceCommand.FileError {
  TraceCommand.FileError(String(cString: strerror(errno)))
}

/// Reads the whole file at `path` (`-`: standard input).
@Sendable func readFile(_ path: String) throws(TraceCommand.FileError) -> String {
  let descriptor = path == "-" ? 0 : open(path, O_RDONLY)
  guard descriptor >= 0 else { throw systemError() }
  defer { if descriptor != 0 { close(descriptor) } }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65_536)
  while true {
    let count = read(descriptor, &buffer, buffer.count)
    if count < 0 {
      if errno == EINTR { continue }
      throw systemError()
    }
    if count == 0 { break }
    bytes.append(contentsOf: buffer[0..<count])
  }
  return String(decoding: bytes, as: UTF8.self)
}

/// Writes all of `text` to the open file `descriptor`.
func writeAll(_ text: String, to descriptor: Int32) throws(TraceCommand.FileError) {
  let bytes = Array(text.utf8)
  var offset = 0
  while offset < bytes.count {
    let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    if written < 0 {
      if errno == EINTR { continue }
      throw systemError()
    }
    offset += written
  }
}

/// Writes `text` to the file at `path`, replacing it.
@Sendable func writeFile(_ path: String, _ text: String) throws(TraceCommand.FileError) {
  let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  guard descriptor >= 0 else { throw systemError() }
  defer { close(descriptor) }
  try writeAll(text, to: descriptor)
}

let result = TraceCommand.run(
  Array(CommandLine.arguments.dropFirst()),
  environment: TraceCommand.Environment(read: readFile, write: writeFile))
try? writeAll(result.output, to: 1)
try? writeAll(result.error, to: 2)
exit(result.status.rawValue)
