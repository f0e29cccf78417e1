// swift-tools-version: 6.2
// The "side by side with RxSwift" recipe of Guides/Migration.md, built and tested by CI.
//
// RxSwift cannot be fetched here, so `RxSwift` and `RxRelay` are stand-ins: the subset of
// RxSwift 6's public names and signatures the recipe uses, compiled in Swift 5 language mode as
// RxSwift's own package is. `RxStreamsInterop` is the recipe; its tests drive both directions.
import PackageDescription

// SwiftPM names a path dependency after its directory, whatever the clone is called.
let streamsPackage =
  Context.packageDirectory.split(separator: "/").dropLast(2).last.map(String.init) ?? "Streams"

let package = Package(
  name: "SideBySide",
  dependencies: [.package(path: "../..")],
  targets: [
    .target(name: "RxSwift", swiftSettings: [.swiftLanguageMode(.v5)]),
    .target(name: "RxRelay", dependencies: ["RxSwift"], swiftSettings: [.swiftLanguageMode(.v5)]),
    .target(
      name: "RxStreamsInterop",
      dependencies: ["RxSwift", "RxRelay", .product(name: "Streams", package: streamsPackage)]),
    .testTarget(
      name: "RxStreamsInteropTests",
      dependencies: [
        "RxStreamsInterop", "RxSwift", "RxRelay",
        .product(name: "Streams", package: streamsPackage),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
