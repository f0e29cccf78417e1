// swift-tools-version: 6.1
import PackageDescription

// Streams' benchmarks, in their own package so that the library itself has no dependencies.
//
//   swift package --package-path Benchmarks benchmark             # every workload, one run
//   swift run --package-path Benchmarks -c release malloc-check   # CI: mallocs per event
//   Benchmarks/count-instructions.sh                              # instructions per operation
//
// Streams is used from other modules (StreamsWorkloads, Throughput), as an app would use it, so
// the numbers include whatever cross-module specialization does or does not happen.

// SwiftPM names a path dependency after its directory, whatever the clone is called.
let streamsPackage =
  Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init) ?? "Streams"

let package = Package(
  name: "StreamsBenchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(path: ".."),
    // The trait list replaces the default one: the malloc interposer gives the malloc metrics;
    // the runtime interposer (retain/release counts on Swift 6.3) is not needed here.
    .package(
      url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
  ],
  targets: [
    // Every Streams workload, shared by the benchmark suite and the malloc check.
    .target(
      name: "StreamsWorkloads",
      dependencies: [
        .product(name: "Streams", package: streamsPackage),
        .product(name: "StreamsState", package: streamsPackage),
        .product(name: "StreamsTrace", package: streamsPackage),
      ]),
    // The OpenCombine side of the workloads OpenCombine has operators for.
    .target(
      name: "OpenCombineWorkloads",
      dependencies: [
        "StreamsWorkloads",
        .product(name: "OpenCombine", package: "OpenCombine"),
      ]),
    .executableTarget(
      name: "Throughput",
      dependencies: [
        "StreamsWorkloads",
        "OpenCombineWorkloads",
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/Throughput",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .executableTarget(
      name: "malloc-check",
      dependencies: [
        "StreamsWorkloads",
        .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
      ],
      path: "Sources/MallocCheck"
    ),
    // `contention [EVENTS] [THREADS...]`: threads sending without pause into one subject and
    // through `merge`: throughput, the worst and 99.9th-percentile `onNext`, deliveries per call.
    .executableTarget(
      name: "contention",
      dependencies: [.product(name: "Streams", package: streamsPackage)],
      path: "Sources/Contention"
    ),
    // `trace-queries [SCREENS] [RUNS]`: the command line's answer times on a generated app's
    // trace (200 screens × 25 subscriptions by default).
    .executableTarget(
      name: "trace-queries",
      dependencies: [
        .product(name: "StreamsTrace", package: streamsPackage),
        .product(name: "StreamsTest", package: streamsPackage),
      ],
      path: "Sources/TraceQueries"
    ),
    // `run-workload NAME COUNT [side]`: one workload without the harness, for profilers.
    .executableTarget(
      name: "run-workload",
      dependencies: ["StreamsWorkloads", "OpenCombineWorkloads"],
      path: "Sources/RunWorkload"
    ),
  ],
  swiftLanguageModes: [.v6]
)
