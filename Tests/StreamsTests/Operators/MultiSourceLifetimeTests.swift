import Dispatch
import Testing

@testable import Streams

/// The operators with several sources (each a `MultiSourceSink`): once the subscription ends, the
/// sink and what it holds (its own closures, its sources' subscriptions) are let go while the
/// caller still holds the disposable; and each source subscription is disposed exactly once,
/// whichever end comes first, also when disposal races the terminal event on another thread.
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

  /// Disposes `inner` on every call and counts the calls (unlike `Disposables.create`, which
  /// runs its action once, or a `create` subscription, whose sink disposes once).
  final class CountingDisposable: Disposable, @unchecked Sendable {
    // `@unchecked Sendable`: `calls` is a lock; `inner` is immutable.
    let inner: any Disposable
    let calls = Locked(0)
    init(_ inner: any Disposable) { self.inner = inner }
    func dispose() {
      calls.withLock { $0 += 1 }
      inner.dispose()
    }
  }

  /// `subject`, each subscription's disposable handed to the operator as it is: a
  /// ``CountingDisposable``, kept in `spies`.
  static func counted(_ subject: PublishSubject<Int>, _ spies: Locked<[CountingDisposable]>)
    -> Observable<Int>
  {
    Observable(kind: "test.counted", upstreams: []) { observer in
      let spy = CountingDisposable(subject.subscribe(observer))
      spies.withLock { $0.append(spy) }
      return spy
    }
  }

  static func expectEachDisposedOnce(
    _ spies: Locked<[CountingDisposable]>, _ label: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let calls = spies.withLock { $0.map { $0.calls.withLock { $0 } } }
    // `merge` and `concat` subscribe the source twice here (see `holding`).
    #expect(!calls.isEmpty, "\(label): subscribed", sourceLocation: sourceLocation)
    #expect(
      calls.allSatisfy { $0 == 1 }, "\(label): each subscription disposed once, not \(calls)",
      sourceLocation: sourceLocation)
  }

  @Test(
    "each subscription of a source is disposed once, by the end or by dispose, called again after",
    arguments: cases)
  func tearsDownOnce(op: Operator, end: End) {
    let subject = PublishSubject<Int>()
    let spies = Locked<[CountingDisposable]>([])
    let disposable = op.make(Self.counted(subject, spies), Token()).subscribe(onNext: { _ in })
    subject.onNext(1)
    switch end {
    case .dispose: disposable.dispose()
    case .complete: subject.onCompleted()
    case .fail: subject.onError(Failure())
    }
    disposable.dispose()
    disposable.dispose()
    Self.expectEachDisposedOnce(spies, "\(op) after \(end)")
  }

  @Test(
    "each subscription of a source is disposed once when dispose races the terminal event",
    arguments: Operator.allCases)
  func tearsDownOnceUnderRace(op: Operator) {
    for round in 0..<50 {
      let subject = PublishSubject<Int>()
      let spies = Locked<[CountingDisposable]>([])
      let disposable = op.make(Self.counted(subject, spies), Token()).subscribe(onNext: { _ in })
      subject.onNext(1)
      runOnThreads(2) { index in
        if index == 0 { subject.onCompleted() } else { disposable.dispose() }
      }
      Self.expectEachDisposedOnce(spies, "\(op), round \(round)")
    }
  }

  final class Counter: @unchecked Sendable {
    var count = 0
  }
}
