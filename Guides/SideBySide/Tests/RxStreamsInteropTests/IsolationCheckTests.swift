import Foundation
import RxSwift
import Streams
import Testing

/// A view controller's shape: main-actor isolated, binding its title with a closure written
/// inside it. The closure is inferred `@MainActor`, as every non-`@Sendable` closure written in
/// main-actor code is.
@MainActor
final class TitleScreen {
  let log = Log()
  private let rxBag = RxSwift.DisposeBag()
  private let streamsBag = Streams.DisposeBag()

  func bind(rx titles: RxSwift.Observable<String>) {
    titles.subscribe(onNext: { self.log.entries.append($0) }).disposed(by: rxBag)
  }

  func bind(streams titles: Streams.Observable<String>) {
    titles.subscribe(onNext: { self.log.entries.append($0) }).disposed(by: streamsBag)
  }
}

/// What Guides/Migration.md says about Swift 6 isolation checks, checked: Swift 6 code inserts a
/// main-actor check into a `@MainActor` closure it passes to a module built without strict
/// concurrency (RxSwift, built in Swift 5 mode, as the stand-in is), and none into one it
/// passes to a Swift 6 module (Streams), which the compiler trusts; Streams checks the caller's
/// isolation itself, so the same closure stops the program on both sides.
@Suite("Swift 6 isolation checks at the RxSwift / Streams boundary")
struct IsolationCheckTests {
  @Test("a main-actor closure given to RxSwift stops the program when called off the main actor")
  func rxSwiftClosureIsChecked() async {
    await #expect(processExitsWith: .failure) {
      let titles = RxSwift.PublishSubject<String>()
      let screen = TitleScreen()
      await screen.bind(rx: titles.asObservable())
      // Not on the main actor: the closure's isolation check stops the program here.
      titles.onNext("from the background")
    }
  }

  @Test("a main-actor closure given to Streams stops the program when called off the main actor")
  func streamsClosureIsChecked() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let titles = Streams.PublishSubject<String>()
      let screen = TitleScreen()
      await screen.bind(streams: titles.asObservable())
      // Not on the main actor: Streams' check of the subscriber's isolation stops the program.
      titles.onNext("from the background")
    }
    let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(output.contains("the closures given to subscribe at"), "stderr: \(output)")
  }

  @Test("delivered on the main actor, the same closure runs on both sides")
  @MainActor
  func mainActorDelivery() {
    let rxTitles = RxSwift.PublishSubject<String>()
    let streamsTitles = Streams.PublishSubject<String>()
    let screen = TitleScreen()
    screen.bind(rx: rxTitles.asObservable())
    screen.bind(streams: streamsTitles.asObservable())
    rxTitles.onNext("rx")
    streamsTitles.onNext("streams")
    #expect(screen.log.entries == ["rx", "streams"])
  }
}
