import Dispatch
import Streams
import StreamsTest
import StreamsTrace
import Testing

/// A subscription that ends, by disposal or by a terminal event, lets go of everything it holds:
/// the user's closures (and what they capture), the downstream observer, the operators' state.
/// The disposable the caller keeps (in a `DisposeBag`, a property) must not keep them alive.
///
/// Each test captures a `Token` in the subscriber's closures, ends the subscription while still
/// holding its disposable, and checks with a weak reference that the token is gone.
@Suite("Subscription lifetime")
struct SubscriptionLifetimeTests {
  final class Token: @unchecked Sendable {
    var count = 0
  }

  struct Failure: Error {}

  /// How a subscription ends.
  enum End: String, CaseIterable, CustomTestStringConvertible {
    case dispose, complete, fail
    var testDescription: String { rawValue }
  }

  /// Which source the subscriber is attached to: a subject directly, a chain of element-wise
  /// stages (whose disposable is handed on; `scan` keeps state in its step), an operator with a
  /// sink of its own (`catch`), `create`, and the operators with several sources (a
  /// `MultiSourceSink` each), whose other sources end at once or never.
  enum Source: String, CaseIterable, CustomTestStringConvertible {
    case subject, stages, scan, catchError, create, share
    case merge, flatMap, flatMapLatest, concat, combineLatest, withLatestFrom, amb
    var testDescription: String { rawValue }

    func make(_ subject: PublishSubject<Int>) -> Observable<Int> {
      switch self {
      case .subject: return subject.asObservable()
      case .stages: return subject.map { $0 + 1 }.filter { $0 > 0 }
      case .scan: return subject.scan(0) { $0 + $1 }
      case .catchError: return subject.catch { _ in .empty() }
      case .create: return Observable.create { observer in subject.subscribe(observer) }
      case .share: return subject.map { $0 * 2 }.share(replay: 1)
      case .merge: return Observable.merge(subject.asObservable(), .empty())
      case .flatMap: return subject.flatMap { Observable.just($0) }
      case .flatMapLatest: return subject.flatMapLatest { Observable.just($0) }
      case .concat: return Observable.concat(subject.asObservable(), .empty())
      case .combineLatest: return Observable.combineLatest(subject, Observable.just(0)) { $0 + $1 }
      case .withLatestFrom: return subject.withLatestFrom(Observable.just(0)) { value, _ in value }
      case .amb: return Observable.amb([subject.asObservable(), .never()])
      }
    }
  }

  static func end(_ end: End, _ subject: PublishSubject<Int>, _ disposable: any Disposable) {
    switch end {
    case .dispose: disposable.dispose()
    case .complete: subject.onCompleted()
    case .fail: subject.onError(Failure())
    }
  }

  static let cases = Source.allCases.flatMap { source in End.allCases.map { (source, $0) } }
  static let bindingCases = Source.allCases.flatMap { source in
    [End.dispose, .complete].map { (source, $0) }
  }

