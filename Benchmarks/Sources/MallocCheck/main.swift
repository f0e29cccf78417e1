import Foundation
import MallocInterposerSwift
import StreamsWorkloads

// Counts mallocs per operation of each Streams workload and fails when one makes more than its
// allowance (`Workloads.Entry.mallocsPerOperation`). Cheap enough for CI: no timing, a few
// thousand operations per workload. Timings are never asserted.
//
//   swift run --package-path Benchmarks -c release malloc-check
//
// The `-c release` matters: allocations the optimizer removes in release builds are counted in
// debug ones.
//
// Per-operation counts are the difference between a long and a short run of the same workload,
// so one-time costs (a first subscription, buffers growing to their final size) cancel out.

let shortRun = 1_000
let longRun = 11_000

func mallocs(_ entry: Workloads.Entry, operations: Int) -> Int {
  let workload = entry.streams()
  workload.prepare(100)
  workload.run(100)  // warm up: lazily made state, buffers at their steady size
  workload.prepare(operations)
  MallocInterposerSwift.reset()
  MallocInterposerSwift.hook()
  workload.run(operations)
  MallocInterposerSwift.unhook()
  let count = MallocInterposerSwift.getStatistics().mallocCount
  _ = workload.finish()
  return count
}

/// Checks that the interposer is loaded: a fresh array buffer must be counted.
func interposerCounts() -> Bool {
  MallocInterposerSwift.reset()
  MallocInterposerSwift.hook()
  let array = [Int](repeating: 1, count: Int.random(in: 100...200))
  MallocInterposerSwift.unhook()
  withExtendedLifetime(array) {}
  return MallocInterposerSwift.getStatistics().mallocCount > 0
}

guard interposerCounts() else {
  print("malloc-check: the malloc interposer is not counting; cannot check")
  exit(2)
}

var failures = 0
print("workload                     mallocs/op  allowed")
for entry in Workloads.all {
  let short = mallocs(entry, operations: shortRun)
  let long = mallocs(entry, operations: longRun)
  let perOperation = Double(long - short) / Double(longRun - shortRun)
  let ok = perOperation <= Double(entry.mallocsPerOperation) + 0.01
  if !ok { failures += 1 }
  let name = entry.name.padding(toLength: 28, withPad: " ", startingAt: 0)
  print(
    "\(name) \(String(format: "%10.2f", perOperation))  \(entry.mallocsPerOperation)\(ok ? "" : "  FAIL")"
  )
}
// bridge-values is async: an element is one `for await` step through `values`.
func bridgeMallocs(_ count: Int) async -> Int {
  _ = await BridgeValues.streams(100)
  MallocInterposerSwift.reset()
  MallocInterposerSwift.hook()
  let sum = await BridgeValues.streams(count)
  MallocInterposerSwift.unhook()
  precondition(sum == count * (count - 1) / 2, "bridge-values lost elements")
  return MallocInterposerSwift.getStatistics().mallocCount
}
let bridgeShort = await bridgeMallocs(shortRun)
let bridgeLong = await bridgeMallocs(longRun)
let bridgePerElement = Double(bridgeLong - bridgeShort) / Double(longRun - shortRun)
let bridgeOK = bridgePerElement <= Double(BridgeValues.mallocsPerElement) + 0.01
if !bridgeOK { failures += 1 }
print(
  "\("bridge-values".padding(toLength: 28, withPad: " ", startingAt: 0)) "
    + "\(String(format: "%10.2f", bridgePerElement))  \(BridgeValues.mallocsPerElement)"
    + (bridgeOK ? "" : "  FAIL"))

// Tracing memory: with a recorder installed, 10^7 events over a fixed graph must not grow the
// resident set (the recorder keeps counters and bounded rings, not events). Linux only: the
// resident set is read from /proc/self/statm.
#if os(Linux)
  func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return 0
    }
    let fields = text.split(separator: " ")
    return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
  if let entry = Workloads.traced.first(where: { $0.name == "subject-map-filter-traced" }) {
    let workload = entry.streams()
    workload.run(100_000)  // rings and tables at their full size
    let before = residentBytes()
    workload.run(10_000_000)
    let after = residentBytes()
    _ = workload.finish()
    let growth = after - before
    let ok = growth < 4 << 20
    if !ok { failures += 1 }
    print(
      "traced RSS over 10^7 events: \(before >> 10) KiB → \(after >> 10) KiB "
        + "(\(growth >> 10) KiB; allowed < 4096)\(ok ? "" : "  FAIL")")
  }
#endif

if failures > 0 {
  print("malloc-check: \(failures) workload(s) allocate more than allowed")
  exit(1)
}
print("malloc-check: ok")
