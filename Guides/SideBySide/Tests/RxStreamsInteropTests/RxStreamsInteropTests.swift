import Foundation
import RxRelay
import RxStreamsInterop
import RxSwift
import Streams
import Testing

struct Failure: Error, Equatable {}

/// What the subscriptions received, in order, as text. `@unchecked Sendable`: `entries` is
/// guarded by `lock` (disposal closures are `@Sendable` in Streams).
final class Log: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [String] = []

  var entries: [String] {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}

@Suite("RxSwift ⇄ Streams at a module boundary")
struct RxStreamsInteropTests {
  @Test("RxSwift → Streams: elements and completion pass through; completion ends the RxSwift side")
  func rxToStreamsCompletes() {
    let subject = RxSwift.PublishSubject<Int>()
    let log = Log()
    let subscription = subject.asStreamsObservable().subscribe(
      onNext: { log.entries.append("next \($0)") },
      onCompleted: { log.entries.append("completed") },
      onDisposed: { log.entries.append("disposed") })
    #expect(subject.hasObservers)

    subject.onNext(1)
    subject.onNext(2)
    subject.onCompleted()

    #expect(log.entries == ["next 1", "next 2", "completed", "disposed"])
    #expect(!subject.hasObservers)
    subscription.dispose()
  }

  @Test("RxSwift → Streams: the error passes through")
  func rxToStreamsFails() {
    let subject = RxSwift.PublishSubject<Int>()
    let log = Log()
    _ = subject.asStreamsObservable().subscribe(
      onNext: { log.entries.append("next \($0)") },
      onError: { log.entries.append("error \($0 is Failure)") })

    subject.onNext(1)
    subject.onError(Failure())
    subject.onNext(2)

    #expect(log.entries == ["next 1", "error true"])
    #expect(!subject.hasObservers)
  }

  @Test("RxSwift → Streams: disposing the Streams subscription disposes the RxSwift one")
  func rxToStreamsDisposal() {
    let subject = RxSwift.PublishSubject<Int>()
    let log = Log()
    let subscription = subject.asStreamsObservable().subscribe(
      onNext: { log.entries.append("next \($0)") })
    subject.onNext(1)

    subscription.dispose()
    subject.onNext(2)

    #expect(log.entries == ["next 1"])
    #expect(!subject.hasObservers)
  }

  @Test("Streams → RxSwift: elements and completion pass through; completion ends the Streams side")
  func streamsToRxCompletes() {
    let subject = Streams.PublishSubject<Int>()
    let log = Log()
    let subscription = subject.asRxSwiftObservable().subscribe(
      onNext: { log.entries.append("next \($0)") },
      onCompleted: { log.entries.append("completed") },
      onDisposed: { log.entries.append("disposed") })
    #expect(subject.hasObservers)

    subject.onNext(1)
    subject.onNext(2)
    subject.onCompleted()

    #expect(log.entries == ["next 1", "next 2", "completed", "disposed"])
    #expect(!subject.hasObservers)
    subscription.dispose()
  }

  @Test("Streams → RxSwift: the error passes through")
  func streamsToRxFails() {
    let subject = Streams.PublishSubject<Int>()
    let log = Log()
    _ = subject.asRxSwiftObservable().subscribe(
      onNext: { log.entries.append("next \($0)") },
      onError: { log.entries.append("error \($0 is Failure)") })

    subject.onNext(1)
    subject.onError(Failure())

    #expect(log.entries == ["next 1", "error true"])
    #expect(!subject.hasObservers)
  }

  @Test("Streams → RxSwift: disposing the RxSwift subscription disposes the Streams one")
  func streamsToRxDisposal() {
    let subject = Streams.PublishSubject<Int>()
    let log = Log()
    let subscription = subject.asRxSwiftObservable().subscribe(
      onNext: { log.entries.append("next \($0)") },
      onDisposed: { log.entries.append("disposed") })
    subject.onNext(1)

    subscription.dispose()
    subject.onNext(2)

    #expect(log.entries == ["next 1", "disposed"])
    #expect(!subject.hasObservers)
  }

  @Test("a round trip keeps the events")
  func roundTrip() {
    let subject = RxSwift.PublishSubject<String>()
    let log = Log()
    _ = subject.asStreamsObservable().map { $0.uppercased() }.asRxSwiftObservable().subscribe(
      onNext: { log.entries.append($0) }, onCompleted: { log.entries.append("completed") })

    subject.onNext("a")
    subject.onCompleted()

    #expect(log.entries == ["A", "completed"])
    #expect(!subject.hasObservers)
  }

