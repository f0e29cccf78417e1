/// A type that receives sequence events.
///
/// Streams calls an observer serially (never two events at once for one subscription) and follows
/// the grammar `next* (error | completed)?`. The thread of a call is the thread the source emits on
/// unless an operator such as ``ObservableType/observe(on:file:line:)`` moves it.
public protocol ObserverType {
  /// The type of element the observer receives.
  associatedtype Element

  /// Receives one event.
  func on(_ event: Event<Element>)
}

extension ObserverType {
  /// Sends `.next(element)`.
  @inlinable
  public func onNext(_ element: Element) { on(.next(element)) }

  /// Sends `.completed`.
  @inlinable
  public func onCompleted() { on(.completed) }

  /// Sends `.error(error)`.
  @inlinable
  public func onError(_ error: any Error) { on(.error(error)) }
}

/// A type-erased observer.
///
/// ```swift
/// let observer = AnyObserver<Int> { event in print(event) }
/// observer.onNext(1)
/// // Prints "next(1)"
/// ```
///
/// **The one unchecked place.** `AnyObserver` is `@unchecked Sendable`: an observer is the Rx
/// contract's entry point and is handed to any thread (the observer of `Observable.create` is
/// captured by a network callback; a scheduler calls it). The observers Streams makes guard their
/// own state, so that is sound for every `AnyObserver` Streams hands you. What the compiler cannot
/// check is an observer made from your own closure with ``init(eventHandler:)``, which takes a
/// closure that need not be `Sendable` so that RxSwift code compiles unchanged: calling such an
/// observer from two threads at once is a data race the compiler does not see. When your observer
/// will be called from other threads, make it with ``sendable(_:)``, whose closure the compiler
/// checks.
///
/// ```swift
/// let relay = PublishRelay<Int>()  // Sendable: it guards its own state
/// let observer = AnyObserver<Int>.sendable { event in
///   if case .next(let value) = event { relay.accept(value) }
/// }
/// DispatchQueue.global().async { observer.onNext(1) }
/// ```
///
/// The closures an app passes to `subscribe` run on whichever thread delivers the event, exactly as
/// in RxSwift. Use ``ObservableType/observe(on:file:line:)`` or a `Driver` to pin them to the main
/// actor.
public struct AnyObserver<Element>: ObserverType, @unchecked Sendable {
  /// The closure that receives events.
  public typealias EventHandler = (Event<Element>) -> Void

  @usableFromInline let handler: EventHandler

  /// Creates an observer that forwards every event to `eventHandler`.
  ///
  /// `eventHandler` need not be `Sendable` (as in RxSwift), so the compiler does not check that
  /// calls from several threads are safe: see the type's documentation, and prefer
  /// ``sendable(_:)`` for an observer other threads call.
  @inlinable
  public init(eventHandler: @escaping EventHandler) {
    handler = eventHandler
  }

  /// An observer that forwards every event to `eventHandler`, which the compiler checks is
  /// `Sendable`: safe to call from any thread, and the checked alternative to
  /// ``init(eventHandler:)``. (A static function rather than an initializer, so that
  /// `AnyObserver { ... }` keeps meaning ``init(eventHandler:)``.)
  @inlinable
  public static func sendable(_ eventHandler: @escaping @Sendable (Event<Element>) -> Void)
    -> AnyObserver<Element>
  {
    AnyObserver(eventHandler: eventHandler)
  }

  /// Wraps `observer`.
  @inlinable
  public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
    if let any = observer as? AnyObserver<Element> {
      self = any
    } else {
      handler = observer.on
    }
  }

  /// Forwards `event` to the wrapped handler.
  @inlinable
  public func on(_ event: Event<Element>) {
    handler(event)
  }

  /// Returns `self`.
  @inlinable
  public func asObserver() -> AnyObserver<Element> { self }
}

extension ObserverType {
  /// Erases the observer's type.
  @inlinable
  public func asObserver() -> AnyObserver<Element> { AnyObserver(self) }

  /// An observer of `Result` that transforms each element with `transform` before forwarding it
  /// here.
  public func mapObserver<Result>(_ transform: @escaping (Result) throws -> Element)
    -> AnyObserver<Result>
  {
    AnyObserver { event in self.on(event.map(transform)) }
  }
}
