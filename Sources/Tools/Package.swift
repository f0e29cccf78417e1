// swift-tools-version: 6.2
// The developer tools: `streams-trace` with every command of the root package's command line plus
// `map`, the static map of an app's source (SwiftSyntax). Its own package, so that the root
// package keeps no dependencies: apps link Streams and pull nothing.
//
//   swift run --package-path Sources/Tools streams-trace map PATH/TO/APP
//   swift test --package-path Sources/Tools
import PackageDescription

let package = Package(
  name: "StreamsTools",
  platforms: [.macOS(.v13)],
  products: [
    .library(name: "StaticMap", targets: ["StaticMap"]),
    .executable(name: "streams-trace", targets: ["StreamsTraceTool"]),
  ],
  dependencies: [
    .package(name: "Streams", path: "../.."),
    .package(url: "https://github.com/swiftlang/swift-syntax", "603.0.0"..<"604.0.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
  ],
  targets: [
    // Reads Swift source into the graph a recorded trace gives (TraceGraph, marked static).
    .target(
      name: "StaticMap",
      dependencies: [
        .product(name: "StreamsTrace", package: "Streams"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
      ]),
    .executableTarget(
      name: "StreamsTraceTool",
      dependencies: [
        "StaticMap",
        .product(name: "StreamsTrace", package: "Streams"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    .testTarget(
      name: "StaticMapTests",
      dependencies: ["StaticMap", .product(name: "StreamsTrace", package: "Streams")]),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  target.swiftSettings = settings
}
