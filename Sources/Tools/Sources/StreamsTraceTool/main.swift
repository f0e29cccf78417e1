// `streams-trace` of the developer tools: `map` (the static map, which needs SwiftSyntax) and
// every command of the root package's `streams-trace` (`TraceCommand`), so one command line
// answers them all. Run `swift run --package-path Sources/Tools streams-trace --help`.

import ArgumentParser
import Foundation
import StaticMap
import StreamsTrace

/// `streams-trace map FOLDER`.
struct MapCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "streams-trace map",
    abstract: "The static map of an app's source: who subscribes to whom, who sends into what.",
    discussion: """
      Reads every Swift file under FOLDER (skipping hidden folders and \
      \(StaticMap.skippedFolders.joined(separator: ", "))) with SwiftSyntax, without building it, into the graph a recorded trace gives, and writes \
      it as a dump marked static that cycles, leaks, path, chain, graph, coupling, report and \
      diff read. Exit status: 0 when mapped, 64 for a bad command line, 66 when FOLDER cannot \
      be read, 73 when the dump cannot be written.
      """)

  @Argument(help: "The folder to read: an app, a module, a package.")
  var folder: String

  @Option(help: "A folder or file name to skip, wherever it is (repeatable).")
  var exclude: [String] = []

  @Option(help: "Where to write the dump.")
  var output = "map.dump.json"

  func run() throws {
    let map: StaticMap
    do {
      map = try StaticMap(folder: folder, excluding: Set(exclude))
    } catch {
      FileHandle.standardError.write(Data("streams-trace: \(error)\n".utf8))
      throw ExitCode(TraceCommand.Status.noInput.rawValue)
    }
    print(map.summary)
    if map.files.isEmpty {
      print("\nno Swift files under \(folder)")
    } else if map.graph.nodes.isEmpty {
      print("\nno RxSwift or Streams code under \(folder): nothing to map")
    }
    do {
      try TraceFile.write(map.graph.dump(), to: output)
    } catch {
      FileHandle.standardError.write(
        Data("streams-trace: cannot write '\(output)': \(error)\n".utf8))
      throw ExitCode(TraceCommand.Status.cannotWrite.rawValue)
    }
    print("\nwrote \(output) (static); streams-trace cycles|leaks|path|chain|graph|diff read it")
  }
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "map" {
  MapCommand.main(Array(arguments.dropFirst()))
} else {
  let result = TraceCommand.run(arguments, environment: .files)
  try? TraceFile.write(result.output, toDescriptor: 1)
  try? TraceFile.write(result.error, toDescriptor: 2)
  exit(result.status.rawValue)
}
