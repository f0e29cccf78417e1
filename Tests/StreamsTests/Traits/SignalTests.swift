import Dispatch
import Streams
import StreamsTest
import Testing

extension MainThreadDeliveryTests {
  @Suite("Signal")
  struct SignalTests {
    @Test("a Signal replays nothing to a late subscriber and shares one source subscription")
    @MainActor
    func noReplay() async {
      await drainMainQueue()
      var subscriptions = 0
      let subject = PublishSubject<Int>()
      let source = Observable<Int>.create { observer in
        subscriptions += 1
        return subject.subscribe(observer)
      }
      let signal = source.asSignal(onErrorJustReturn: 0)
      var first: [Int] = []
      var second: [Int] = []
      let a = signal.emit(onNext: { first.append($0) })
      subject.onNext(1)
      let b = signal.emit(onNext: { second.append($0) })
      subject.onNext(2)
      a.dispose()
      b.dispose()
      #expect(first == [1, 2])
      #expect(second == [2])
      #expect(subscriptions == 1)
    }

    @Test("asSignal delivers on the main actor and replaces the error")
    @MainActor
    func onMain() async {
      await drainMainQueue()
      let subject = PublishSubject<Int>()
      var values: [Int] = []
      var completed = false
      let subscription = subject.asSignal(onErrorJustReturn: -1).emit(
        onNext: { value in
          MainActor.assertIsolated()
          values.append(value)
        },
        onCompleted: { completed = true })
      await Task.detached { @Sendable in
        subject.onNext(1)
        subject.onError(TraitError())
      }.value
      await drainMainQueue()
      #expect(values == [1, -1])
      #expect(completed)
      subscription.dispose()
    }

    @Test("asSignal(onErrorSignalWith:) and asSignal(onErrorRecover:)")
    @MainActor
    func recovery() async {
      await drainMainQueue()
      var values: [Int] = []
      let failing = Observable<Int>.create { observer in
        observer.onError(TraitError(3))
        return Disposables.create()
      }
      _ = failing.asSignal(onErrorSignalWith: .just(1)).emit(onNext: { values.append($0) })
      _ = failing.asSignal(onErrorRecover: { error in .just((error as? TraitError)?.code ?? 0) })
        .emit(onNext: { values.append($0) })
      await drainMainQueue()
      #expect(values == [1, 3])
    }

    @Test("PublishRelay.asSignal, emit(with:), emit(to:) observers and relays")
    @MainActor
    func emitForms() async {
      await drainMainQueue()
      let taps = PublishRelay<Int>()
      final class Owner {
        var values: [Int] = []
      }
      let owner = Owner()
      let subject = ReplaySubject<Int>.createUnbounded()
      let optionalSubject = ReplaySubject<Int?>.createUnbounded()
      let publish = PublishRelay<Int>()
      let optionalPublish = PublishRelay<Int?>()
      let behavior = BehaviorRelay(value: 0)
      let optionalBehavior = BehaviorRelay<Int?>(value: nil)
      let replay = ReplayRelay<Int>.create(bufferSize: 1)
      let optionalReplay = ReplayRelay<Int?>.create(bufferSize: 1)
      var published: [Int] = []
      var publishedOptional: [Int?] = []
      let bag = DisposeBag()
      publish.subscribe(onNext: { published.append($0) }).disposed(by: bag)
      optionalPublish.subscribe(onNext: { publishedOptional.append($0) }).disposed(by: bag)
      let signal = taps.asSignal()
      signal.emit(with: owner, onNext: { $0.values.append($1) }).disposed(by: bag)
      signal.emit(to: subject).disposed(by: bag)
      signal.emit(to: optionalSubject).disposed(by: bag)
      signal.emit(to: publish).disposed(by: bag)
      signal.emit(to: optionalPublish).disposed(by: bag)
      signal.emit(to: behavior).disposed(by: bag)
      signal.emit(to: optionalBehavior).disposed(by: bag)
      signal.emit(to: replay).disposed(by: bag)
      signal.emit(to: optionalReplay).disposed(by: bag)
      taps.accept(7)
      var replayed: [Int] = []
      var replayedOptional: [Int?] = []
      var subjectEvents: [Event<Int>] = []
      var optionalEvents: [Event<Int?>] = []
      replay.subscribe(onNext: { replayed.append($0) }).disposed(by: bag)
      optionalReplay.subscribe(onNext: { replayedOptional.append($0) }).disposed(by: bag)
      subject.subscribe { subjectEvents.append($0) }.disposed(by: bag)
      optionalSubject.subscribe { optionalEvents.append($0) }.disposed(by: bag)
      #expect(owner.values == [7])
      #expect(published == [7])
      #expect(publishedOptional == [7])
      #expect(behavior.value == 7)
      #expect(optionalBehavior.value == 7)
      #expect(replayed == [7])
      #expect(replayedOptional == [7])
      #expect(subjectEvents == [.next(7)])
      #expect(optionalEvents == [.next(7)])
    }

    @Test("Signal.just, empty, never and asSignal()")
    @MainActor
    func factories() async {
      await drainMainQueue()
      var log: [String] = []
      _ = Signal.just(1).asSignal().emit(onNext: { log.append("just \($0)") })
      _ = Signal<Int>.empty().emit(onCompleted: { log.append("empty") })
      Signal<Int>.never().emit(onNext: { _ in log.append("never") }).dispose()
      #expect(log == ["just 1", "empty"])
    }
  }
}
