// Stand-in for RxSwift's `ObservableConvertibleType`, `ObservableType`, `Observable`,
// `Observable.create` and the closure `subscribe`s.

import Foundation

/// A type that can be seen as an `Observable`.
public protocol ObservableConvertibleType {
  /// The element type.
  associatedtype Element
  /// The sequence as an `Observable`.
  func asObservable() -> Observable<Element>
}

/// A push-style sequence.
public protocol ObservableType: ObservableConvertibleType {
  /// Subscribes `observer` to the sequence's events.
  func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element
}

extension ObservableType {
  /// The sequence as an `Observable`.
  public func asObservable() -> Observable<Element> {
    Observable { observer in self.subscribe(observer) }
  }
}

/// A sequence of events. In the stand-in, the sequence made by `create` or by a subject.
public class Observable<Element>: ObservableType {
  private let subscribeHandler: (AnyObserver<Element>) -> Disposable

  init(_ subscribeHandler: @escaping (AnyObserver<Element>) -> Disposable) {
    self.subscribeHandler = subscribeHandler
  }

  /// Subscribes `observer` to the sequence's events.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element {
    subscribeHandler(AnyObserver(observer))
  }

  /// The sequence itself.
  public func asObservable() -> Observable<Element> { self }
}

extension ObservableType {
  /// A sequence whose subscriptions run `subscribe`: RxSwift's `create`. The observer ignores
  /// everything after a terminal event, and a terminal event disposes what `subscribe` returned.
  public static func create(_ subscribe: @escaping @Sendable (AnyObserver<Element>) -> Disposable)
    -> Observable<Element>
  {
    Observable { observer in
      let sink = CreateSink(observer)
      sink.setUpstream(subscribe(AnyObserver(eventHandler: sink.on)))
      return sink
    }
  }

  /// Subscribes a closure to every event.
  public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
    subscribe(AnyObserver(eventHandler: on))
  }

  /// Subscribes closures to the elements, the failure, the completion and the disposal.
  public func subscribe(
    onNext: ((Element) -> Void)? = nil,
    onError: ((Swift.Error) -> Void)? = nil,
    onCompleted: (() -> Void)? = nil,
    onDisposed: (() -> Void)? = nil
  ) -> Disposable {
    let disposed = onDisposed.map(Disposables.create(with:)) ?? Disposables.create()
    let subscription = subscribe { event in
      switch event {
      case .next(let element):
        onNext?(element)
      case .error(let error):
        onError?(error)
        disposed.dispose()
      case .completed:
        onCompleted?()
        disposed.dispose()
      }
    }
    return Disposables.create(subscription, disposed)
  }
}

/// The observer of `create`: stops after a terminal event, then disposes the upstream.
/// `@unchecked Sendable`: its state is guarded by `lock`.
final class CreateSink<Element>: Disposable, @unchecked Sendable {
  private let lock = NSRecursiveLock()
  private var observer: AnyObserver<Element>?
  private var upstream: Disposable?
  private var isDisposed = false

  init(_ observer: AnyObserver<Element>) {
    self.observer = observer
  }

  func on(_ event: Event<Element>) {
    lock.lock()
    let observer = self.observer
    if event.isStopEvent { self.observer = nil }
    lock.unlock()
    guard let observer = observer else { return }
    observer.on(event)
    if event.isStopEvent { dispose() }
  }

  func setUpstream(_ disposable: Disposable) {
    lock.lock()
    let disposeNow = isDisposed
    if !disposeNow { upstream = disposable }
    lock.unlock()
    if disposeNow { disposable.dispose() }
  }

  func dispose() {
    lock.lock()
    isDisposed = true
    observer = nil
    let upstream = self.upstream
    self.upstream = nil
    lock.unlock()
    upstream?.dispose()
  }
}
