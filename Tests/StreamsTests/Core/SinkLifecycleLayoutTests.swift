import Testing

@testable import Streams

/// `SinkLifecycle` addresses its word as the first stored property of the object
/// (`_getUnsafePointerToStoredProperties`): every conforming class must declare `flags` first, or
/// the atomics would write over another property. Nothing in the compiler checks that; this test
/// does, through `Mirror`, which lists stored properties in declaration order, on an instance of
/// each conforming class made the way the library makes it.
@Suite("SinkLifecycle: the word is the first stored property")
struct SinkLifecycleLayoutTests {
  /// Subscribes `observable` the way an operator's producer does and returns what the producer
  /// returned: the sink itself for the operators below.
  static func sink<Element>(_ observable: Observable<Element>) -> any Disposable {
    let trampoline = Trampoline.enterIfIdle()
    defer { trampoline?.drainAndStop() }
    return observable.subscribeNested(AnyObserver { _ in })
  }

  static func instances() -> [(expected: String, object: AnyObject)] {
    let a = PublishSubject<Int>()
    let b = PublishSubject<Int>()
    // An upstream whose disposable is not handed on, so that `map` returns its own sink.
    let created = Observable<Int>.create { observer in a.subscribe(observer) }
    return [
      ("GuardedSink", GuardedSink(AnyObserver<Int> { _ in })),
      (
        "ClosureSink",
        ClosureSink<Int>(
          onNext: nil, onError: nil, onCompleted: nil, onDisposed: nil, owner: nil)
      ),
      ("SingleAssignmentDisposable", SingleAssignmentDisposable()),
      ("StageSink", sink(created.map { $0 + 1 })),
      ("MergeSink", sink(Observable.merge(a.asObservable(), b.asObservable()))),
      ("SwitchSink", sink(a.flatMapLatest { _ in b.asObservable() })),
      ("ConcatSink", sink(Observable.concat(a.asObservable(), b.asObservable()))),
      ("CombineSink", sink(Observable.combineLatest([a.asObservable(), b.asObservable()]) { $0 })),
      ("TypedCombineSink", sink(Observable.combineLatest(a, b) { $0 + $1 })),
      ("WithLatestFromSink", sink(a.withLatestFrom(b) { $0 + $1 })),
      ("AmbSink", sink(Observable.amb([a.asObservable(), b.asObservable()]))),
    ].map { ($0.0, $0.1 as AnyObject) }
  }

  @Test("every class that conforms declares flags first")
  func flagsFirst() {
    for (expected, object) in Self.instances() {
      let name = String(describing: type(of: object))
      #expect(name.hasPrefix(expected), "made a \(expected), got \(name)")
      #expect(object is any SinkLifecycle, "\(name) conforms")
      let first = Mirror(reflecting: object).children.first?.label
      #expect(first == "flags", "\(name)'s first stored property is \(first ?? "nothing")")
    }
  }
}
