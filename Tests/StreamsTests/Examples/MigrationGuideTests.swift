import Streams
import StreamsState
import StreamsTest
import Testing

// The view models of Guides/Migration.md's "Testing on virtual time", kept compiling and passing;
// the guide quotes this file.

/// An RxSwift-style view model whose output ends on the main scheduler, with the scheduler
/// injected: production code passes nothing, a test passes its `TestScheduler`.
final class GreetingViewModel {
  let greeting: Observable<String>

  init(names: Observable<String>, scheduler: any ImmediateSchedulerType = MainScheduler.instance) {
    greeting = names.map { "Hello, \($0)" }.observe(on: scheduler)
  }
}

/// The same output as a `Driver`: it reads `SharingScheduler` when it is built.
final class GreetingDriverViewModel {
  let greeting: Driver<String>

  init(names: Observable<String>) {
    greeting = names.map { "Hello, \($0)" }.asDriver(onErrorJustReturn: "")
  }
}

/// A main-actor view model that writes a state cell: no scheduler to inject.
@MainActor
final class GreetingStateViewModel {
  let greeting = StateCell("")
  private let bag = DisposeBag()

  init(names: Observable<String>) {
    names.map { "Hello, \($0)" }.bind(to: greeting).disposed(by: bag)
  }
}

@Suite("Migration guide: view models on virtual time", .mainSchedulerExclusive)
struct MigrationGuideTests {
  @Test("observe(on: MainScheduler.instance) in a @MainActor test delivers at once")
  @MainActor
  func mainSchedulerOnTheMainActor() {
    let scheduler = TestScheduler(initialClock: 0)
    let names = scheduler.createHotObservable([.next(210, "Ada"), .completed(300)])
    let viewModel = GreetingViewModel(names: names.asObservable())

    let res = scheduler.start { viewModel.greeting }

    #expect(res.events == [.next(210, "Hello, Ada"), .completed(300)])
  }

  @Test("an injected TestScheduler delivers on virtual time, one tick after the element")
  func injectedScheduler() {
    let scheduler = TestScheduler(initialClock: 0)
    let names = scheduler.createHotObservable([.next(210, "Ada"), .completed(300)])
    let viewModel = GreetingViewModel(names: names.asObservable(), scheduler: scheduler)

    let res = scheduler.start { viewModel.greeting }

    #expect(res.events == [.next(211, "Hello, Ada"), .completed(301)])
    #expect(names.subscriptions == [Subscription(200, 300)])
  }

  @Test("a Driver built under SharingScheduler.mock delivers on virtual time")
  func mockedDriver() {
    let scheduler = TestScheduler(initialClock: 0)
    let names = scheduler.createHotObservable([.next(210, "Ada"), .completed(300)])
    SharingScheduler.mock(scheduler: scheduler) {
      let viewModel = GreetingDriverViewModel(names: names.asObservable())

      let res = scheduler.start { viewModel.greeting.asObservable() }

      #expect(res.events == [.next(211, "Hello, Ada"), .completed(301)])
    }
  }

  @Test("a main-actor view model's cell, recorded in a @MainActor test")
  @MainActor
  func mainActorViewModel() {
    let scheduler = TestScheduler(initialClock: 0)
    let names = scheduler.createHotObservable([.next(210, "Ada"), .next(250, "Grace")])
    let viewModel = GreetingStateViewModel(names: names.asObservable())
    let greeting = scheduler.record(viewModel.greeting)

    scheduler.start()

    #expect(
      greeting.events == [.next(0, ""), .next(210, "Hello, Ada"), .next(250, "Hello, Grace")])
  }
}
