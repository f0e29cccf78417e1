import Foundation
import Streams

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Threads sending without pause into one serializer: throughput, and how long one `onNext` call
// takes (worst and 99.9th percentile) and how many events it delivers at most (its own and other
// threads'). Two shapes: one `PublishSubject` with one subscriber, every thread sending into it;
// `merge` of one subject per thread. The subscriber adds the elements up (serial delivery: no
// lock of its own).
//
//   contention [EVENTS_PER_THREAD] [THREADS...]      # defaults: 200000, threads 1 2 4 8
//
// Run it in a release build (`swift run --package-path Benchmarks -c release contention`).
// Times are wall-clock and move with the machine's load; the delivery counts do not.

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let perThread = arguments.first ?? 200_000
let threadCounts = arguments.count > 1 ? Array(arguments.dropFirst()) : [1, 2, 4, 8]

/// Events the subscriber received on the calling thread, through a pthread key (the same cost on
/// every build measured).
final class Meter {
  var deliveries = 0
}

let meterKey: pthread_key_t = {
  var key = pthread_key_t()
  pthread_key_create(&key, nil)
  return key
}()

/// The calling thread's meter (leaked with its thread: the tool runs once).
func meter() -> Meter {
  if let raw = pthread_getspecific(meterKey) {
    return Unmanaged<Meter>.fromOpaque(raw).takeUnretainedValue()
  }
  let made = Meter()
  pthread_setspecific(meterKey, Unmanaged.passRetained(made).toOpaque())
  return made
}

func now() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// One thread's measurements. `@unchecked Sendable`: written by its thread, read after it joined.
final class Samples: @unchecked Sendable {
  var nanoseconds: [UInt64] = []
  var mostDeliveries = 0
}

struct Row {
  let shape: String
  let threads: Int
  let eventsPerSecond: Double
  let worst: UInt64
  let p999: UInt64
  let mostDeliveries: Int
}

/// Runs `threads` threads, thread `i` sending `perThread` values through `send(i, value)`.
func measure(shape: String, threads: Int, send: @escaping @Sendable (Int, Int) -> Void) -> Row {
  let start = DispatchSemaphore(value: 0)
  let done = DispatchGroup()
  let samples = (0..<threads).map { _ in Samples() }
  for index in 0..<threads {
    done.enter()
    let mine = samples[index]
    Thread {
      mine.nanoseconds.reserveCapacity(perThread)
      let counter = meter()
      start.wait()
      for value in 0..<perThread {
        let before = counter.deliveries
        let began = now()
        send(index, value)
        mine.nanoseconds.append(now() - began)
        mine.mostDeliveries = max(mine.mostDeliveries, counter.deliveries - before)
      }
      done.leave()
    }.start()
  }
  usleep(10_000)
  let began = now()
  for _ in 0..<threads { start.signal() }
  done.wait()
  let elapsed = Double(now() - began) / 1e9
  let all = samples.flatMap(\.nanoseconds).sorted()
  return Row(
    shape: shape, threads: threads,
    eventsPerSecond: Double(threads * perThread) / elapsed,
    worst: all.last ?? 0,
    p999: all[min(all.count - 1, all.count * 999 / 1000)],
    mostDeliveries: samples.map(\.mostDeliveries).max() ?? 0)
}

/// The subscriber: sums the elements (serial delivery) and counts them on its thread's meter.
/// `@unchecked Sendable`: `sum` is only touched inside serialized deliveries.
final class Sink: @unchecked Sendable {
  var sum = 0
  func on(_ value: Int) {
    sum &+= value
    meter().deliveries += 1
  }
}

func subjectRow(threads: Int) -> Row {
  let subject = PublishSubject<Int>()
  let sink = Sink()
  let subscription = subject.subscribe(onNext: sink.on)
  defer { subscription.dispose() }
  return measure(shape: "subject", threads: threads) { _, value in subject.onNext(value) }
}

func mergeRow(threads: Int) -> Row {
  let subjects = (0..<threads).map { _ in PublishSubject<Int>() }
  let sink = Sink()
  let subscription = Observable.merge(subjects.map { $0.asObservable() })
    .subscribe(onNext: sink.on)
  defer { subscription.dispose() }
  return measure(shape: "merge", threads: threads) { index, value in
    subjects[index].onNext(value)
  }
}

func micro(_ nanoseconds: UInt64) -> String {
  String(format: "%.1f µs", Double(nanoseconds) / 1000)
}

print("| shape | threads | events/s | worst onNext | p99.9 onNext | most deliveries in one call |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for shape in ["subject", "merge"] {
  for threads in threadCounts {
    let row = shape == "subject" ? subjectRow(threads: threads) : mergeRow(threads: threads)
    print(
      "| \(row.shape) | \(row.threads) | \(String(format: "%.1f M", row.eventsPerSecond / 1e6)) "
        + "| \(micro(row.worst)) | \(micro(row.p999)) | \(row.mostDeliveries) |")
  }
}
