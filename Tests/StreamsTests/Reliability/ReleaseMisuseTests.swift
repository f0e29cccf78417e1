import Foundation
import Testing

/// Misuse messages survive release builds: `precondition` drops its message at -O (the program
/// stops with "Illegal instruction" and nothing else), so every misuse stop in Streams is a
/// `fatalError`, which keeps it. This builds `Tests/MisuseProbe` in release, in a scratch folder
/// of its own (the first run takes about a minute), and runs each misuse in a child process.
@Suite("Misuse messages in release builds", .serialized)
struct ReleaseMisuseTests {
  /// The package root: three folders up from this file.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let scratch = root.appendingPathComponent(".build/release-misuse-probe")

  /// Runs `executable` with `arguments`; its exit status and what it wrote to standard error.
  static func run(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, error: String)
  {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = root
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// The release build of the probe.
  static func probe() throws -> URL {
    let swift = URL(fileURLWithPath: "/usr/bin/env")
    let build = try run(
      swift,
      [
        "swift", "build", "-c", "release", "--product", "MisuseProbe", "--scratch-path",
        scratch.path,
      ])
    guard build.status == 0 else {
      throw BuildFailed(output: build.error)
    }
    return scratch.appendingPathComponent("release/MisuseProbe")
  }

  struct BuildFailed: Error, CustomStringConvertible {
    let output: String
    var description: String { "swift build -c release --product MisuseProbe failed:\n\(output)" }
  }

  @Test(
    "each misuse stops a release build with its message",
    .timeLimit(.minutes(10)))
  func releaseMessages() throws {
    let probe = try Self.probe()
    let cases = [
      ("take-negative", "take(_:): count can't be negative (got -1)"),
      ("write-during-update", "was written inside its own update { } body"),
      ("bind-error", "binding error to a relay"),
    ]
    for (misuse, message) in cases {
      let result = try Self.run(probe, [misuse])
      #expect(result.status != 0, "\(misuse) did not stop the program")
      #expect(result.error.contains(message), "\(misuse): \(result.error)")
    }
  }
}
