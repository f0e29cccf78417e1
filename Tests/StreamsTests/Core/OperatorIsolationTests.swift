import Dispatch
import Streams
import StreamsTest
import Testing

/// A main-actor view model whose operator closures Swift 6 infers to be main-actor isolated.
///
/// Each method builds a chain in main-actor code and subscribes with `isolation: nil`, so only
/// the operator closures are checked: a stop names the operator, never `subscribe`.
@MainActor
private final class MainActorViewModel {
  var prefix = "#"
  var seen: [String] = []
  let bag = DisposeBag()

  func mapped(_ source: Observable<Int>) {
    source.map { "\(self.prefix)\($0)" }
      .subscribe(onNext: { _ in }, isolation: nil).disposed(by: bag)
  }

  func everyOperator(_ source: Observable<Int>) {
    let other = Observable.just(10)
    let kept: Observable<Int> =
      source
      .filter { _ in self.prefix == "#" }
      .compactMap { Optional($0) }
    let totals: Observable<Int> =
      kept
      .scan(0) { total, value in total + value + self.prefix.count - 1 }
      .distinctUntilChanged { $0 == $1 && self.prefix.isEmpty }
    let switched: Observable<Int> =
      totals
      .flatMapLatest { value in Observable.just(value + self.prefix.count - 1) }
      .withLatestFrom(other) { value, _ in value }
    switched
      .do(onNext: { self.seen.append("\($0)") })
      .subscribe(onNext: { _ in }, isolation: nil).disposed(by: bag)
  }

  func filtered(_ source: Observable<Int>) {
    source.filter { _ in self.prefix == "#" }
      .subscribe(onNext: { _ in }, isolation: nil).disposed(by: bag)
  }

  func flatMapped(_ source: Observable<Int>) {
    source.flatMapLatest { _ in Observable.just(self.prefix) }
      .subscribe(onNext: { _ in }, isolation: nil).disposed(by: bag)
  }

  func tapped(_ source: Observable<Int>) {
    source.do(onNext: { self.seen.append("\($0)") })
      .subscribe(onNext: { _ in }, isolation: nil).disposed(by: bag)
  }

  func scanned(_ source: Observable<Int>) {
    source.scan(into: "") { text, _ in text += self.prefix }
      .subscribe(onNext: { _ in }, isolation: nil).disposed(by: bag)
  }

  func combined(_ first: Observable<Int>, _ second: Observable<Int>) {
    Observable.combineLatest(first, second) { "\(self.prefix)\($0 + $1)" }
      .subscribe(onNext: { _ in }, isolation: nil).disposed(by: bag)
  }

  func singleMapped(_ source: Single<Int>) {
    source.map { "\(self.prefix)\($0)" }
      .subscribe(onSuccess: { _ in }, isolation: nil).disposed(by: bag)
  }

  func infallibleMapped(_ source: Infallible<Int>) {
    source.map { "\(self.prefix)\($0)" }
      .subscribe(onNext: { _ in }, isolation: nil).disposed(by: bag)
  }

  func unchecked(_ source: Observable<Int>) {
    source.map({ "\($0)" }, isolation: nil)
      .subscribe(onNext: { _ in }, isolation: nil).disposed(by: bag)
  }

  /// Only Streams' own closures: the tuple `combineLatest`, `withLatestFrom` without a selector,
  /// `reduce` with its built-in result, `distinctUntilChanged()`.
  func libraryClosuresOnly(_ first: Observable<Int>, _ second: Observable<Int>) {
    Observable<Any>.combineLatest(first, second)
      .withLatestFrom(second)
      .distinctUntilChanged()
      .subscribe(onNext: { _ in }, isolation: nil).disposed(by: bag)
    // The caller's accumulator opts out; the result closure `reduce` adds is Streams' own.
    first.reduce(0, accumulator: { $0 + $1 }, isolation: nil)
      .subscribe(onNext: { _ in }, isolation: nil).disposed(by: bag)
  }
}

/// Sends `element` from a background queue and waits until it was delivered.
private func sendFromBackground(_ subject: PublishSubject<Int>, _ element: Int) async {
  await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    DispatchQueue.global().async {
      subject.onNext(element)
      done.resume()
    }
  }
}

@Suite(
  "Operator closures written on an actor are checked where they are called", .mainSchedulerExclusive
)
struct OperatorIsolationTests {
  @Test("main-actor operator closures delivered on the main actor run")
  @MainActor
  func mainActorDeliveryRuns() {
    let model = MainActorViewModel()
    let subject = PublishSubject<Int>()
    model.everyOperator(subject.asObservable())
    model.combined(subject.asObservable(), Observable.just(1))
    subject.onNext(1)
    subject.onNext(2)
    #expect(model.seen == ["1", "3"])
  }

