import Benchmark
import OpenCombineWorkloads
import StreamsWorkloads

/// One iteration runs 1000 operations of a workload: every number the tables show (time, mallocs)
/// is for 1000 operations, so nanoseconds per iteration read as picoseconds per operation, and
/// 5000 mallocs as 5 per operation. (Not `scalingFactor: .kilo`: its per-operation figures are
/// rounded to whole nanoseconds.)
let operationsPerIteration = 1000

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .instructions, .mallocCountTotal],
    timeUnits: .nanoseconds,
    warmupIterations: 3,
    maxDuration: .seconds(1),
    maxIterations: 2000
  )

  for entry in Workloads.all {
    Benchmark("\(entry.name)/Streams") { benchmark in
      let workload = entry.streams()
      workload.prepare(operationsPerIteration)
      benchmark.startMeasurement()
      workload.run(operationsPerIteration)
      benchmark.stopMeasurement()
      blackHole(workload.finish())
    }
    if let make = OpenCombineVariants.all[entry.name] {
      Benchmark("\(entry.name)/OpenCombine") { benchmark in
        let workload = make()
        benchmark.startMeasurement()
        workload.run(operationsPerIteration)
        benchmark.stopMeasurement()
        blackHole(workload.finish())
      }
    }
    Benchmark("\(entry.name)/baseline") { benchmark in
      let workload = entry.baseline()
      workload.prepare(operationsPerIteration)
      benchmark.startMeasurement()
      workload.run(operationsPerIteration)
      benchmark.stopMeasurement()
      blackHole(workload.finish())
    }
  }

  // Tracing on (issue 12's budget): each traced workload against the same one untraced.
  for entry in Workloads.traced {
    Benchmark("\(entry.name)/Streams") { benchmark in
      let workload = entry.streams()
      workload.prepare(operationsPerIteration)
      benchmark.startMeasurement()
      workload.run(operationsPerIteration)
      benchmark.stopMeasurement()
      blackHole(workload.finish())
    }
  }

  Benchmark("bridge-values/Streams") { _ in
    blackHole(await BridgeValues.streams(operationsPerIteration))
  }
  Benchmark("bridge-values/AsyncStream") { _ in
    blackHole(await BridgeValues.asyncStream(operationsPerIteration))
  }
}
