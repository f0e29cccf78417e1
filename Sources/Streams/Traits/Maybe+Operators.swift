extension PrimitiveSequenceType where Trait == MaybeTrait {
  /// Transforms the element with `transform`.
  ///
  /// ```swift
  /// _ = Maybe.just(2).map { $0 * 10 }.subscribe(onSuccess: { print($0) })
  /// // Prints "20"
  /// ```
  ///
  /// Succeeds, completes and fails as the source does; a throw from `transform` fails the result.
  /// Disposal disposes the source.
  public func map<Result>(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ transform: @escaping (Element) throws -> Result
  ) -> Maybe<Result> {
    Maybe(
      raw: primitiveSequence.source.map(transform, isolation: isolation, file: file, line: line))
  }

  /// Transforms the element, completing empty when `transform` returns `nil`.
  ///
  /// ```swift
  /// _ = Maybe.just("x").compactMap { Int($0) }.subscribe(onCompleted: { print("empty") })
  /// // Prints "empty"
  /// ```
  ///
  /// Fails as the source does or when `transform` throws. Disposal disposes the source.
  public func compactMap<Result>(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ transform: @escaping (Element) throws -> Result?
  ) -> Maybe<Result> {
    Maybe(
      raw: primitiveSequence.source.compactMap(
        transform, isolation: isolation, file: file, line: line))
  }

  /// Keeps the element only if it satisfies `predicate`, completing empty otherwise.
  ///
  /// ```swift
  /// _ = Maybe.just(3).filter { $0 > 5 }.subscribe(onCompleted: { print("empty") })
  /// // Prints "empty"
  /// ```
  ///
  /// Fails as the source does or when `predicate` throws. Disposal disposes the source.
  public func filter(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ predicate: @escaping (Element) throws -> Bool
  ) -> Maybe<Element> {
    Maybe(
      raw: primitiveSequence.source.filter(predicate, isolation: isolation, file: file, line: line))
  }

  /// Continues with the `Maybe` that `selector` returns for the element.
  ///
  /// ```swift
  /// let avatar = cachedUser.flatMap { user in cachedImage(user.avatarURL) }
  /// ```
  ///
  /// Completes empty if the source does; otherwise succeeds or completes as the inner `Maybe`
  /// does. Fails when the source or the inner `Maybe` fails or `selector` throws. The source's
  /// subscription is disposed when it completes; disposal disposes whichever is running.
  public func flatMap<Result>(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ selector: @escaping (Element) throws -> Maybe<Result>
  ) -> Maybe<Result> {
    Maybe(
      raw: primitiveSequence.source.flatMap(
        { try selector($0).source }, isolation: isolation, file: file, line: line))
  }

  /// A ``Single`` that succeeds with `default` when this `Maybe` completes empty.
  ///
  /// ```swift
  /// _ = Maybe<Int>.empty().ifEmpty(default: 0).subscribe(onSuccess: { print($0) })
  /// // Prints "0"
  /// ```
  ///
  /// Fails as the source does. Disposal disposes the source.
  public func ifEmpty(
    default: Element, file: StaticString = #fileID, line: UInt = #line
  ) -> Single<Element> {
    Single(
      raw: primitiveSequence.source.ifEmpty(default: `default`, file: file, line: line))
  }

  /// Continues with `other` when this `Maybe` completes empty.
  ///
  /// ```swift
  /// let user = cachedUser.ifEmpty(switchTo: remoteUser)
  /// ```
  ///
  /// `other`'s subscription starts when this one has completed; disposal disposes whichever runs.
  public func ifEmpty(
    switchTo other: Maybe<Element>, file: StaticString = #fileID, line: UInt = #line
  ) -> Maybe<Element> {
    Maybe(
      raw: primitiveSequence.source.ifEmpty(switchTo: other.source, file: file, line: line))
  }

  /// Continues with the ``Single`` `other` when this `Maybe` completes empty.
  ///
  /// ```swift
  /// let user: Single<User> = cachedUser.ifEmpty(switchTo: remoteUser)
  /// ```
  ///
  /// `other`'s subscription starts when this one has completed; disposal disposes whichever runs.
  public func ifEmpty(
    switchTo other: Single<Element>, file: StaticString = #fileID, line: UInt = #line
  ) -> Single<Element> {
    Single(
      raw: primitiveSequence.source.ifEmpty(switchTo: other.source, file: file, line: line))
  }

  /// Runs side effects around the events, subscription and disposal.
  ///
  /// ```swift
  /// _ = Maybe<Int>.empty().do(onCompleted: { print("empty") }).subscribe()
  /// // Prints "empty"
  /// ```
  ///
  /// `on...` closures run before the event is forwarded, `after...` closures after it; a throw
  /// from an `on...` closure fails the result instead (a throw after a terminal event is dropped).
  /// `onSubscribe` runs before the source is subscribed, `onSubscribed` after; `onDispose` runs
  /// once when the subscription ends for any reason.
  public func `do`(
    onNext: ((Element) throws -> Void)? = nil,
    afterNext: ((Element) throws -> Void)? = nil,
    onError: ((any Error) throws -> Void)? = nil,
    afterError: ((any Error) throws -> Void)? = nil,
    onCompleted: (() throws -> Void)? = nil,
    afterCompleted: (() throws -> Void)? = nil,
    onSubscribe: (() -> Void)? = nil,
    onSubscribed: (() -> Void)? = nil,
    onDispose: (() -> Void)? = nil,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Maybe<Element> {
    Maybe(
      raw: primitiveSequence.source.do(
        onNext: onNext, afterNext: afterNext, onError: onError, afterError: afterError,
        onCompleted: onCompleted, afterCompleted: afterCompleted, onSubscribe: onSubscribe,
        onSubscribed: onSubscribed, onDispose: onDispose, isolation: isolation, file: file,
        line: line))
  }

  /// Succeeds with `element` instead of failing.
  ///
  /// ```swift
  /// _ = Maybe<Int>.error(RxError.unknown).catchAndReturn(0).subscribe(onSuccess: { print($0) })
  /// // Prints "0"
  /// ```
  ///
  /// Never fails. Disposal disposes the source.
  public func catchAndReturn(
    _ element: Element, file: StaticString = #fileID, line: UInt = #line
  ) -> Maybe<Element> {
    Maybe(
      raw: primitiveSequence.source.catchAndReturn(element, file: file, line: line))
  }

  /// RxSwift 5's name for ``catchAndReturn(_:file:line:)->Maybe<Self.Element>``.
  @available(*, deprecated, renamed: "catchAndReturn(_:)")
  public func catchErrorJustReturn(_ element: Element) -> Maybe<Element> {
    catchAndReturn(element)
  }

  /// This `Maybe` as a ``Completable`` that drops the element.
  ///
  /// ```swift
  /// _ = Maybe.just(1).asCompletable().subscribe(onCompleted: { print("done") })
  /// // Prints "done"
  /// ```
  public func asCompletable(file: StaticString = #fileID, line: UInt = #line) -> Completable {
    Completable(
      raw: primitiveSequence.source.ignoreElements(file: file, line: line))
  }
}
