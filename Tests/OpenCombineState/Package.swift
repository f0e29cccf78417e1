// swift-tools-version: 6.2
// StreamsState's `ObservableObject` conformance (Sources/StreamsState/StateCell+ObservableObject
// .swift), built and tested on Linux against OpenCombine, a stand-in for Combine with the same
// API. `Sources/StreamsState` is a link to the root package's module folder: the very same files,
// compiled with `STREAMS_OPENCOMBINE` so that the conformance is built against OpenCombine.
import PackageDescription

let package = Package(
  name: "OpenCombineState",
  dependencies: [.package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0")],
  targets: [
    .target(
      name: "StreamsState",
      dependencies: [.product(name: "OpenCombine", package: "OpenCombine")],
      exclude: ["StreamsState.docc"],
      swiftSettings: [.define("STREAMS_OPENCOMBINE")]),
    .testTarget(
      name: "OpenCombineStateTests",
      dependencies: ["StreamsState", .product(name: "OpenCombine", package: "OpenCombine")]),
  ],
  swiftLanguageModes: [.v6]
)
