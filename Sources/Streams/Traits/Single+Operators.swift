extension PrimitiveSequenceType where Trait == SingleTrait {
  /// Transforms the element with `transform`.
  ///
  /// ```swift
  /// _ = Single.just(2).map { $0 * 10 }.subscribe(onSuccess: { print($0) })
  /// // Prints "20"
  /// ```
  ///
  /// Succeeds and fails as the source does; a throw from `transform` fails the result. Disposal
  /// disposes the source.
  public func map<Result>(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ transform: @escaping (Element) throws -> Result
  ) -> Single<Result> {
    Single(
      raw: primitiveSequence.source.map(transform, isolation: isolation, file: file, line: line))
  }

  /// Transforms the element, completing empty when `transform` returns `nil`.
  ///
  /// ```swift
  /// _ = Single.just("7").compactMap { Int($0) }.subscribe(onSuccess: { print($0) })
  /// // Prints "7"
  /// ```
  ///
  /// The result is a ``Maybe``: it succeeds with a non-`nil` result, completes for `nil`, fails
  /// as the source does or when `transform` throws. Disposal disposes the source.
  public func compactMap<Result>(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ transform: @escaping (Element) throws -> Result?
  ) -> Maybe<Result> {
    Maybe(
      raw: primitiveSequence.source.compactMap(
        transform, isolation: isolation, file: file, line: line))
  }

  /// Keeps the element only if it satisfies `predicate`.
  ///
  /// ```swift
  /// _ = Single.just(3).filter { $0 > 5 }.subscribe(onCompleted: { print("empty") })
  /// // Prints "empty"
  /// ```
  ///
  /// The result is a ``Maybe``: it succeeds when `predicate` holds, completes empty otherwise,
  /// fails as the source does or when `predicate` throws. Disposal disposes the source.
  public func filter(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ predicate: @escaping (Element) throws -> Bool
  ) -> Maybe<Element> {
    Maybe(
      raw: primitiveSequence.source.filter(predicate, isolation: isolation, file: file, line: line))
  }

  /// Continues with the `Single` that `selector` returns for the element.
  ///
  /// ```swift
  /// let profile = session.flatMap { token in api.profile(token: token) }
  /// // session: -(t|)   profile(t): --(p|)   result: ---(p|)
  /// ```
  ///
  /// Succeeds when the inner `Single` does; fails when the source or the inner `Single` fails or
  /// `selector` throws. The source's subscription is disposed when it completes; disposal
  /// disposes whichever is running.
  public func flatMap<Result>(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ selector: @escaping (Element) throws -> Single<Result>
  ) -> Single<Result> {
    Single(
      raw: primitiveSequence.source.flatMap(
        { try selector($0).source }, isolation: isolation, file: file, line: line))
  }

  /// Continues with the ``Maybe`` that `selector` returns for the element.
  ///
  /// ```swift
  /// let cached = userID.flatMapMaybe { id in cache.user(id: id) }
  /// ```
  ///
  /// Succeeds or completes empty as the inner `Maybe` does; fails as
  /// ``flatMap(isolation:file:line:_:)->Single<Result>``.
  public func flatMapMaybe<Result>(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ selector: @escaping (Element) throws -> Maybe<Result>
  ) -> Maybe<Result> {
    Maybe(
      raw: primitiveSequence.source.flatMap(
        { try selector($0).source }, isolation: isolation, file: file, line: line))
  }

  /// Continues with the ``Completable`` that `selector` returns for the element.
  ///
  /// ```swift
  /// let saved = draft.flatMapCompletable { store.save($0) }
  /// ```
  ///
  /// Completes when the inner `Completable` does; fails as
  /// ``flatMap(isolation:file:line:_:)->Single<Result>``.
  public func flatMapCompletable(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ selector: @escaping (Element) throws -> Completable
  ) -> Completable {
    Completable(
      raw: primitiveSequence.source.flatMap(
        { try selector($0).source }, isolation: isolation, file: file, line: line))
  }

  /// Runs side effects around the success, the failure, subscription and disposal.
  ///
  /// ```swift
  /// _ = Single.just(1)
  ///   .do(onSuccess: { print("got \($0)") }, onDispose: { print("disposed") })
  ///   .subscribe()
  /// // Prints "got 1", "disposed"
  /// ```
  ///
  /// `onSuccess`/`onError` run before the event is forwarded and `afterSuccess`/`afterError`
  /// after it; a throw from `onSuccess` or `onError` fails the result instead, a throw from
  /// `afterSuccess` is dropped (the result has already succeeded). `onSubscribe` runs before the
  /// source is subscribed, `onSubscribed` after; `onDispose` runs once when the subscription ends
  /// for any reason.
  public func `do`(
    onSuccess: ((Element) throws -> Void)? = nil,
    afterSuccess: ((Element) throws -> Void)? = nil,
    onError: ((any Error) throws -> Void)? = nil,
    afterError: ((any Error) throws -> Void)? = nil,
    onSubscribe: (() -> Void)? = nil,
    onSubscribed: (() -> Void)? = nil,
    onDispose: (() -> Void)? = nil,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Single<Element> {
    Single(
      raw: primitiveSequence.source.do(
        onNext: onSuccess, afterNext: afterSuccess, onError: onError, afterError: afterError,
        onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose,
        isolation: isolation, file: file,
        line: line))
  }

  /// Succeeds with `element` instead of failing.
  ///
  /// ```swift
  /// _ = Single<Int>.error(RxError.unknown).catchAndReturn(0).subscribe(onSuccess: { print($0) })
  /// // Prints "0"
  /// ```
  ///
  /// Never fails. Disposal disposes the source.
  public func catchAndReturn(
    _ element: Element, file: StaticString = #fileID, line: UInt = #line
  ) -> Single<Element> {
    Single(
      raw: primitiveSequence.source.catchAndReturn(element, file: file, line: line))
  }

  /// RxSwift 5's name for ``catchAndReturn(_:file:line:)->Single<Self.Element>``.
  @available(*, deprecated, renamed: "catchAndReturn(_:)")
  public func catchErrorJustReturn(_ element: Element) -> Single<Element> {
    catchAndReturn(element)
  }

  /// This `Single` as a ``Maybe`` that succeeds or fails as it does.
  ///
  /// ```swift
  /// let maybe: Maybe<Int> = Single.just(1).asMaybe()
  /// ```
  public func asMaybe() -> Maybe<Element> {
    Maybe(raw: primitiveSequence.source)
  }

  /// This `Single` as a ``Completable`` that drops the element.
  ///
  /// ```swift
  /// _ = Single.just(1).asCompletable().subscribe(onCompleted: { print("done") })
  /// // Prints "done"
  /// ```
  public func asCompletable(file: StaticString = #fileID, line: UInt = #line) -> Completable {
    Completable(
      raw: primitiveSequence.source.ignoreElements(file: file, line: line))
  }
}
