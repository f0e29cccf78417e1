// A search-as-you-type view model on real schedulers: the main job of the README.
//
// Keystrokes arrive on a background queue at human speed. The view model debounces them,
// drops repeats, asks a fake API (which answers with a `Single` after a delay, and fails for one
// query), recovers from the failure, shares the latest result with every screen that shows it, and
// delivers results on the main thread. Run it with `swift run search-demo`.

import Dispatch
import Streams

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

enum SearchError: Error {
  case serviceUnavailable
}

/// A fake search service: answers after 150 ms on its own queue; the query "rx" fails.
struct SearchAPI: Sendable {
  let scheduler: any SchedulerType
  let catalog = [
    "reactive", "reactive streams", "realm", "rxswift", "rxcocoa", "swift", "swiftui",
    "swift concurrency", "streams",
  ]

  func search(_ query: String) -> Single<[String]> {
    let catalog = catalog
    let scheduler = scheduler
    return Single.create { single in
      print("\(elapsed())  api       request \"\(query)\"")
      return scheduler.scheduleRelative((), dueTime: .milliseconds(150)) { _ in
        if query == "rx" {
          single(.failure(SearchError.serviceUnavailable))
        } else {
          single(.success(catalog.filter { $0.hasPrefix(query) }))
        }
        return Disposables.create()
      }
    }
  }
}

/// The view model: one input, one shared output.
final class SearchViewModel {
  let results: Observable<[String]>

  init(query: Observable<String>, api: SearchAPI, scheduler: any SchedulerType) {
    results =
      query
      .map { $0.lowercased() }
      .debounce(.milliseconds(250), scheduler: scheduler)
      .distinctUntilChanged()
      .flatMapLatest { query -> Observable<[String]> in
        api.search(query)
          .asObservable()
          .catchAndReturn([])
      }
      .observe(on: MainScheduler.instance)
      .share(replay: 1)
  }
}

let background = SerialDispatchQueueScheduler(internalSerialQueueName: "demo.keystrokes")
let network = SerialDispatchQueueScheduler(internalSerialQueueName: "demo.network")
let keystrokes = PublishSubject<String>()
let viewModel = SearchViewModel(
  query: keystrokes, api: SearchAPI(scheduler: network), scheduler: background)
let bag = DisposeBag()

viewModel.results
  .subscribe(onNext: { results in
    print("\(elapsed())  list      \(results)")
  })
  .disposed(by: bag)

/// What the user types, and when (ms after start).
let typing: [(Int, String)] = [
  (0, "s"), (80, "sw"), (160, "swi"), (240, "swif"), (320, "swift"),  // one request: "swift"
  (700, "swift"),  // the same text again: no request
  (1000, "r"), (1090, "rx"),  // "rx" fails: the list shows []
  (1500, "re"), (1580, "rea"),  // "rea"
]

for (at, text) in typing {
  _ = background.scheduleRelative((), dueTime: .milliseconds(at)) { _ in
    print("\(elapsed())  keystroke \"\(text)\"")
    keystrokes.onNext(text)
    return Disposables.create()
  }
}

// A second screen subscribes late and gets the latest list at once (share(replay: 1)).
Task { @MainActor in
  try? await Task.sleep(nanoseconds: 1_300_000_000)
  print("\(elapsed())  detail screen subscribes")
  viewModel.results
    .subscribe(onNext: { print("\(elapsed())  detail    \($0)") })
    .disposed(by: bag)
}

_ = MainScheduler.instance.scheduleRelative((), dueTime: .milliseconds(2200)) { _ in
  print("done")
  exit(0)
}

dispatchMain()
