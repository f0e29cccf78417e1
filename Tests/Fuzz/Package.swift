// swift-tools-version: 6.2
// libFuzzer targets for Streams' parsers: marble diagrams (StreamsTest), trace dumps and the
// `streams-trace` command line (StreamsTrace). Its own package, so that the root package keeps no
// dependencies; it builds only with `-sanitize=fuzzer` (libFuzzer's driver, declared in
// FuzzShims). Run them with `.ci/fuzz.sh [seconds-per-target]` from the repository root.
import PackageDescription

let package = Package(
  name: "StreamsFuzz",
  dependencies: [.package(name: "Streams", path: "../..")],
  targets: [
    .target(name: "FuzzShims"),
    .executableTarget(
      name: "FuzzMarbles",
      dependencies: [
        "FuzzShims", .product(name: "Streams", package: "Streams"),
        .product(name: "StreamsTest", package: "Streams"),
      ]),
    .executableTarget(
      name: "FuzzTraceDump",
      dependencies: ["FuzzShims", .product(name: "StreamsTrace", package: "Streams")]),
    .executableTarget(
      name: "FuzzTraceCommand",
      dependencies: ["FuzzShims", .product(name: "StreamsTrace", package: "Streams")]),
  ],
  swiftLanguageModes: [.v6]
)
