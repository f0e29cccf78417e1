// The seed scenario of the migration: a UIKit screen whose Rx view model feeds a state container.
// Blocks A (headline) and B (offers) are SwiftUI views reading state cells; here, without SwiftUI,
// `RenderProbe`s stand in for them and re-render on the main actor's next turn after a change of
// what they read. Block D is still a UIKit view configured by hand. The fake API answers on a
// background queue, so every write into the state crosses to the main actor through the
// bindings. Run it with `swift run screen-demo`.

import Dispatch
import Streams
import StreamsState
import StreamsTest

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
// Top-level code runs on the main actor; these live until the demo exits.
let viewModel = TopViewModel(
  refresh: refresh.asObservable(), api: api, state: state, deltaView: deltaView)

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
_ = api.requests.skip(1).subscribe(onNext: { print("\(elapsed())  api       request #\($0)") })
state.offers.onChange { block in
  print("\(elapsed())  state     offers stored \(block.offers), on the main actor")
}

print("\(elapsed())  screen    appears, refresh")
refresh.accept(())
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
    print("done")
    exit(0)
  }
  return Disposables.create()
}

dispatchMain()