  /// Subscribes with `subscribe` (which captures the token), delivers one element, ends the
  /// subscription as `end` says while keeping the disposable, and checks that the token is gone.
  static func check(
    _ source: Source, _ end: End,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ subscribe: (Observable<Int>, Token) -> any Disposable
  ) {
    let subject = PublishSubject<Int>()
    weak var weakToken: Token?
    var kept: (any Disposable)?
    do {
      let token = Token()
      weakToken = token
      kept = subscribe(source.make(subject), token)
      subject.onNext(1)
      #expect(
        token.count == 1, "the subscriber received the element", sourceLocation: sourceLocation)
    }
    Self.end(end, subject, kept!)
    #expect(
      weakToken == nil, "released after \(end) while the disposable is kept",
      sourceLocation: sourceLocation)
    withExtendedLifetime(kept) {}
    withExtendedLifetime(subject) {}
  }

  @Test("subscribe(onNext:onError:onCompleted:)", arguments: cases)
  func subscribeClosures(source: Source, end: End) {
    Self.check(source, end) { observable, token in
      observable.subscribe(
        onNext: { _ in token.count += 1 }, onError: { _ in token.count += 10 },
        onCompleted: { token.count += 100 })
    }
  }

  /// A tracer changes nothing of the teardown: the same disposables let go of the same things,
  /// and the trace records every subscription's end, also a subject's that ends by a terminal
  /// event while its subscriber keeps the subject's own disposable.
  @Test("traced: the same teardown, and the trace sees every end", arguments: cases)
  func tracedTeardown(source: Source, end: End) {
    let recorder = TraceRecorder()
    Tracing.withTracer(recorder) {
      Self.check(source, end) { observable, token in
        observable.subscribe(onNext: { _ in token.count += 1 }, onError: { _ in })
      }
      Self.check(source, end) { observable, token in
        observable.subscribe(
          AnyObserver<Int> { event in
            if case .next = event { token.count += 1 }
          })
      }
      #expect(
        recorder.graph.subscriptions.map(\.file) == [], "live subscriptions left in the trace")
    }
  }

  /// A subject dropped without a terminal event, its subscriber's disposable dropped too: both
  /// go, traced or not, where nothing between them is a sink (a sink and its disposable hold each
  /// other until the subscription ends, as in RxSwift).
  @Test(
    "a dropped subject and a dropped disposable let go",
    arguments: [Source.subject, .stages, .scan], [false, true])
  func droppedSubject(source: Source, traced: Bool) {
    TestBinding(scope: nil, tracer: traced ? TraceRecorder() : nil).run {
      weak var weakToken: Token?
      weak var weakSubject: PublishSubject<Int>?
      do {
        let subject = PublishSubject<Int>()
        weakSubject = subject
        let token = Token()
        weakToken = token
        _ = source.make(subject).subscribe(onNext: { _ in token.count += 1 })
        subject.onNext(1)
        #expect(token.count == 1, "the subscriber received the element")
      }
      #expect(weakSubject == nil, "the subject is released")
      #expect(weakToken == nil, "the subscriber's closure is released")
    }
  }

  @Test("subscribe(onNext:onDisposed:)", arguments: cases)
  func subscribeWithOnDisposed(source: Source, end: End) {
    var disposedCount = 0
    Self.check(source, end) { observable, token in
      observable.subscribe(
        onNext: { _ in token.count += 1 }, onError: { _ in }, onDisposed: { disposedCount += 1 })
    }
    #expect(disposedCount == 1)
  }

  @Test("subscribe(observer)", arguments: cases)
  func subscribeObserver(source: Source, end: End) {
    Self.check(source, end) { observable, token in
      observable.subscribe(
        AnyObserver<Int> { event in
          if case .next = event { token.count += 1 }
        })
    }
  }

  @Test("subscribe(_:) with an event closure", arguments: cases)
  func subscribeEvents(source: Source, end: End) {
    Self.check(source, end) { observable, token in
      observable.subscribe { event in
        if case .next = event { token.count += 1 }
      }
    }
  }

  @Test("subscribe(with:onNext:)", arguments: cases)
  func subscribeWith(source: Source, end: End) {
    let owner = Token()
    Self.check(source, end) { observable, token in
      observable.subscribe(with: owner, onNext: { _, _ in token.count += 1 })
    }
  }

  @Test("bind(to:) a relay, through a map that captures", arguments: bindingCases)
  func bindToRelay(source: Source, end: End) {
    let relay = PublishRelay<Int>()
    Self.check(source, end) { observable, token in
      token.count += 1  // the map runs per element; count the subscription instead
      return observable.map { $0 + token.count }.bind(to: relay)
    }
  }

  @Test("bind(to:) an observer", arguments: bindingCases)
  func bindToObserver(source: Source, end: End) {
    Self.check(source, end) { observable, token in
      observable.bind(
        to: AnyObserver<Int> { event in
          if case .next = event { token.count += 1 }
        })
    }
  }

  @Test("bind(onNext:)", arguments: bindingCases)
  func bindOnNext(source: Source, end: End) {
    Self.check(source, end) { observable, token in
      observable.bind(onNext: { _ in token.count += 1 })
    }
  }

  @Test("bind(with:onNext:)", arguments: bindingCases)
  func bindWith(source: Source, end: End) {
    let owner = Token()
    Self.check(source, end) { observable, token in
      observable.bind(with: owner) { _, _ in token.count += 1 }
    }
  }

  @Test("Infallible.bind(with:onNext:)", arguments: bindingCases)
  func infallibleBindWith(source: Source, end: End) {
    let owner = Token()
    Self.check(source, end) { observable, token in
      observable.asInfallible(onErrorJustReturn: 0).bind(with: owner) { _, _ in token.count += 1 }
    }
  }

  @Test("Infallible.subscribe(onNext:)", arguments: bindingCases)
  func infallible(source: Source, end: End) {
    Self.check(source, end) { observable, token in
      observable.asInfallible(onErrorJustReturn: 0).subscribe(onNext: { _ in token.count += 1 })
    }
  }

  @Test("Single.subscribe(onSuccess:onFailure:)", arguments: cases)
  func single(source: Source, end: End) {
    let subject = PublishSubject<Int>()
    weak var weakToken: Token?
    var kept: (any Disposable)?
    do {
      let token = Token()
      weakToken = token
      kept = source.make(subject).take(1).asSingle().subscribe(
        onSuccess: { _ in token.count += 1 }, onFailure: { _ in token.count += 1 })
    }
    switch end {
    case .dispose: kept!.dispose()
    case .complete: subject.onNext(1)
    case .fail: subject.onError(Failure())
    }
    #expect(weakToken == nil)
    withExtendedLifetime(kept) {}
  }

  @Test("Maybe and Completable subscribe", arguments: End.allCases)
  func maybeAndCompletable(end: End) {
    let subject = PublishSubject<Int>()
    weak var weakMaybeToken: Token?
    weak var weakCompletableToken: Token?
    var kept: [any Disposable] = []
    do {
      let maybeToken = Token()
      let completableToken = Token()
      weakMaybeToken = maybeToken
      weakCompletableToken = completableToken
      kept.append(
        subject.asMaybe().subscribe(
          onSuccess: { _ in maybeToken.count += 1 }, onError: { _ in maybeToken.count += 1 },
          onCompleted: { maybeToken.count += 1 }))
      kept.append(
        subject.ignoreElements().asCompletable().subscribe(
          onCompleted: { completableToken.count += 1 },
          onError: { _ in completableToken.count += 1 }))
    }
    switch end {
    case .dispose:
      for disposable in kept { disposable.dispose() }
    case .complete: subject.onCompleted()
    case .fail: subject.onError(Failure())
    }
    #expect(weakMaybeToken == nil)
    #expect(weakCompletableToken == nil)
    withExtendedLifetime(kept) {}
  }

  @Test("a synchronous source (just, of) releases the closures when subscribe returns")
  func synchronousSources() {
    weak var weakToken: Token?
    var kept: [any Disposable] = []
    do {
      let token = Token()
      weakToken = token
      kept.append(Observable.just(1).subscribe(onNext: { token.count += $0 }))
      kept.append(Observable.just(1).map { $0 + token.count }.bind(to: PublishRelay<Int>()))
      kept.append(Observable.of(1, 2).subscribe(onNext: { token.count += $0 }))
      kept.append(Observable.of(1, 2).scan(0, accumulator: +).bind(onNext: { token.count += $0 }))
      #expect(token.count == 1 + 3 + 4)
    }
    #expect(weakToken == nil)
    withExtendedLifetime(kept) {}
  }

  @Test("a DisposeBag kept by the view controller does not keep it alive once just completes")
  func viewControllerPattern() {
    final class ViewController {
      let bag = DisposeBag()
      var n = 0
    }
    weak var weakController: ViewController?
    do {
      let controller = ViewController()
      weakController = controller
      Observable.just(1).subscribe(onNext: { controller.n += $0 }).disposed(by: controller.bag)
      Observable.of(1, 2).scan(0, accumulator: +).subscribe(onNext: { controller.n += $0 })
        .disposed(by: controller.bag)
      #expect(controller.n == 1 + 1 + 3)
    }
    #expect(weakController == nil)
  }

  @Test("onDisposed runs once, on disposal after completion too")
  func onDisposedOnce() {
    let subject = PublishSubject<Int>()
    var log: [String] = []
    let disposable = subject.scan(0, accumulator: +).subscribe(
      onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
    subject.onCompleted()
    disposable.dispose()
    #expect(log == ["completed", "disposed"])
    #expect((disposable as? any Cancelable)?.isDisposed == true)
  }
}

