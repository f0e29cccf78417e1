// The seed scenario of the migration: a UIKit screen whose Rx view model feeds a state container.
// Blocks A (headline) and B (offers) are SwiftUI views reading state cells; here, without SwiftUI,
// `RenderProbe`s stand in for them and re-render on the main actor's next turn after a change of
// what they read. Block D is still a UIKit view configured by hand. The fake API answers on a
// background queue, so every write into the state crosses to the main actor through the
// bindings. Around the screen sit the legacy objects of other screens (a cart store, a badge that
// listens to it, analytics fed from three files, a promo banner with a cycle and a leak), and a
// `TraceRecorder` records who emits to whom. At the end the demo prints the cross-file chain of
// one tap and a summary, and writes the trace (dump, DOT, Mermaid, Perfetto) into a folder.
// Run it with `swift run screen-demo [folder]` (default `trace-output`); `--soak <minutes>`
// runs it again and again and samples memory (Soak.swift).

import Dispatch
import Streams
import StreamsState
import StreamsTest
import StreamsTrace

// Install the recorder before anything is built: a subscription is traced when it is made.
let recorder = TraceRecorder(configuration: TraceConfiguration(timeline: true))
Tracing.install(recorder)
let outputFolder = CommandLine.arguments.dropFirst().first ?? "trace-output"

// `screen-demo --soak <minutes>`: the scenario again and again under this recorder, sampling
// memory (Soak.swift); the default run below is unchanged.
if CommandLine.arguments.dropFirst().first == "--soak" {
  let argument = CommandLine.arguments.dropFirst(2).first ?? "10"
  guard let minutes = Double(argument), minutes > 0 else {
    print("usage: screen-demo --soak <minutes> (a positive number, got \"\(argument)\")")
    exit(2)
  }
  runSoak(minutes: minutes, recorder: recorder)
  dispatchMain()
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Milliseconds since the demo started, for the printed timeline.
let startTime = DispatchTime.now().uptimeNanoseconds
func elapsed() -> String {
  let ms = (DispatchTime.now().uptimeNanoseconds - startTime) / 1_000_000
  let text = "\(ms)"
  return String(repeating: " ", count: max(0, 5 - text.count)) + text + " ms"
}

let network = SerialDispatchQueueScheduler(internalSerialQueueName: "demo.network")
let api = TopAPI(scheduler: network)
let state = UIState()
let deltaView = DeltaView()
let refresh = PublishRelay<Void>()
let analytics = Analytics()
let cart = CartStore(analytics: analytics)
let badge = CartBadge(cart: cart, analytics: analytics)
var banner = PromoBanner(analytics: analytics, cart: cart)
// Top-level code runs on the main actor; these live until the demo exits.
let viewModel = TopViewModel(
  refresh: refresh.asObservable(), api: api, state: state, deltaView: deltaView, cart: cart,
  analytics: analytics)

let headlineView = RenderProbe { () -> String in
  let block = state.headline.value
  print("\(elapsed())  render A  headline \"\(block.title)\" / \"\(block.subtitle)\"")
  return block.title
}
let offersView = RenderProbe { () -> [String] in
  let block = state.offers.value
  print("\(elapsed())  render B  offers \(block.offers)")
  return block.offers
}
// The requests arrive on the network queue; the closure only prints, so it opts out of the check
// that a closure written on the main actor (this top-level code) is called there.
_ = api.requests.skip(1).subscribe(
  onNext: { print("\(elapsed())  api       request #\($0)") }, isolation: nil)
state.offers.onChange { block in
  print("\(elapsed())  state     offers stored \(block.offers), on the main actor")
}

print("\(elapsed())  screen    appears, refresh")
refresh.accept(())
_ = MainScheduler.instance.scheduleRelative((), dueTime: .milliseconds(250)) { _ in
  MainActor.assumeIsolated {
    print("\(elapsed())  user      taps \"add coffee\" in block B")
    viewModel.addToCart.accept("coffee")
    print(
      "\(elapsed())  cart      \(cart.items.value), badge \"\(badge.text.value)\", promo shown: \(banner.shown)"
    )
    // The screen rebuilds its banner; the old one's subscription stays in analytics' bag.
    banner = PromoBanner(analytics: analytics, cart: cart)
  }
  return Disposables.create()
}
_ = network.scheduleRelative((), dueTime: .milliseconds(400)) { _ in
  print("\(elapsed())  user      pulls to refresh (from a background queue)")
  refresh.accept(())
  return Disposables.create()
}
_ = MainScheduler.instance.scheduleRelative((), dueTime: .milliseconds(900)) { _ in
  MainActor.assumeIsolated {
    print(
      "\(elapsed())  block D   \"\(deltaView.text)\" after \(deltaView.configurations) configurations"
    )
    print("renders: A \(headlineView.renders), B \(offersView.renders)")
    print("(A rendered once per headline change only: the second response changed B and D)")
    print("analytics received \(analytics.sent)")
    report(recorder.graph, into: outputFolder)
    print("done")
    exit(0)
  }
  return Disposables.create()
}

dispatchMain()