  @Test("a main-actor map delivered after observe(on: main) from a background queue runs")
  @MainActor
  func observeOnMainRuns() async {
    let model = MainActorViewModel()
    let subject = PublishSubject<Int>()
    model.tapped(subject.observe(on: MainScheduler.instance))
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async {
        subject.onNext(7)
        DispatchQueue.main.async { done.resume() }
      }
    }
    #expect(model.seen == ["7"])
  }

  @Test("a main-actor map reached from a background thread stops, naming map and its line")
  func mapOffMainStops() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let subject = PublishSubject<Int>()
      let model = await MainActor.run {
        let model = MainActorViewModel()
        model.mapped(subject.asObservable())
        return model
      }
      await sendFromBackground(subject, 1)
      withExtendedLifetime(model) {}
    }
    let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(output.contains("closures given to map at"), "stderr: \(output)")
    #expect(output.contains("StreamsTests/OperatorIsolationTests.swift:17"), "stderr: \(output)")
    #expect(output.contains("the main actor"), "stderr: \(output)")
  }

  @Test("filter, flatMapLatest, do, scan and combineLatest's selector stop the same way")
  func operatorsOffMainStop() async {
    await #expect(processExitsWith: .failure) {
      let subject = PublishSubject<Int>()
      let model = await MainActor.run {
        let model = MainActorViewModel()
        model.filtered(subject.asObservable())
        return model
      }
      await sendFromBackground(subject, 1)
      withExtendedLifetime(model) {}
    }
    await #expect(processExitsWith: .failure) {
      let subject = PublishSubject<Int>()
      let model = await MainActor.run {
        let model = MainActorViewModel()
        model.flatMapped(subject.asObservable())
        return model
      }
      await sendFromBackground(subject, 1)
      withExtendedLifetime(model) {}
    }
    await #expect(processExitsWith: .failure) {
      let subject = PublishSubject<Int>()
      let model = await MainActor.run {
        let model = MainActorViewModel()
        model.tapped(subject.asObservable())
        return model
      }
      await sendFromBackground(subject, 1)
      withExtendedLifetime(model) {}
    }
    await #expect(processExitsWith: .failure) {
      let subject = PublishSubject<Int>()
      let model = await MainActor.run {
        let model = MainActorViewModel()
        model.scanned(subject.asObservable())
        return model
      }
      await sendFromBackground(subject, 1)
      withExtendedLifetime(model) {}
    }
    await #expect(processExitsWith: .failure) {
      let subject = PublishSubject<Int>()
      let model = await MainActor.run {
        let model = MainActorViewModel()
        model.combined(subject.asObservable(), Observable.just(1))
        return model
      }
      await sendFromBackground(subject, 1)
      withExtendedLifetime(model) {}
    }
  }

  @Test("the traits' operators forward the caller's isolation: Single.map, Infallible.map")
  func traitOperatorsOffMainStop() async {
    await #expect(processExitsWith: .failure) {
      let subject = PublishSubject<Int>()
      let model = await MainActor.run {
        let model = MainActorViewModel()
        model.singleMapped(subject.take(1).asSingle())
        return model
      }
      await sendFromBackground(subject, 1)
      withExtendedLifetime(model) {}
    }
    await #expect(processExitsWith: .failure) {
      let subject = PublishSubject<Int>()
      let model = await MainActor.run {
        let model = MainActorViewModel()
        model.infallibleMapped(subject.asInfallible(onErrorJustReturn: 0))
        return model
      }
      await sendFromBackground(subject, 1)
      withExtendedLifetime(model) {}
    }
  }

  @Test("isolation: nil opts an operator out, and Streams' own closures are never checked")
  func uncheckedRunAnywhere() async {
    await #expect(processExitsWith: .success) {
      let subject = PublishSubject<Int>()
      let model = await MainActor.run {
        let model = MainActorViewModel()
        model.unchecked(subject.asObservable())
        model.libraryClosuresOnly(subject.asObservable(), Observable.just(2))
        return model
      }
      await sendFromBackground(subject, 1)
      subject.onCompleted()
      withExtendedLifetime(model) {}
    }
  }

  @Test("an operator closure written in an actor and reached off that actor stops the program")
  func actorOperatorOffActorStops() async {
    actor Totals {
      var total = 0
      var bag = DisposeBag()
      func follow(_ source: Observable<Int>) {
        source.map {
          self.total += $0
          return $0
        }
        .subscribe(onNext: { _ in }, isolation: nil).disposed(by: bag)
      }
    }
    await #expect(processExitsWith: .failure) {
      let subject = PublishSubject<Int>()
      let totals = Totals()
      await totals.follow(subject.asObservable())
      await sendFromBackground(subject, 1)
    }
  }

  @Test("an actor that keeps an observable it built is not kept alive by the check")
  func checkDoesNotRetainTheActor() async {
    actor Holder {
      var doubled: Observable<Int>?
      func build(_ source: Observable<Int>) {
        doubled = source.map { $0 * 2 }
      }
      var isBuilt: Bool { doubled != nil }
    }
    weak var weakHolder: Holder?
    do {
      let holder = Holder()
      weakHolder = holder
      await holder.build(Observable.just(1))
      #expect(await holder.isBuilt)
    }
    #expect(weakHolder == nil)
  }

  @Test("a nonisolated chain runs on any thread")
  func nonisolatedChainRunsAnywhere() async {
    let subject = PublishSubject<Int>()
    let lock = TestLock()
    nonisolated(unsafe) var received: [Int] = []
    let subscription = subject.map { $0 * 2 }.filter { $0 > 0 }.scan(0, accumulator: +)
      .subscribe(onNext: { value in lock.run { received.append(value) } })
    await sendFromBackground(subject, 1)
    await sendFromBackground(subject, 2)
    subscription.dispose()
    #expect(lock.run { received } == [2, 6])
  }
}
