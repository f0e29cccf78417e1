/// A wrapper around ``PublishSubject`` that only emits elements: it never fails or completes.
///
/// ```swift
/// let taps = PublishRelay<Void>()
/// _ = taps.subscribe(onNext: { print("tap") })
/// taps.accept(())
/// // Prints "tap"
/// ```
public final class PublishRelay<Element>: ObservableType {
  @usableFromInline let subject: PublishSubject<Element>

  /// A relay with no observers.
  public init(
    file: StaticString = #fileID, line: UInt = #line, filePath: StaticString = #filePath
  ) {
    subject = PublishSubject(file: file, line: line, filePath: filePath)
  }

  /// Sends `event` to every subscribed observer.
  @inlinable
  public func accept(_ event: Element) { subject.onNext(event) }

  /// Subscribes `observer`.
  @inlinable
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    subject.subscribe(observer)
  }

  /// The relay as an observable.
  @inlinable
  public func asObservable() -> Observable<Element> { subject }
}

/// A wrapper around ``BehaviorSubject`` that only emits elements: it never fails or completes.
///
/// ```swift
/// let count = BehaviorRelay(value: 0)
/// count.update { $0 += 1 }  // atomic, unlike `count.accept(count.value + 1)`
/// print(count.value)
/// // Prints "1"
/// ```
public final class BehaviorRelay<Element>: ObservableType {
  @usableFromInline let subject: BehaviorSubject<Element>

  /// A relay whose current value is `value`.
  public init(
    value: Element, file: StaticString = #fileID, line: UInt = #line,
    filePath: StaticString = #filePath
  ) {
    subject = BehaviorSubject(value: value, file: file, line: line, filePath: filePath)
  }

  /// The current value.
  public var value: Element {
    // A relay never fails and is never disposed, so `value()` cannot throw here.
    do { return try subject.value() } catch {
      streamsStop("BehaviorRelay could not read its value: \(error)")
    }
  }

  /// Makes `event` the current value and sends it to every subscribed observer.
  @inlinable
  public func accept(_ event: Element) { subject.onNext(event) }

  /// Atomically applies `transform` to the current value, stores the result and emits it.
  ///
  /// Two threads calling `update { $0 += 1 }` at once always add 2, where the RxSwift idiom
  /// `relay.accept(relay.value + 1)` can lose an increment. `transform` runs with no lock held, on a
  /// copy of the current value; if another `accept` or `update` lands meanwhile, it runs again on
  /// the newer value, so it should have no side effects. If it throws, nothing changes.
  ///
  /// - Returns: The new value.
  @discardableResult
  @inlinable
  public func update<Failure: Error>(_ transform: (inout Element) throws(Failure) -> Void)
    throws(Failure) -> Element
  {
    try subject.core.update(transform)
  }

  /// Subscribes `observer`; it receives the current value first.
  @inlinable
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    subject.subscribe(observer)
  }

  /// The relay as an observable.
  @inlinable
  public func asObservable() -> Observable<Element> { subject }
}

/// A wrapper around ``ReplaySubject`` that only emits elements: it never fails or completes.
///
/// ```swift
/// let log = ReplayRelay<String>.create(bufferSize: 1)
/// log.accept("a"); log.accept("b")
/// _ = log.subscribe(onNext: { print($0) })
/// // Prints "b"
/// ```
public final class ReplayRelay<Element>: ObservableType {
  @usableFromInline let subject: ReplaySubject<Element>

  private init(subject: ReplaySubject<Element>) {
    self.subject = subject
  }

  /// A relay replaying up to `bufferSize` elements. A negative size is a programming error.
  public static func create(
    bufferSize: Int, file: StaticString = #fileID, line: UInt = #line,
    filePath: StaticString = #filePath
  ) -> ReplayRelay<Element> {
    ReplayRelay(
      subject: .create(bufferSize: bufferSize, file: file, line: line, filePath: filePath))
  }

  /// A relay replaying every element.
  public static func createUnbound(
    file: StaticString = #fileID, line: UInt = #line, filePath: StaticString = #filePath
  ) -> ReplayRelay<Element> {
    ReplayRelay(subject: .createUnbounded(file: file, line: line, filePath: filePath))
  }

  /// Sends `event` to every subscribed observer and buffers it.
  @inlinable
  public func accept(_ event: Element) { subject.onNext(event) }

  /// Subscribes `observer`; it receives the buffer first.
  @inlinable
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    subject.subscribe(observer)
  }

  /// The relay as an observable.
  @inlinable
  public func asObservable() -> Observable<Element> { subject }
}

extension PublishRelay: Sendable where Element: Sendable {}
extension BehaviorRelay: Sendable where Element: Sendable {}
extension ReplayRelay: Sendable where Element: Sendable {}

extension ObservableType {
  /// Forwards every element to `relays`. An error reaching a relay is a programming error and
  /// stops the program with a message saying so; completion is ignored, as a relay never ends.
  public func bind(
    to relays: PublishRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    bindRelays(file: file, line: line) { element in for relay in relays { relay.accept(element) } }
  }

  /// Forwards every element to `relays`, as `bind(to:)` does for a `PublishRelay`.
  public func bind(
    to relays: BehaviorRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    bindRelays(file: file, line: line) { element in for relay in relays { relay.accept(element) } }
  }

  /// Forwards every element to `relays`, as `bind(to:)` does for a `PublishRelay`.
  public func bind(
    to relays: ReplayRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    bindRelays(file: file, line: line) { element in for relay in relays { relay.accept(element) } }
  }

  /// Forwards every element, as an optional, to `relays`.
  public func bind(
    to relays: PublishRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    bindRelays(file: file, line: line) { element in for relay in relays { relay.accept(element) } }
  }

  /// Forwards every element, as an optional, to `relays`.
  public func bind(
    to relays: BehaviorRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    bindRelays(file: file, line: line) { element in for relay in relays { relay.accept(element) } }
  }

  /// Forwards every element, as an optional, to `relays`.
  public func bind(
    to relays: ReplayRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    bindRelays(file: file, line: line) { element in for relay in relays { relay.accept(element) } }
  }

  private func bindRelays(
    file: StaticString, line: UInt, _ accept: @escaping (Element) -> Void
  ) -> any Disposable {
    subscribeEvents(kind: "bind(to:)", file: file, line: line) { event in
      switch event {
      case .next(let element): accept(element)
      case .error(let error):
        streamsStop(
          "Streams: binding error to a relay: \(error). A relay never fails; handle the error "
            + "before bind(to:) (catchAndReturn, catch).")
      case .completed: break
      }
    }
  }
}
