// Stand-in for RxSwift's `ObserverType` and `AnyObserver`.

/// Receives a sequence's events.
public protocol ObserverType {
  /// The element type.
  associatedtype Element
  /// Receives `event`.
  func on(_ event: Event<Element>)
}

extension ObserverType {
  /// Sends `.next(element)`.
  public func onNext(_ element: Element) { on(.next(element)) }
  /// Sends `.completed`.
  public func onCompleted() { on(.completed) }
  /// Sends `.error(error)`.
  public func onError(_ error: Swift.Error) { on(.error(error)) }
}

/// A type-erased observer.
public struct AnyObserver<Element>: ObserverType {
  /// The closure that receives the events.
  public typealias EventHandler = (Event<Element>) -> Void

  private let observer: EventHandler

  /// An observer that calls `eventHandler`.
  public init(eventHandler: @escaping EventHandler) {
    self.observer = eventHandler
  }

  /// An observer that forwards to `observer`.
  public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
    self.observer = observer.on
  }

  /// Sends `event`.
  public func on(_ event: Event<Element>) {
    observer(event)
  }
}