extension MainThreadDeliveryTests {
  @Suite("Driver and Signal lifetime")
  struct SharedSequenceLifetimeTests {
    final class Token {
      var count = 0
    }

    @Test("drive(onNext:) and emit(onNext:) release their closures after dispose and completion")
    @MainActor
    func driveAndEmit() async {
      await drainMainQueue()
      for disposeFirst in [true, false] {
        let relay = BehaviorRelay(value: 0)
        let subject = PublishSubject<Int>()
        weak var weakDriveToken: Token?
        weak var weakEmitToken: Token?
        var kept: [any Disposable] = []
        do {
          let driveToken = Token()
          let emitToken = Token()
          weakDriveToken = driveToken
          weakEmitToken = emitToken
          kept.append(relay.asDriver().drive(onNext: { _ in driveToken.count += 1 }))
          kept.append(
            subject.asSignal(onErrorJustReturn: 0).emit(onNext: { _ in emitToken.count += 1 }))
          subject.onNext(1)
          #expect(driveToken.count == 1)
          #expect(emitToken.count == 1)
        }
        if disposeFirst {
          for disposable in kept { disposable.dispose() }
        } else {
          subject.onCompleted()
          kept[0].dispose()  // a relay never completes
        }
        await drainMainQueue()
        #expect(weakDriveToken == nil)
        #expect(weakEmitToken == nil)
        withExtendedLifetime(kept) {}
      }
    }
  }
}
