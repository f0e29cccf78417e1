// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "Streams",
  platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8)],
  products: [
    .library(name: "Streams", targets: ["Streams"]),
    .library(name: "StreamsTest", targets: ["StreamsTest"]),
    .library(name: "StreamsState", targets: ["StreamsState"]),
    .library(name: "StreamsTrace", targets: ["StreamsTrace"]),
    .library(name: "StreamsTraceRecording", targets: ["StreamsTraceRecording"]),
    .library(name: "StreamsFoundation", targets: ["StreamsFoundation"]),
    .executable(name: "search-demo", targets: ["SearchDemo"]),
    .executable(name: "screen-demo", targets: ["ScreenDemo"]),
  ],
  targets: [
    .target(name: "StreamsShims"),
    // The state module depends on nothing: the state and the views that read it outlive the Rx
    // code. Streams depends on it and provides the Rx side (bindings, cells as observables).
    .target(name: "StreamsState"),
    .target(name: "Streams", dependencies: ["StreamsShims", "StreamsState"]),
    // What needs all of Foundation (and FoundationNetworking on Linux): NotificationCenter.rx,
    // URLSession.rx, OperationQueueScheduler. The core links FoundationEssentials only.
    .target(name: "StreamsFoundation", dependencies: ["Streams"]),
    // StreamsTest carries the test-framework side of tracing (`expectEdge`, `XCTAssertEdge`, ...),
    // so the trace modules (an app links StreamsTraceRecording to record at run time) never import
    // Testing or XCTest.
    .target(name: "StreamsTest", dependencies: ["Streams", "StreamsState", "StreamsTrace"]),
    // What an app links to record a trace: the recorder, its rings, the graph, the dump writer.
    .target(name: "StreamsTraceRecording", dependencies: ["Streams", "StreamsShims"]),
    // What a developer runs on a trace: the dump reader, the queries, the exports, the commands
    // of `streams-trace`. Re-exports StreamsTraceRecording, so `import StreamsTrace` is all of it.
    .target(name: "StreamsTrace", dependencies: ["Streams", "StreamsTraceRecording"]),
    .executableTarget(name: "SearchDemo", dependencies: ["Streams"]),
    // Misuses the API on purpose: `ReleaseMisuseTests` runs a release build of it, to check that
    // every stop keeps its message at -O.
    .executableTarget(
      name: "MisuseProbe", dependencies: ["Streams", "StreamsState"], path: "Tests/MisuseProbe"),
    // The seed scenario: an Rx view model feeding a state container; `ScreenDemoTests` tests it.
    .executableTarget(
      name: "ScreenDemo",
      dependencies: ["Streams", "StreamsState", "StreamsTest", "StreamsTrace"]),
    // StreamsTrace: the stress suite runs each case with the recorder installed too.
    .testTarget(
      name: "StreamsTests",
      dependencies: ["Streams", "StreamsTest", "StreamsState", "StreamsTrace"]),
    .testTarget(
      name: "StreamsTestTests", dependencies: ["Streams", "StreamsTest", "StreamsState"]),
    .testTarget(
      name: "StreamsFoundationTests", dependencies: ["StreamsFoundation", "StreamsTest"]),
    // Depends on StreamsState alone, which proves that the state module needs nothing else.
    .testTarget(name: "StreamsStateTests", dependencies: ["StreamsState"]),
    .testTarget(
      name: "StreamsTraceTests",
      dependencies: ["Streams", "StreamsTrace", "StreamsTest", "StreamsState"]),
    .testTarget(
      name: "ScreenDemoTests",
      dependencies: ["ScreenDemo", "Streams", "StreamsState", "StreamsTest"]),
  ],
  swiftLanguageModes: [.v6]
)

// Language settings for every Swift target, in one place.
for target in package.targets where target.name != "StreamsShims" {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  target.swiftSettings = settings
}