  @Test("Single: success and failure pass both ways")
  func singles() {
    let log = Log()
    let rxSuccess = RxSwift.Single<Int>.create { single in
      single(.success(1))
      return RxSwift.Disposables.create()
    }
    _ = rxSuccess.asStreamsSingle().subscribe(
      onSuccess: { log.entries.append("streams success \($0)") },
      onFailure: { _ in log.entries.append("streams failure") })
    let rxFailure = RxSwift.Single<Int>.create { single in
      single(.failure(Failure()))
      return RxSwift.Disposables.create()
    }
    _ = rxFailure.asStreamsSingle().subscribe(
      onSuccess: { log.entries.append("streams success \($0)") },
      onFailure: { log.entries.append("streams failure \($0 is Failure)") })
    _ = Streams.Single.just(2).asRxSwiftSingle().subscribe(
      onSuccess: { log.entries.append("rx success \($0)") },
      onFailure: { _ in log.entries.append("rx failure") })
    _ = Streams.Single<Int>.error(Failure()).asRxSwiftSingle().subscribe(
      onSuccess: { log.entries.append("rx success \($0)") },
      onFailure: { log.entries.append("rx failure \($0 is Failure)") })

    #expect(
      log.entries == [
        "streams success 1", "streams failure true", "rx success 2", "rx failure true",
      ])
  }

  @Test("Single: disposing a pending request on one side cancels it on the other")
  func singleDisposal() {
    let cancelled = Log()
    let rxRequest = RxSwift.Single<Int>.create { _ in
      RxSwift.Disposables.create { cancelled.entries.append("rx request cancelled") }
    }
    rxRequest.asStreamsSingle().subscribe(onSuccess: { _ in }).dispose()

    let streamsRequest = Streams.Single<Int>.create { _ in
      Streams.Disposables.create { cancelled.entries.append("streams request cancelled") }
    }
    streamsRequest.asRxSwiftSingle().subscribe(onSuccess: { _ in }).dispose()

    #expect(cancelled.entries == ["rx request cancelled", "streams request cancelled"])
  }

  @Test("Disposable: each side's disposable goes in the other side's bag, and disposes once")
  func disposables() {
    let log = Log()
    var streamsBag: Streams.DisposeBag? = Streams.DisposeBag()
    RxSwift.Disposables.create { log.entries.append("rx disposed") }
      .asStreamsDisposable()
      .disposed(by: streamsBag!)
    var rxBag: RxSwift.DisposeBag? = RxSwift.DisposeBag()
    let streamsDisposable = Streams.Disposables.create { log.entries.append("streams disposed") }
    streamsDisposable.asRxSwiftDisposable().disposed(by: rxBag!)

    streamsBag = nil
    rxBag = nil
    streamsDisposable.dispose()

    #expect(log.entries == ["rx disposed", "streams disposed"])
    #expect(streamsBag == nil && rxBag == nil)
  }

  @Test("relays: an RxSwift relay read from Streams, each side writing the other's relay")
  func relays() {
    let log = Log()
    let rxCount = RxRelay.BehaviorRelay(value: 0)
    let streamsCount = Streams.BehaviorRelay(value: 0)
    let streamsBag = Streams.DisposeBag()
    let rxBag = RxSwift.DisposeBag()

    // Reading: the RxSwift relay's current value, then each accepted value.
    rxCount.asStreamsObservable()
      .subscribe(onNext: { log.entries.append("streams reads \($0)") })
      .disposed(by: streamsBag)
    // Writing across: RxSwift code keeps a Streams relay current, and the other way round.
    rxCount.bind(to: streamsCount).disposed(by: rxBag)
    let rxTaps = RxRelay.PublishRelay<String>()
    let streamsTaps = Streams.PublishRelay<String>()
    streamsTaps.bind(to: rxTaps).disposed(by: streamsBag)
    rxTaps.subscribe(onNext: { log.entries.append("rx receives \($0)") }).disposed(by: rxBag)

    rxCount.accept(1)
    streamsTaps.accept("tap")

    #expect(log.entries == ["streams reads 0", "streams reads 1", "rx receives tap"])
    #expect(streamsCount.value == 1)
  }
}
