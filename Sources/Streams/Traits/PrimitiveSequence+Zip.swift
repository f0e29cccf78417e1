extension PrimitiveSequenceType where Trait == SingleTrait {
  /// Succeeds with `resultSelector` applied to the elements of all the `Single`s, which are
  /// subscribed at once.
  ///
  /// ```swift
  /// let page = Single.zip(api.user(), api.posts()) { user, posts in Page(user, posts) }
  /// // user: --(u|)   posts: ----(p|)   result: ----(Page|)
  /// ```
  ///
  /// Takes two or more sources. Succeeds when the last one succeeds; fails with the first
  /// failure (disposing the others) or when `resultSelector` throws. Each source's subscription is
  /// disposed when it terminates; disposal disposes all.
  public static func zip<E1, E2, each E>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ sources: repeat Single<each E>,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    resultSelector: @escaping (E1, E2, repeat each E) throws -> Element
  ) -> Single<Element> {
    Single(
      raw: Observable.zip(
        source1.source, source2.source, repeat (each sources).source,
        resultSelector: resultSelector, isolation: isolation, file: file, line: line))
  }

  /// Succeeds with an array of the elements of the `Single`s in `collection`, which are
  /// subscribed at once.
  ///
  /// ```swift
  /// let avatars = Single.zip(users.map { api.avatar(for: $0) })
  /// ```
  ///
  /// Succeeds when the last one succeeds, at once with `[]` for an empty collection; fails with
  /// the first failure, disposing the others. Disposal disposes all.
  public static func zip<C: Collection>(
    _ collection: C, file: StaticString = #fileID, line: UInt = #line
  ) -> Single<[Element]> where C.Element == Single<Element> {
    zip(collection, file: file, line: line) { $0 }
  }

  /// Succeeds with `resultSelector` applied to the array of elements of the `Single`s in
  /// `collection`; see ``zip(_:file:line:)->Single<[Self.Element]>``.
  ///
  /// ```swift
  /// let total = Single.zip(prices, resultSelector: { $0.reduce(0, +) })
  /// ```
  ///
  /// A throw from `resultSelector` fails the result.
  public static func zip<C: Collection, Result>(
    _ collection: C, isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    resultSelector: @escaping ([Element]) throws -> Result
  ) -> Single<Result> where C.Element == Single<Element> {
    let caller = CallerIsolation(isolation, api: "zip", file: file, line: line)
    let resultSelector = isolation == nil ? resultSelector : caller.checked(resultSelector)
    // As in RxSwift: core `zip` of no sources completes without an element, so an empty
    // collection is handled here.
    guard !collection.isEmpty else {
      return Single(
        raw: Observable.deferred(file: file, line: line) { .just(try resultSelector([])) })
    }
    return Single(
      raw: Observable.zip(
        collection.map(\.source), resultSelector: resultSelector, file: file, line: line))
  }
}

extension PrimitiveSequenceType where Trait == SingleTrait, Element == Any {
  /// Succeeds with a tuple of the elements of all the `Single`s, which are subscribed at once.
  ///
  /// ```swift
  /// _ = Single.zip(Single.just(1), Single.just("a")).subscribe(onSuccess: { print($0) })
  /// // Prints "(1, "a")"
  /// ```
  ///
  /// Takes two or more sources; completes, fails and disposes as
  /// ``zip(_:_:_:isolation:file:line:resultSelector:)->Single<Self.Element>``.
  public static func zip<E1, E2, each E>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ sources: repeat Single<each E>,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Single<(E1, E2, repeat each E)> {
    Single(
      raw: Observable<Any>.zip(
        source1.source, source2.source, repeat (each sources).source, file: file, line: line))
  }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
  /// Succeeds with `resultSelector` applied to the elements of all the `Maybe`s, which are
  /// subscribed at once.
  ///
  /// ```swift
  /// let pair = Maybe.zip(cachedUser, cachedAvatar) { user, avatar in (user, avatar) }
  /// ```
  ///
  /// Takes two or more sources. Succeeds when every source has succeeded; completes empty as soon
  /// as one completes empty; fails with the first failure or when `resultSelector` throws.
  /// Disposal disposes all.
  public static func zip<E1, E2, each E>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ sources: repeat Maybe<each E>,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    resultSelector: @escaping (E1, E2, repeat each E) throws -> Element
  ) -> Maybe<Element> {
    Maybe(
      raw: ZipArity.zip(
        source1.source, source2.source, repeat (each sources).source, file: file, line: line,
        caller: CallerIsolation(isolation, api: "zip", file: file, line: line),
        resultSelector: resultSelector))
  }

  /// Succeeds with an array of the elements of the `Maybe`s in `collection`; completes empty as
  /// soon as one completes empty.
  ///
  /// ```swift
  /// let all = Maybe.zip(keys.map { cache.lookup($0) })
  /// ```
  public static func zip<C: Collection>(
    _ collection: C, file: StaticString = #fileID, line: UInt = #line
  ) -> Maybe<[Element]> where C.Element == Maybe<Element> {
    Maybe<[Element]>(raw: ZipArity.zip(collection.map(\.source), file: file, line: line) { $0 })
  }
}

extension PrimitiveSequenceType where Trait == MaybeTrait, Element == Any {
  /// Succeeds with a tuple of the elements of all the `Maybe`s; completes empty as soon as one
  /// completes empty.
  ///
  /// ```swift
  /// let pair = Maybe.zip(Maybe.just(1), Maybe.just("a"))  // ((1, "a")|)
  /// ```
  public static func zip<E1, E2, each E>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ sources: repeat Maybe<each E>,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Maybe<(E1, E2, repeat each E)> {
    Maybe(
      raw: ZipArity.zip(
        source1.source, source2.source, repeat (each sources).source, file: file, line: line,
        caller: CallerIsolation(nil, api: "zip", file: file, line: line)
      ) { (first: E1, second: E2, rest: repeat each E) in (first, second, repeat each rest) })
  }
}

/// Typed front ends of ``TraitZip`` for `Maybe.zip`.
private enum ZipArity {
  static func zip<E1, E2, each E, Result>(
    _ source1: Observable<E1>, _ source2: Observable<E2>, _ sources: repeat Observable<each E>,
    file: StaticString, line: UInt, caller: CallerIsolation,
    resultSelector: @escaping (E1, E2, repeat each E) throws -> Result
  ) -> Observable<Result> {
    var subscribers = [TraitZip.erase(source1), TraitZip.erase(source2)]
    var upstreams = [source1.traceID, source2.traceID]
    for source in repeat each sources {
      subscribers.append(TraitZip.erase(source))
      upstreams.append(source.traceID)
    }
    let select = { (values: [Any]) throws -> Result in
      var reader = PackReader(values)
      return try resultSelector(
        reader.take(E1.self), reader.take(E2.self), repeat reader.take((each E).self))
    }
    return TraitZip.zip(
      subscribers, upstreams: upstreams, file: file, line: line,
      resultSelector: caller.actor == nil ? select : caller.checked(select))
  }

  static func zip<Element, Result>(
    _ sources: [Observable<Element>], file: StaticString, line: UInt,
    resultSelector: @escaping ([Element]) throws -> Result
  ) -> Observable<Result> {
    TraitZip.zip(
      sources.map(TraitZip.erase), upstreams: sources.map(\.traceID), file: file, line: line
    ) { values in try resultSelector(values.map { $0 as! Element }) }
  }
}
