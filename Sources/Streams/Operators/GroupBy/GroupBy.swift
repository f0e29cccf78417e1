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

/// The source's observer for one `groupBy` subscription: the table of groups.
///
/// No lock: the table and the flag are only touched by `on`, which the source calls serially
/// (the event grammar). Group subscriptions made from other threads touch only the group's
/// subject and the reference count, which guard their own state.
private final class GroupBySink<Key: Hashable, Element> {
  private let output: GuardedSink<GroupedObservable<Key, Element>>
  private let refCount: RefCountDisposable
  private let subscription: SingleAssignmentDisposable
  private let keySelector: (Element) throws -> Key
  private let sourceID: UInt64
  private let file: StaticString
  private let line: UInt
  private var groups: [Key: PublishSubject<Element>] = [:]
  /// The groups in the order they were created, which is the order they receive the terminal
  /// event in.
  private var ordered: [PublishSubject<Element>] = []
  private var stopped = false

  init(
    output: GuardedSink<GroupedObservable<Key, Element>>, refCount: RefCountDisposable,
    subscription: SingleAssignmentDisposable, keySelector: @escaping (Element) throws -> Key,
    sourceID: UInt64, file: StaticString, line: UInt
  ) {
    self.output = output
    self.refCount = refCount
    self.subscription = subscription
    self.keySelector = keySelector
    self.sourceID = sourceID
    self.file = file
    self.line = line
  }

  func on(_ event: Event<Element>) {
    guard !stopped else { return }
    switch event {
    case .next(let element):
      let key: Key
      do {
        key = try keySelector(element)
      } catch {
        terminate(.error(error))
        return
      }
      if let subject = groups[key] {
        subject.on(.next(element))
        return
      }
      let subject = PublishSubject<Element>()
      groups[key] = subject
      ordered.append(subject)
      output.on(.next(GroupedObservable(key: key, source: group(subject))))
      subject.on(.next(element))
    case .error(let error):
      terminate(.error(error))
    case .completed:
      terminate(.completed)
    }
  }

  /// A group's sequence: each subscription keeps the source subscribed until it is disposed.
  private func group(_ subject: PublishSubject<Element>) -> Observable<Element> {
    let refCount = self.refCount
    let elements = subject.asObservable()
    return Observable(kind: "groupBy.group", upstreams: [sourceID], file: file, line: line) {
      observer in
      let handle = refCount.retain()
      return Disposables.create(handle, elements.subscribeNested(observer))
    }
  }

  /// Sends the terminal event to every group, then downstream, and disposes the source.
  private func terminate(_ event: Event<Element>) {
    stopped = true
    let subjects = ordered
    groups = [:]
    ordered = []
    let outer: Event<GroupedObservable<Key, Element>>
    switch event {
    case .error(let error): outer = .error(error)
    case .next, .completed: outer = .completed
    }
    for subject in subjects { subject.on(event) }
    output.on(outer)
    subscription.dispose()
  }
}
