// Converting between RxSwift and Streams at a module boundary: the recipe of Guides/Migration.md
// ("Side by side with RxSwift"). Both libraries use the same type names, so this file, the one
// place that imports both, spells every type with its module.

import RxRelay
import RxSwift
import Streams

// MARK: Observable

extension RxSwift.ObservableConvertibleType {
  /// This RxSwift sequence as a Streams observable. Each Streams subscription makes one RxSwift
  /// subscription; elements, the error and the completion pass through as they come, on the
  /// thread RxSwift sends them on; disposing the Streams subscription disposes the RxSwift one,
  /// and a terminal event ends both.
  public func asStreamsObservable() -> Streams.Observable<Element> {
    let source = asObservable()
    return Streams.Observable.create { observer in
      source.subscribe { event in
        switch event {
        case .next(let element): observer.onNext(element)
        case .error(let error): observer.onError(error)
        case .completed: observer.onCompleted()
        }
      }
      .asStreamsDisposable()
    }
  }
}

extension Streams.ObservableConvertibleType {
  /// This Streams observable as an RxSwift sequence; see `asStreamsObservable()`, the other way.
  public func asRxSwiftObservable() -> RxSwift.Observable<Element> {
    StreamsSource(source: asObservable()).asObservable()
  }
}

/// A Streams observable seen as an RxSwift sequence. RxSwift's `create` takes a `@Sendable`
/// closure, which cannot capture a Streams `Observable` (not `Sendable`: it holds your operators'
/// closures), so the sequence is an `ObservableType` of its own whose `subscribe` subscribes to
/// the Streams observable on the subscribing thread, as subscribing to it directly would.
struct StreamsSource<Element>: RxSwift.ObservableType {
  let source: Streams.Observable<Element>

  func subscribe<Observer: RxSwift.ObserverType>(_ observer: Observer) -> any RxSwift.Disposable
  where Observer.Element == Element {
    source.subscribe { event in
      switch event {
      case .next(let element): observer.onNext(element)
      case .error(let error): observer.onError(error)
      case .completed: observer.onCompleted()
      }
    }
    .asRxSwiftDisposable()
  }
}

// MARK: Single

extension RxSwift.PrimitiveSequenceType where Trait == RxSwift.SingleTrait {
  /// This RxSwift `Single` as a Streams `Single`: the success or the failure passes through;
  /// disposal passes back.
  public func asStreamsSingle() -> Streams.Single<Element> {
    primitiveSequence.asObservable().asStreamsObservable().asSingle()
  }
}

extension Streams.PrimitiveSequenceType where Trait == Streams.SingleTrait {
  /// This Streams `Single` as an RxSwift `Single`.
  public func asRxSwiftSingle() -> RxSwift.Single<Element> {
    primitiveSequence.asObservable().asRxSwiftObservable().asSingle()
  }
}

// MARK: Disposable

extension RxSwift.Disposable {
  /// This RxSwift disposable as a Streams one, to put in a Streams `DisposeBag`.
  public func asStreamsDisposable() -> any Streams.Disposable {
    Streams.Disposables.create(with: { self.dispose() })
  }
}

extension Streams.Disposable {
  /// This Streams disposable as an RxSwift one, to put in an RxSwift `DisposeBag`.
  public func asRxSwiftDisposable() -> any RxSwift.Disposable {
    RxSwift.Disposables.create(with: { self.dispose() })
  }
}

// MARK: Relays

extension Streams.ObservableType {
  /// Sends every element into an RxSwift relay, as RxRelay's `bind(to:)` does.
  public func bind(to relay: RxRelay.PublishRelay<Element>) -> any Streams.Disposable {
    subscribe(onNext: { relay.accept($0) })
  }

  /// Sends every element into an RxSwift relay, as RxRelay's `bind(to:)` does.
  public func bind(to relay: RxRelay.BehaviorRelay<Element>) -> any Streams.Disposable {
    subscribe(onNext: { relay.accept($0) })
  }
}

extension RxSwift.ObservableType {
  /// Sends every element into a Streams relay.
  public func bind(to relay: Streams.PublishRelay<Element>) -> any RxSwift.Disposable {
    subscribe(onNext: { relay.accept($0) })
  }

  /// Sends every element into a Streams relay.
  public func bind(to relay: Streams.BehaviorRelay<Element>) -> any RxSwift.Disposable {
    subscribe(onNext: { relay.accept($0) })
  }
}
