/// The elements of one key of ``ObservableType/groupBy(keySelector:isolation:file:line:)``, as RxSwift's
/// `GroupedObservable`.
///
/// ```swift
/// _ = Observable.of(1, 2, 3, 4).groupBy { $0 % 2 }
///   .subscribe(onNext: { group in
///     _ = group.subscribe(onNext: { print("\(group.key): \($0)") })
///   })
/// // Prints "1: 1", "0: 2", "1: 3", "0: 4"
/// ```
public struct GroupedObservable<Key, Element>: ObservableType {
  /// The key shared by the group's elements.
  public let key: Key

  private let source: Observable<Element>

  /// A group with `key` whose elements are `source`'s.
  ///
  /// - Parameters:
  ///   - key: The group's key.
  ///   - source: The group's elements.
  public init(key: Key, source: Observable<Element>) {
    self.key = key
    self.source = source
  }

  /// Subscribes `observer` to the group's elements.
  ///
  /// - Returns: A disposable that ends the subscription.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    source.subscribe(observer)
  }

  /// The group's elements as an ``Observable``.
  public func asObservable() -> Observable<Element> { source }
}

extension ObservableType {
  /// Splits the elements into groups by key: emits a ``GroupedObservable`` the first time a key
  /// is seen, then sends each element to its key's group, as RxSwift's `groupBy(keySelector:)`.
  ///
  /// ```swift
  /// // source:          -1-2-3-4-|
  /// // groupBy(% 2):    -a-b-----|   a (key 1): -1---3---|   b (key 0): ---2---4-|
  /// _ = Observable.of("apple", "avocado", "banana").groupBy { $0.first! }
  ///   .flatMap { group in group.toArray().asObservable() }
  ///   .subscribe(onNext: { print($0) })
  /// // Prints "["apple", "avocado"]", "["banana"]"
  /// ```
  ///
  /// A group is a hot sequence (a ``PublishSubject`` per key): it delivers the elements that
  /// arrive while it is subscribed. A group is emitted before its first element, so a subscriber
  /// that subscribes while receiving the group gets that element too.
  ///
  /// Completes and fails when the source does: every group receives the terminal event first
  /// (in the order the groups were created; RxSwift's order is a dictionary's), then the outer
  /// sequence. A throw from `keySelector` fails the groups and the outer sequence.
  /// Disposing the outer subscription stops the emission of new groups, but the source stays
  /// subscribed while any group has a subscriber (elements of new keys then go to groups nobody
  /// receives); the source subscription is disposed once the outer subscription and every group
  /// subscription are gone.
  ///
  /// - Parameters:
  ///   - keySelector: Returns the key of an element.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func groupBy<Key: Hashable>(
    keySelector: @escaping (Element) throws -> Key,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<GroupedObservable<Key, Element>> {
    let caller = CallerIsolation(isolation, api: "groupBy", file: file, line: line)
    let keySelector = isolation == nil ? keySelector : caller.checked(keySelector)
    let source = asObservable()
    return Observable(kind: "groupBy", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let output = GuardedSink(observer)
      let subscription = SingleAssignmentDisposable()
      let refCount = RefCountDisposable(disposable: subscription)
      let sink = GroupBySink(
        output: output, refCount: refCount, subscription: subscription,
        keySelector: keySelector, sourceID: source.traceID, file: file, line: line)
      output.setUpstream(refCount)
      subscription.setDisposable(source.subscribeNested(AnyObserver(eventHandler: sink.on)))
      return output
    }
  }
}
