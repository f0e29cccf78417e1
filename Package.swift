// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "Streams",
  platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8)],
  products: [
    .library(name: "Streams", targets: ["Streams"]),
    .library(name: "StreamsTest", targets: ["StreamsTest"]),
    .executable(name: "search-demo", targets: ["SearchDemo"]),
  ],
  targets: [
    .target(name: "StreamsShims"),
    .target(name: "Streams", dependencies: ["StreamsShims"]),
    .target(name: "StreamsTest", dependencies: ["Streams"]),
    .executableTarget(name: "SearchDemo", dependencies: ["Streams"], path: "Examples/SearchDemo"),
    .testTarget(name: "StreamsTests", dependencies: ["Streams", "StreamsTest"]),
    .testTarget(name: "StreamsTestTests", dependencies: ["Streams", "StreamsTest"]),
  ],
  swiftLanguageModes: [.v6]
)

// Language settings for every Swift target, in one place.
for target in package.targets where target.name != "StreamsShims" {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  target.swiftSettings = settings
}
