import Streams
import Testing

/// The operators with several sources (each a `MultiSourceSink`) let go of their own closures and
/// of their sources' subscriptions when the subscription ends, while the caller still holds the
/// disposable; and their teardown runs once, however many times and from wherever it is asked for.
@Suite("Multi-source operators: lifetime and teardown")
struct MultiSourceLifetimeTests {
  final class Token: @unchecked Sendable {}

  struct Failure: Error {}

  enum End: String, CaseIterable, CustomTestStringConvertible {
    case dispose, complete, fail
    var testDescription: String { rawValue }
  }

  /// An operator over `source` whose own closure (a selector, a result selector) or one of whose
  /// other sources (in the disposal closure of its subscription) holds `token`.
  enum Operator: String, CaseIterable, CustomTestStringConvertible {
    case merge, flatMap, flatMapFirst, concatMap, flatMapLatest, concat, combineLatest, zip
    case withLatestFrom, amb
    var testDescription: String { rawValue }

    /// A second subscription to `source` that passes nothing and holds `token` in its closure
    /// until it is disposed: it ends when `source` ends.
    static func holding(_ token: Token, _ source: Observable<Int>) -> Observable<Int> {
      source.filter { _ in withExtendedLifetime(token) { false } }
    }

    func make(_ source: Observable<Int>, _ token: Token) -> Observable<Int> {
      let inner = { (value: Int) -> Observable<Int> in
        withExtendedLifetime(token) { Observable.just(value) }
      }
      switch self {
      case .merge: return Observable.merge(source, Self.holding(token, source))
      case .flatMap: return source.flatMap(inner)
      case .flatMapFirst: return source.flatMapFirst(inner)
      case .concatMap: return source.concatMap(inner)
      case .flatMapLatest: return source.flatMapLatest(inner)
      case .concat:
        // The first part completes after one element, so the token's part is subscribed.
        return Observable.concat(source.take(1), Self.holding(token, source))
      case .combineLatest:
        return Observable.combineLatest(source, Observable.just(0)) { first, second in
          withExtendedLifetime(token) { first + second }
        }
      case .zip:
        return Observable.zip(source, Observable.from([0, 1, 2])) { first, second in
          withExtendedLifetime(token) { first + second }
        }
      case .withLatestFrom:
        return source.withLatestFrom(Observable.just(0)) { first, _ in
          withExtendedLifetime(token) { first }
        }
      case .amb:
        // The first source wins with the element; the token is in the winner.
        return Observable.amb([
          source.map { value in withExtendedLifetime(token) { value } }, .never(),
        ])
      }
    }
  }

  static let cases = Operator.allCases.flatMap { op in End.allCases.map { (op, $0) } }

  @Test("lets go of its closures and sources once it ends, the disposable kept", arguments: cases)
  func releasesOnEnd(op: Operator, end: End) {
    let subject = PublishSubject<Int>()
    weak var weakToken: Token?
    let received = Counter()
    var kept: (any Disposable)?
    do {
      let token = Token()
      weakToken = token
      kept = op.make(subject.asObservable(), token).subscribe(onNext: { _ in received.count += 1 })
    }
    subject.onNext(1)
    #expect(received.count == 1, "the element passed")
    #expect(weakToken != nil, "held while the subscription runs")
    switch end {
    case .dispose: kept?.dispose()
    case .complete: subject.onCompleted()
    case .fail: subject.onError(Failure())
    }
    #expect(weakToken == nil, "released after \(end) while the disposable is kept")
    withExtendedLifetime(kept) {}
  }

  @Test(
    "disposing twice, or after the end, disposes each subscription of a source once",
    arguments: cases)
  func tearsDownOnce(op: Operator, end: End) {
    let subject = PublishSubject<Int>()
    let subscriptions = Counter()
    let disposals = Counter()
    let counted = Observable<Int>.create { observer in
      subscriptions.count += 1
      let inner = subject.subscribe(observer)
      return Disposables.create {
        disposals.count += 1
        inner.dispose()
      }
    }
    let disposable = op.make(counted, Token()).subscribe(onNext: { _ in })
    subject.onNext(1)
    switch end {
    case .dispose: disposable.dispose()
    case .complete: subject.onCompleted()
    case .fail: subject.onError(Failure())
    }
    disposable.dispose()
    disposable.dispose()
    // `merge` and `concat` subscribe the source twice here (see `holding`).
    #expect(subscriptions.count >= 1)
    #expect(disposals.count == subscriptions.count, "each subscription disposed once")
  }

  final class Counter: @unchecked Sendable {
    var count = 0
  }
}
