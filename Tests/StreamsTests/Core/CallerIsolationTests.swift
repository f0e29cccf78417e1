import Dispatch
import Streams
import StreamsTest
import Testing

/// A main-actor object whose subscriptions' closures Swift 6 infers to be main-actor isolated.
@MainActor
private final class MainActorScreen {
  var title = ""
  var titles: [String] = []
  let bag = DisposeBag()

  func subscribe(_ source: Observable<String>) {
    source.subscribe(onNext: { self.title = $0 }).disposed(by: bag)
  }

  func subscribeUnchecked(_ source: Observable<String>) {
    source.subscribe(onNext: { _ in }, isolation: nil).disposed(by: bag)
  }

  func subscribeWith(_ source: Observable<String>) {
    source.subscribe(with: self, onNext: { owner, title in owner.title = title }).disposed(by: bag)
  }

  func bind(_ source: Observable<String>) {
    source.bind(onNext: { self.titles.append($0) }).disposed(by: bag)
  }

  func subscribeSingle(_ source: Single<String>) {
    source.subscribe(onSuccess: { self.title = $0 }).disposed(by: bag)
  }

  func subscribeInfallible(_ source: Infallible<String>) {
    source.subscribe(onNext: { self.title = $0 }).disposed(by: bag)
  }
}

/// An actor subscribing with closures isolated to it.
private actor Counter {
  var count = 0
  var bag = DisposeBag()

  func subscribe(_ source: Observable<Int>) {
    source.subscribe(onNext: { self.count += $0 }).disposed(by: bag)
  }
}

@Suite(
  "Caller isolation: closures written on an actor are checked where they are called",
  .mainSchedulerExclusive)
struct CallerIsolationTests {
  @Test("a main-actor closure delivered on the main actor runs")
  @MainActor
  func mainActorDeliveryRuns() {
    let screen = MainActorScreen()
    let subject = PublishSubject<String>()
    screen.subscribe(subject.asObservable())
    screen.subscribeWith(subject.asObservable())
    screen.bind(subject.asObservable())
    subject.onNext("a")
    subject.onNext("b")
    #expect(screen.title == "b")
    #expect(screen.titles == ["a", "b"])
  }

  @Test("a main-actor closure delivered from a background queue after observe(on: main) runs")
  @MainActor
  func observeOnMainRuns() async {
    let screen = MainActorScreen()
    let subject = PublishSubject<String>()
    screen.bind(subject.observe(on: MainScheduler.instance))
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async {
        subject.onNext("from the background")
        DispatchQueue.main.async { done.resume() }
      }
    }
    #expect(screen.titles == ["from the background"])
  }

  @Test("a checked subscription lets go of its closures and what they capture when it ends")
  @MainActor
  func checkedSubscriptionReleasesClosures() {
    final class Captured {}
    let subject = PublishSubject<String>()
    weak var weakCaptured: Captured?
    weak var weakCompleted: Captured?
    var disposable: (any Disposable)?
    do {
      let captured = Captured()
      let completed = Captured()
      weakCaptured = captured
      weakCompleted = completed
      disposable = subject.subscribe(
        onNext: { _ in withExtendedLifetime(captured) {} },
        onCompleted: { withExtendedLifetime(completed) {} },
        onDisposed: { withExtendedLifetime(captured) {} })
    }
    #expect(weakCaptured != nil)
    subject.onNext("a")
    disposable?.dispose()
    #expect(weakCaptured == nil)
    #expect(weakCompleted == nil)

    let completing = PublishSubject<String>()
    do {
      let captured = Captured()
      weakCaptured = captured
      disposable = completing.bind(onNext: { _ in withExtendedLifetime(captured) {} })
    }
    completing.onCompleted()
    #expect(weakCaptured == nil)
    withExtendedLifetime(disposable) {}
  }

  @Test("a nonisolated subscription records no isolation and runs on any thread")
  func nonisolatedRunsAnywhere() async {
    let subject = PublishSubject<Int>()
    let lock = TestLock()
    nonisolated(unsafe) var received: [Int] = []
    let subscription = subject.subscribe(onNext: { value in lock.run { received.append(value) } })
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async {
        subject.onNext(1)
        done.resume()
      }
    }
    subscription.dispose()
    #expect(lock.run { received } == [1])
  }

  @Test("a main-actor closure reached from another thread stops with a message naming the call")
  func mainActorClosureOffMainStops() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let subject = PublishSubject<String>()
      let screen = await MainActor.run {
        let screen = MainActorScreen()
        screen.subscribe(subject.asObservable())
        return screen
      }
      // The exit test's body runs on a task thread, not the main queue.
      subject.onNext("from the background")
      withExtendedLifetime(screen) {}
    }
    let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(output.contains("closures given to subscribe at"), "stderr: \(output)")
    #expect(output.contains("StreamsTests/CallerIsolationTests.swift:14"), "stderr: \(output)")
    #expect(output.contains("the main actor"), "stderr: \(output)")
  }

  @Test("subscribe(with:), bind(onNext:), Single and Infallible check the same way")
  func everyClosureSubscriberChecks() async {
    await #expect(processExitsWith: .failure) {
      let subject = PublishSubject<String>()
      let screen = await MainActor.run {
        let screen = MainActorScreen()
        screen.subscribeWith(subject.asObservable())
        return screen
      }
      subject.onNext("x")
      withExtendedLifetime(screen) {}
    }
    await #expect(processExitsWith: .failure) {
      let subject = PublishSubject<String>()
      let screen = await MainActor.run {
        let screen = MainActorScreen()
        screen.bind(subject.asObservable())
        return screen
      }
      subject.onNext("x")
      withExtendedLifetime(screen) {}
    }
    await #expect(processExitsWith: .failure) {
      let subject = PublishSubject<String>()
      let screen = await MainActor.run {
        let screen = MainActorScreen()
        screen.subscribeSingle(subject.take(1).asSingle())
        return screen
      }
      subject.onNext("x")
      withExtendedLifetime(screen) {}
    }
    await #expect(processExitsWith: .failure) {
      let subject = PublishSubject<String>()
      let screen = await MainActor.run {
        let screen = MainActorScreen()
        screen.subscribeInfallible(subject.asInfallible(onErrorJustReturn: ""))
        return screen
      }
      subject.onNext("x")
      withExtendedLifetime(screen) {}
    }
  }

  @Test("isolation: nil opts a subscription out of the check")
  func optOut() async {
    await #expect(processExitsWith: .success) {
      let subject = PublishSubject<String>()
      let screen = await MainActor.run {
        let screen = MainActorScreen()
        screen.subscribeUnchecked(subject.asObservable())
        return screen
      }
      subject.onNext("x")
      withExtendedLifetime(screen) {}
    }
  }

  @Test("a closure written in an actor and reached off that actor stops the program")
  func actorClosureOffActorStops() async {
    await #expect(processExitsWith: .failure) {
      let subject = PublishSubject<Int>()
      let counter = Counter()
      await counter.subscribe(subject.asObservable())
      subject.onNext(1)
    }
  }

  @Test("a closure written in an actor and delivered while subscribing, on the actor, runs")
  func actorClosureOnActorRuns() async {
    let counter = Counter()
    await counter.subscribe(Observable.of(1, 2, 3))
    #expect(await counter.count == 6)
  }
}
