// The soak: the seed scenario run again and again, traced by one recorder, for a number of
// minutes, while the process's resident memory is sampled. Run it with
// `swift run screen-demo --soak <minutes>`. Linux only: it reads `/proc/self/statm`.
//
// Each iteration builds the screen and the legacy objects around it, plays the scenario on a
// compressed clock (appear and refresh, tap "add coffee", rebuild the banner, pull to refresh
// from a background queue) and ends: the view model goes, and analytics' subject completes, which
// ends the subscriptions parked in its bag (the legacy objects live as long as the app; here they
// live one iteration, so what stays is the library's and the recorder's). One recorder, installed
// by `main.swift`, sees every iteration: its memory must stay bounded by the graph's nodes and
// edges and its rings, which do not grow once every call site has been seen.

import Dispatch
import Streams
import StreamsState
import StreamsTest
import StreamsTrace

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One soak sample.
struct SoakSample {
  var seconds: Int
  var iterations: Int
  var residentKiB: Int
  var nodes: Int
  var edges: Int
  var liveObjects: Int
}

/// The resident set size of this process in KiB, from `/proc/self/statm` (Linux: its second
/// field is the resident pages); `nil` where that file cannot be read.
func residentKiB() -> Int? {
  guard let file = fopen("/proc/self/statm", "r") else { return nil }
  defer { fclose(file) }
  var buffer = [CChar](repeating: 0, count: 256)
  guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
  let line = String(
    decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  let fields = line.split(separator: " ")
  guard fields.count >= 2, let pages = Int(fields[1]) else { return nil }
  return pages * sysconf(Int32(_SC_PAGESIZE)) / 1024
}

/// The verdict over the samples: the first fifth of the run (at least one sample) is warm-up and
/// left out; of the rest, the median of the last quarter is compared with the median of the first
/// quarter. Memory is flat when it grew by at most 2 % of the first quarter's median or 1 MiB,
/// whichever is larger; otherwise it is growing.
func soakVerdict(_ samples: [SoakSample]) -> (flat: Bool, text: String) {
  let steady = Array(samples.dropFirst(max(1, samples.count / 5)))
  guard steady.count >= 4 else { return (false, "too few samples for a verdict") }
  func median(_ values: ArraySlice<Int>) -> Int {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
  }
  let quarter = steady.count / 4
  let early = median(steady.prefix(quarter).map(\.residentKiB)[...])
  let late = median(steady.suffix(quarter).map(\.residentKiB)[...])
  let allowed = max(early / 50, 1024)
  let growth = late - early
  let flat = growth <= allowed
  let text =
    "RSS median \(early) KiB in the first quarter after warm-up, \(late) KiB in the last:"
    + " \(growth >= 0 ? "+" : "")\(growth) KiB (allowed \(allowed) KiB)"
  return (flat, text)
}

/// The objects of one iteration of the scenario.
@MainActor
private final class SoakScreen {
  let network: SerialDispatchQueueScheduler
  let api: TopAPI
  let state = UIState()
  let deltaView = DeltaView()
  let refresh = PublishRelay<Void>()
  let analytics = Analytics()
  let cart: CartStore
  let badge: CartBadge
  var banner: PromoBanner
  var viewModel: TopViewModel?
  let headlineView: RenderProbe<String>
  let offersView: RenderProbe<[String]>
  let bag = DisposeBag()

  init(network: SerialDispatchQueueScheduler) {
    self.network = network
    api = TopAPI(scheduler: network, latency: .milliseconds(5))
    cart = CartStore(analytics: analytics)
    badge = CartBadge(cart: cart, analytics: analytics)
    banner = PromoBanner(analytics: analytics, cart: cart)
    viewModel = TopViewModel(
      refresh: refresh.asObservable(), api: api, state: state, deltaView: deltaView, cart: cart,
      analytics: analytics)
    let state = state
    headlineView = RenderProbe { state.headline.value.title }
    offersView = RenderProbe { state.offers.value.offers }
    api.requests.skip(1).subscribe(onNext: { _ in }).disposed(by: bag)
    state.offers.onChange { _ in }
  }

  /// Ends the screen's subscriptions and those it parked in analytics' bag.
  func end() {
    viewModel = nil
    analytics.events.onCompleted()
  }
}

/// Runs the scenario for `minutes`, sampling memory every `interval` seconds, prints the samples
/// and the verdict, and exits (status 0 when flat, 1 when growing, 2 without `/proc`).
@MainActor
func runSoak(minutes: Double, recorder: TraceRecorder, interval: Int = 10) {
  guard residentKiB() != nil else {
    print("soak: cannot read /proc/self/statm; the soak samples memory on Linux only")
    exit(2)
  }
  let network = SerialDispatchQueueScheduler(internalSerialQueueName: "soak.network")
  let start = DispatchTime.now().uptimeNanoseconds
  let end = start + UInt64(minutes * 60 * 1e9)
  var samples: [SoakSample] = []
  var iterations = 0
  var nextSample = start

  func sample() {
    let now = DispatchTime.now().uptimeNanoseconds
    let graph = recorder.graph
    let value = SoakSample(
      seconds: Int((now - start) / 1_000_000_000), iterations: iterations,
      residentKiB: residentKiB() ?? 0, nodes: graph.nodes.count, edges: graph.edges.count,
      liveObjects: Resources.total)
    samples.append(value)
    print(
      "soak \(value.seconds) s: \(value.iterations) iterations, RSS \(value.residentKiB) KiB,"
        + " graph \(value.nodes) nodes \(value.edges) edges,"
        + " live objects \(Resources.isCounting ? "\(value.liveObjects)" : "(release build)")")
    fflush(nil)
  }

  func finish() {
    sample()
    let verdict = soakVerdict(samples)
    print(
      "soak: \(samples.count) samples over \(samples.last?.seconds ?? 0) s, \(iterations) iterations"
    )
    print("soak: \(verdict.flat ? "flat" : "GROWING"): \(verdict.text)")
    fflush(nil)
    exit(verdict.flat ? 0 : 1)
  }

  /// One iteration, on the main queue, then the next.
  func iterate() {
    let now = DispatchTime.now().uptimeNanoseconds
    if now >= nextSample {
      sample()
      nextSample = now + UInt64(interval) * 1_000_000_000
    }
    if now >= end {
      finish()
      return
    }
    let screen = SoakScreen(network: network)
    screen.refresh.accept(())
    after(milliseconds: 15) {
      screen.viewModel?.addToCart.accept("coffee")
      screen.banner = PromoBanner(analytics: screen.analytics, cart: screen.cart)
      _ = network.schedule(()) { _ in
        screen.refresh.accept(())
        return Disposables.create()
      }
      after(milliseconds: 30) {
        screen.end()
        iterations += 1
        iterate()
      }
    }
  }

  print("soak: the seed scenario, traced, for \(minutes) minutes; RSS sampled every \(interval) s")
  iterate()
}

/// Runs `body` on the main actor after `milliseconds`.
@MainActor
private func after(milliseconds: Int, _ body: @escaping @MainActor () -> Void) {
  DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(milliseconds)) {
    MainActor.assumeIsolated(body)
  }
}
