#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads and writes the files of traces: dumps, exports (StreamsTrace does not use Foundation).
public enum TraceFile {
  /// Why a file could not be read or written, as the system says it.
  public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
  }

  /// Makes the folder at `path` and the folders above it that are missing.
  public static func makeFolder(_ path: String) throws(Error) {
    var folder = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
      folder += "/" + part
      if mkdir(folder, 0o755) != 0 && errno != EEXIST { throw systemError() }
    }
  }

  /// Reads at most `limit` bytes from the start of the file at `path` as UTF-8 (a character cut
  /// at the end reads as U+FFFD).
  public static func read(_ path: String, upTo limit: Int) throws(Error) -> String {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw systemError() }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: max(0, limit))
    var filled = 0
    while filled < buffer.count {
      let count = buffer[filled...].withUnsafeMutableBytes {
        systemRead(descriptor, $0.baseAddress, $0.count)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw systemError()
      }
      if count == 0 { break }
      filled += count
    }
    return String(decoding: buffer[..<filled], as: UTF8.self)
  }

  /// Reads the whole file at `path` as UTF-8 (`-`: standard input).
  public static func read(_ path: String) throws(Error) -> String {
    let descriptor = path == "-" ? 0 : open(path, O_RDONLY)
    guard descriptor >= 0 else { throw systemError() }
    defer { if descriptor != 0 { close(descriptor) } }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = systemRead(descriptor, &buffer, buffer.count)
      if count < 0 {
        if errno == EINTR { continue }
        throw systemError()
      }
      if count == 0 { break }
      bytes.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Writes `text` to the file at `path`, replacing it (`-`: standard output).
  public static func write(_ text: String, to path: String) throws(Error) {
    if path == "-" { return try write(text, toDescriptor: 1) }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw systemError() }
    defer { close(descriptor) }
    try write(text, toDescriptor: descriptor)
  }

  /// Writes all of `text` to the open file `descriptor` (1: standard output, 2: standard error).
  public static func write(_ text: String, toDescriptor descriptor: Int32) throws(Error) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes {
        systemWrite(descriptor, $0.baseAddress, $0.count)
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw systemError()
      }
      offset += written
    }
  }

  private static func systemError() -> Error {
    Error(String(cString: strerror(errno)))
  }
}

// `read` and `write` by names that the static methods above do not shadow.
@inline(__always)
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{
  read(descriptor, buffer, count)
}

@inline(__always)
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
