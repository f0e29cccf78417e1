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

  /// Reads the whole file at `path` as UTF-8 (`-`: standard input).
  public static func read(_ path: String) throws(Error) -> String {
    let file = try chunks(path)
    var bytes: [UInt8] = []
    while let chunk = try file.next() {
      bytes.append(contentsOf: chunk)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Opens the file at `path` (`-`: standard input) to be read a chunk at a time, as
  /// `TraceGraph(readingDump:)`, in StreamsTrace, reads a dump.
  ///
  /// - Parameters:
  ///   - path: The file, or `-` for standard input (never closed here).
  ///   - size: The most bytes a chunk holds.
  /// - Throws: ``Error`` with the system's message when the file cannot be opened.
  public static func chunks(_ path: String, size: Int = 65_536) throws(Error) -> Chunks {
    let descriptor = path == "-" ? 0 : open(path, O_RDONLY)
    guard descriptor >= 0 else { throw systemError() }
    return Chunks(descriptor: descriptor, owned: path != "-", size: max(1, size))
  }

  /// A file open for reading, a chunk at a time; closed at its end or when let go of.
  public final class Chunks {
    private var descriptor: Int32
    /// Whether it is closed here (standard input is not).
    private let owned: Bool
    private let size: Int

    fileprivate init(descriptor: Int32, owned: Bool, size: Int) {
      self.descriptor = descriptor
      self.owned = owned
      self.size = size
    }

    /// The next bytes of the file (at most the chunk size), or `nil` at its end.
    public func next() throws(Error) -> [UInt8]? {
      guard descriptor >= 0 else { return nil }
      var buffer = [UInt8](repeating: 0, count: size)
      while true {
        let count = systemRead(descriptor, &buffer, buffer.count)
        if count < 0 {
          if errno == EINTR { continue }
          throw systemError()
        }
        if count == 0 {
          finish()
          return nil
        }
        buffer.removeSubrange(count...)
        return buffer
      }
    }

    private func finish() {
      if owned, descriptor >= 0 { close(descriptor) }
      descriptor = -1
    }

    deinit { finish() }
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

  fileprivate static func systemError() -> Error {
    Error(String(cString: strerror(errno)))
  }
}

// A file's position is shared state: a `Chunks` stays on the thread that reads it.
@available(*, unavailable)
extension TraceFile.Chunks: Sendable {}

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
