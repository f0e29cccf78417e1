import Streams
import StreamsTest
import Testing

/// The view model of Guides/Testing.md.
final class UsernameViewModel {
  let username = PublishRelay<String>()
  let message: Observable<String>

  init() {
    message = username.asObservable()
      .filter { !$0.isEmpty }
      .map { $0.count >= 3 ? "OK" : "Too short" }
  }
}

/// The examples of Guides/Testing.md, kept compiling and passing.
@Suite("Guide examples")
struct GuideExamplesTests {
  @Test("testing a view model with recorded events")
  func viewModel() {
    let scheduler = TestScheduler(initialClock: 0)
    let viewModel = UsernameViewModel()
    let typing = scheduler.createHotObservable([
      .next(210, "al"), .next(220, ""), .next(230, "alice"),
    ])
    let bag = DisposeBag()
    typing.bind(to: viewModel.username).disposed(by: bag)

    let res = scheduler.start { viewModel.message }

    #expect(res.events == [.next(210, "Too short"), .next(230, "OK")])
    #expect(typing.subscriptions == [Subscription(0)])
  }

  @Test("testing a view model with marbles")
  func viewModelMarbles() throws {
    let scheduler = TestScheduler(initialClock: 0)
    let viewModel = UsernameViewModel()
    let typing = try scheduler.createHotObservable(
      marbles: "-a-^-b-e-c", values: ["a": "x", "b": "al", "e": "", "c": "alice"])
    let bag = DisposeBag()
    typing.bind(to: viewModel.username).disposed(by: bag)

    let res = scheduler.start { viewModel.message }

    let expected = try Recorded.events(
      marbles: "   ^-s---o", values: ["s": "Too short", "o": "OK"])
    expectEvents(res.events, expected)
  }

  @Test("driving the clock by hand")
  func byHand() {
    let scheduler = TestScheduler(initialClock: 0)
    let viewModel = UsernameViewModel()
    let observer = scheduler.createObserver(String.self)
    let bag = DisposeBag()
    viewModel.message.subscribe(observer).disposed(by: bag)

    scheduler.scheduleAt(10) { viewModel.username.accept("bob") }
    scheduler.advanceTo(10)
    #expect(observer.events == [.next(10, "OK")])

    scheduler.scheduleAt(20) { viewModel.username.accept("b") }
    scheduler.start()
    #expect(observer.events == [.next(10, "OK"), .next(20, "Too short")])
  }

  @Test("blocking on a finite sequence")
  func blocking() throws {
    let viewModel = UsernameViewModel()
    let replay = ReplaySubject<String>.create(bufferSize: 2)
    let subscription = viewModel.message.subscribe(replay)
    viewModel.username.accept("al")
    viewModel.username.accept("alice")
    replay.onCompleted()
    #expect(try replay.toBlocking(timeout: 1).toArray() == ["Too short", "OK"])
    subscription.dispose()
  }
}
