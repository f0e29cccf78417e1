import Foundation
import OpenCombineWorkloads
import StreamsWorkloads

// Runs COUNT operations of one workload on one side, without the benchmark harness: a driver for
// profilers and for counting instructions per operation.
//
//   run-workload NAME COUNT [streams|opencombine|baseline|asyncstream]
//
// The side defaults to `streams`. Instructions per operation are the difference between a run of
// 2N and a run of N divided by N (`Benchmarks/count-instructions.sh` does it with callgrind), so
// setup and one-time teardown cancel out.

let usage = """
  usage: run-workload NAME COUNT [streams|opencombine|baseline|asyncstream]
  workloads: \((Workloads.all + Workloads.traced).map(\.name).joined(separator: ", ")), bridge-values
  """

let arguments = CommandLine.arguments
guard arguments.count == 3 || arguments.count == 4, let count = Int(arguments[2]), count >= 0
else {
  FileHandle.standardError.write(Data((usage + "\n").utf8))
  exit(2)
}
let name = arguments[1]
let side = arguments.count == 4 ? arguments[3] : "streams"

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("run-workload: \(message)\n".utf8))
  exit(2)
}

if name == "bridge-values" {
  switch side {
  case "streams": print(await BridgeValues.streams(count))
  case "asyncstream": print(await BridgeValues.asyncStream(count))
  default: fail("bridge-values has the sides streams and asyncstream, not \(side)")
  }
  exit(0)
}

if side == "opencombine" {
  guard let make = OpenCombineVariants.all[name] else {
    fail("no OpenCombine variant of \(name); there are: \(OpenCombineVariants.all.keys.sorted())")
  }
  let workload = make()
  workload.run(count)
  print(workload.finish())
  exit(0)
}

guard let entry = (Workloads.all + Workloads.traced).first(where: { $0.name == name }) else {
  fail("no workload named \(name)\n\(usage)")
}
let workload: Workload
switch side {
case "streams": workload = entry.streams()
case "baseline": workload = entry.baseline()
default: fail("\(name) has the sides streams, opencombine and baseline, not \(side)")
}
workload.prepare(count)
workload.run(count)
print(workload.finish())
