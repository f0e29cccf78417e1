// Stand-in for RxSwift's `PrimitiveSequence`, `Single`, `SingleEvent` and `asSingle()`.

import Foundation

/// A sequence with a trait: `Single` when `Trait` is `SingleTrait`.
public struct PrimitiveSequence<Trait, Element> {
  let source: Observable<Element>

  init(raw: Observable<Element>) {
    self.source = raw
  }
}

/// The trait of a sequence of exactly one element or a failure.
public enum SingleTrait {}

/// One element or a failure.
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>

/// What a `Single` ends with.
public typealias SingleEvent<Element> = Result<Element, Swift.Error>

/// A type that is a `PrimitiveSequence`.
public protocol PrimitiveSequenceType {
  /// The trait.
  associatedtype Trait
  /// The element type.
  associatedtype Element
  /// The sequence.
  var primitiveSequence: PrimitiveSequence<Trait, Element> { get }
}

extension PrimitiveSequence: PrimitiveSequenceType {
  /// The sequence itself.
  public var primitiveSequence: PrimitiveSequence<Trait, Element> { self }
}

extension PrimitiveSequence: ObservableConvertibleType {
  /// The sequence as an `Observable`.
  public func asObservable() -> Observable<Element> { source }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
  /// The closure a `Single.create` body calls once.
  public typealias SingleObserver = (SingleEvent<Element>) -> Void

  /// A `Single` whose subscriptions run `subscribe`.
  public static func create(subscribe: @escaping (@escaping SingleObserver) -> Disposable)
    -> Single<Element>
  {
    let source = Observable<Element>.create { observer in
      subscribe { event in
        switch event {
        case .success(let element):
          observer.on(.next(element))
          observer.on(.completed)
        case .failure(let error):
          observer.on(.error(error))
        }
      }
    }
    return PrimitiveSequence(raw: source)
  }

  /// Subscribes a closure to the success or the failure.
  public func subscribe(_ observer: @escaping (SingleEvent<Element>) -> Void) -> Disposable {
    var stopped = false
    return primitiveSequence.asObservable().subscribe { event in
      if stopped { return }
      switch event {
      case .next(let element):
        stopped = true
        observer(.success(element))
      case .error(let error):
        stopped = true
        observer(.failure(error))
      case .completed:
        stopped = true
        observer(.failure(RxError.noElements))
      }
    }
  }

  /// Subscribes closures to the success, the failure and the disposal.
  public func subscribe(
    onSuccess: ((Element) -> Void)? = nil,
    onFailure: ((Swift.Error) -> Void)? = nil,
    onDisposed: (() -> Void)? = nil
  ) -> Disposable {
    let disposed = onDisposed.map(Disposables.create(with:)) ?? Disposables.create()
    let subscription = subscribe { (event: SingleEvent<Element>) in
      switch event {
      case .success(let element): onSuccess?(element)
      case .failure(let error): onFailure?(error)
      }
      disposed.dispose()
    }
    return Disposables.create(subscription, disposed)
  }
}

extension ObservableType {
  /// The sequence as a `Single`: fails with `RxError.noElements` when it completes empty and with
  /// `RxError.moreThanOneElement` on a second element.
  public func asSingle() -> Single<Element> {
    let source = asObservable()
    let single = Observable<Element>.create { observer in
      let state = SingleState<Element>()
      return source.subscribe { event in
        switch event {
        case .next(let element):
          if state.element != nil {
            observer.on(.error(RxError.moreThanOneElement))
          } else {
            state.element = element
          }
        case .error(let error):
          observer.on(.error(error))
        case .completed:
          if let element = state.element {
            observer.on(.next(element))
            observer.on(.completed)
          } else {
            observer.on(.error(RxError.noElements))
          }
        }
      }
    }
    return PrimitiveSequence(raw: single)
  }
}

/// The element `asSingle()` keeps until completion; one subscription's events are serial.
final class SingleState<Element> {
  var element: Element?
}
