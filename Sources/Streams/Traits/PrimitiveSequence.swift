/// An observable that is known to emit at most one element: the shape shared by ``Single``,
/// ``Maybe`` and ``Completable``, as in RxSwift.
///
/// ```swift
/// let answer: Single<Int> = .just(42)
/// _ = answer.subscribe(onSuccess: { print($0) })
/// // Prints "42"
/// ```
///
/// `Trait` is a marker type (``SingleTrait``, ``MaybeTrait``, ``CompletableTrait``) that selects
/// which operators and subscribe forms are available. Underneath is an ``Observable`` that
/// follows the trait's grammar: a `Single` emits `.next` then `.completed`, or `.error`; a `Maybe`
/// may also complete empty; a `Completable` only terminates. Streams only builds such observables
/// through the trait's own operators, so the grammar holds by construction; converting an
/// arbitrary observable goes through ``ObservableType/asSingle(file:line:)`` and its siblings,
/// which check the element count.
///
/// Like `Observable`, a primitive sequence is a recipe: each subscription runs it again.
public struct PrimitiveSequence<Trait, Element> {
  let source: Observable<Element>

  init(raw: Observable<Element>) {
    source = raw
  }
}

/// A type that is, or can be viewed as, a ``PrimitiveSequence``: the protocol the trait operators
/// extend, as in RxSwift.
public protocol PrimitiveSequenceType {
  /// The trait marker: ``SingleTrait``, ``MaybeTrait`` or ``CompletableTrait``.
  associatedtype Trait
  /// The type of the element.
  associatedtype Element

  /// `self` as a ``PrimitiveSequence``.
  var primitiveSequence: PrimitiveSequence<Trait, Element> { get }
}

extension PrimitiveSequence: PrimitiveSequenceType {
  /// Returns `self`.
  public var primitiveSequence: PrimitiveSequence<Trait, Element> { self }
}

extension PrimitiveSequence: ObservableConvertibleType {
  /// The underlying observable: `.next` then `.completed` for a success, `.completed` alone for
  /// an empty `Maybe` or a `Completable`, `.error` for a failure.
  ///
  /// ```swift
  /// _ = Single.just(1).asObservable().subscribe { print($0) }
  /// // Prints "next(1)", "completed"
  /// ```
  public func asObservable() -> Observable<Element> { source }
}

extension PrimitiveSequence {
  /// Calls `observableFactory` for every subscription and subscribes to the sequence it returns.
  ///
  /// ```swift
  /// let now = Single<Int>.deferred { .just(counter.next()) }
  /// ```
  ///
  /// Completes and fails as the returned sequence does; a throw from `observableFactory` fails the
  /// subscription. Disposal disposes the returned sequence's subscription.
  public static func deferred(
    file: StaticString = #fileID, line: UInt = #line,
    _ observableFactory: @escaping () throws -> PrimitiveSequence<Trait, Element>
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(
      raw: Observable.deferred(file: file, line: line) { try observableFactory().source })
  }

  /// Continues a failed sequence with the sequence `handler` returns for the error.
  ///
  /// ```swift
  /// let name = fetchName().catch { _ in .just("anonymous") }
  /// // fetchName: --#      result: --(anonymous|)
  /// ```
  ///
  /// Completes as the source or the handler's sequence does; fails if `handler` throws or its
  /// sequence fails. The source's subscription is disposed right after the handler's sequence is
  /// subscribed; disposal disposes whichever is running.
  public func `catch`(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ handler: @escaping (any Error) throws -> PrimitiveSequence<Trait, Element>
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(
      raw: source.catch({ try handler($0).source }, isolation: isolation, file: file, line: line))
  }

  /// RxSwift 5's name for ``catch(isolation:file:line:_:)``.
  @available(*, deprecated, renamed: "catch(_:)")
  public func catchError(
    _ handler: @escaping (any Error) throws -> PrimitiveSequence<Trait, Element>,
    isolation: (any Actor)? = #isolation
  ) -> PrimitiveSequence<Trait, Element> {
    self.catch(isolation: isolation, handler)
  }

  /// Subscribes again after a failure, up to `maxAttemptCount` subscriptions in all.
  ///
  /// ```swift
  /// let data = download().retry(3)
  /// // attempts: -#  -#  -(data|)     result: ---------(data|)
  /// ```
  ///
  /// Succeeds with the first attempt that does not fail; fails with the last attempt's error once
  /// `maxAttemptCount` attempts have failed. Each failed attempt's subscription is disposed before
  /// the next one starts; disposal disposes the running attempt. A negative count is a
  /// programming error; `0` attempts subscribe to nothing and complete, as in RxSwift.
  public func retry(
    _ maxAttemptCount: Int, file: StaticString = #fileID, line: UInt = #line
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(
      raw: source.retry(maxAttemptCount, file: file, line: line))
  }

  /// Subscribes again after a failure each time the trigger built from the errors emits.
  ///
  /// ```swift
  /// let data = download().retry(when: { (errors: Observable<NetworkError>) in
  ///   errors.flatMap { _ in reachability.becameReachable.take(1) }
  /// })
  /// ```
  ///
  /// `notificationHandler` runs once per subscription and receives the errors of type
  /// `ErrorType`; its result is subscribed before the source. After a failure, an element of the
  /// trigger resubscribes to the source; the trigger's `.completed` completes the result and its
  /// `.error` fails it. As in RxSwift the trigger is only listened to after a failure: what it
  /// emits while an attempt runs is ignored, and its termination takes effect at the next failure.
  /// An error that is not an `ErrorType` fails the result at once. Disposal disposes the running
  /// attempt and the trigger.
  ///
  /// A `Single` whose trigger completes completes without an element; `subscribe(_:)`
  /// reports that as `RxError.noElements`.
  public func retry<TriggerObservable: ObservableType, ErrorType: Error>(
    file: StaticString = #fileID, line: UInt = #line,
    when notificationHandler: @escaping (Observable<ErrorType>) -> TriggerObservable
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(
      raw: source.retry(when: notificationHandler, file: file, line: line))
  }

  /// ``retry(file:line:when:)`` receiving every error as `any Error`.
  public func retry<TriggerObservable: ObservableType>(
    file: StaticString = #fileID, line: UInt = #line,
    when notificationHandler: @escaping (Observable<any Error>) -> TriggerObservable
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(
      raw: source.retry(when: notificationHandler, file: file, line: line))
  }

  /// RxSwift 5's name for
  /// ``retry(file:line:when:)-(_,_,(Observable<ErrorType>)->TriggerObservable)``.
  @available(*, deprecated, renamed: "retry(when:)")
  public func retryWhen<TriggerObservable: ObservableType, ErrorType: Error>(
    _ notificationHandler: @escaping (Observable<ErrorType>) -> TriggerObservable
  ) -> PrimitiveSequence<Trait, Element> {
    retry(when: notificationHandler)
  }

  /// RxSwift 5's name for ``retry(file:line:when:)-(_,_,(Observable<Error>)->TriggerObservable)``,
  /// for every error.
  @available(*, deprecated, renamed: "retry(when:)")
  public func retryWhen<TriggerObservable: ObservableType>(
    _ notificationHandler: @escaping (Observable<any Error>) -> TriggerObservable
  ) -> PrimitiveSequence<Trait, Element> {
    retry(when: notificationHandler)
  }
}
