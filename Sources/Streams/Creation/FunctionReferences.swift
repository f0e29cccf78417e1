// The factories as function references: `.flatMap(Observable.just)`, `.catch(Observable.error)`,
// `.flatMap(Single.just)`. The factories take `file:`/`line:` default arguments so that a tracer
// sees the call site, and a function reference drops default arguments: `Observable.just` as a
// reference has the type `(Element, StaticString, UInt) -> Observable<Element>`, which no operator
// accepts. Each overload here has the parameters RxSwift has and no others, so it is the one a
// reference resolves to; it is `@_disfavoredOverload`, so a direct call (`Observable.just(1)`)
// still picks the overload that records the caller's file and line. A reference has no call site:
// its node records ``FunctionReference/file`` and line 0.

/// The call site an observable made through a function reference records.
enum FunctionReference {
  /// `"(function reference)"`: ``TraceNode/file`` of a node made by `.flatMap(Observable.just)`
  /// and the like, whose line is 0.
  static let file: StaticString = "(function reference)"
}

extension ObservableType {
  /// ``just(_:file:line:)`` as a function reference: `.flatMap(Observable.just)`.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2).flatMap(Observable.just).subscribe(onNext: { print($0) })
  /// // Prints "1", "2"
  /// ```
  ///
  /// Emits `element` and completes during the subscription. A direct call uses the overload that
  /// records the call site; this one records `"(function reference)"`, line 0.
  @_disfavoredOverload
  public static func just(_ element: Element) -> Observable<Element> {
    just(element, file: FunctionReference.file, line: 0)
  }

  /// ``error(_:file:line:)`` as a function reference: `.catch(Observable.error)`.
  ///
  /// ```swift
  /// let mapped = source.catch(Observable.error)  // fails as the source does
  /// ```
  ///
  /// Fails at once with `error`. A direct call records the call site; this records none.
  @_disfavoredOverload
  public static func error(_ error: any Error) -> Observable<Element> {
    self.error(error, file: FunctionReference.file, line: 0)
  }

  /// ``from(_:scheduler:file:line:)-([Self.Element],CurrentThreadScheduler,_,_)`` as a function
  /// reference: `.flatMap(Observable.from)` over arrays.
  ///
  /// ```swift
  /// _ = Observable.just([1, 2]).flatMap(Observable.from).subscribe(onNext: { print($0) })
  /// // Prints "1", "2"
  /// ```
  ///
  /// Emits the elements on the trampoline of the subscribing thread, then completes. A direct
  /// call records the call site; this records none.
  @_disfavoredOverload
  public static func from(_ array: [Element]) -> Observable<Element> {
    from(array, scheduler: .instance, file: FunctionReference.file, line: 0)
  }

  /// `from(_:scheduler:file:line:)` over a sequence, as a function reference:
  /// `.flatMap(Observable.from)` over any `Sequence`.
  ///
  /// ```swift
  /// _ = Observable.just(1...2).flatMap(Observable.from).subscribe(onNext: { print($0) })
  /// // Prints "1", "2"
  /// ```
  ///
  /// Emits the elements on the trampoline of the subscribing thread, then completes. A direct
  /// call records the call site; this records none.
  @_disfavoredOverload
  public static func from<S: Sequence>(_ sequence: S) -> Observable<Element>
  where S.Element == Element {
    from(sequence, scheduler: .instance, file: FunctionReference.file, line: 0)
  }

  /// ``from(optional:file:line:)`` as a function reference: `.flatMap(Observable.from(optional:))`.
  ///
  /// ```swift
  /// _ = Observable.of(1, nil, 3).flatMap(Observable.from(optional:)).subscribe(onNext: { print($0) })
  /// // Prints "1", "3"
  /// ```
  ///
  /// Emits the wrapped value, if any, and completes. A direct call records the call site; this
  /// records none.
  @_disfavoredOverload
  public static func from(optional: Element?) -> Observable<Element> {
    from(optional: optional, file: FunctionReference.file, line: 0)
  }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
  /// `Single.just` as a function reference: `.flatMap(Single.just)`.
  ///
  /// ```swift
  /// _ = Single.just(1).flatMap(Single.just).subscribe(onSuccess: { print($0) })
  /// // Prints "1"
  /// ```
  ///
  /// Succeeds with `element` at once. A direct call records the call site; this records none.
  @_disfavoredOverload
  public static func just(_ element: Element) -> Single<Element> {
    Single(raw: Observable.just(element, file: FunctionReference.file, line: 0))
  }

  /// `Single.error` as a function reference: `.catch(Single.error)`.
  ///
  /// ```swift
  /// let same = request.catch(Single.error)  // fails as `request` does
  /// ```
  ///
  /// Fails at once with `error`. A direct call records the call site; this records none.
  @_disfavoredOverload
  public static func error(_ error: any Error) -> Single<Element> {
    Single(raw: Observable.error(error, file: FunctionReference.file, line: 0))
  }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
  /// `Maybe.just` as a function reference: `.flatMap(Maybe.just)`.
  ///
  /// ```swift
  /// _ = Maybe.just(1).flatMap(Maybe.just).subscribe(onSuccess: { print($0) })
  /// // Prints "1"
  /// ```
  ///
  /// Succeeds with `element` at once. A direct call records the call site; this records none.
  @_disfavoredOverload
  public static func just(_ element: Element) -> Maybe<Element> {
    Maybe(raw: Observable.just(element, file: FunctionReference.file, line: 0))
  }

  /// `Maybe.error` as a function reference: `.catch(Maybe.error)`.
  ///
  /// ```swift
  /// let same = lookup.catch(Maybe.error)  // fails as `lookup` does
  /// ```
  ///
  /// Fails at once with `error`. A direct call records the call site; this records none.
  @_disfavoredOverload
  public static func error(_ error: any Error) -> Maybe<Element> {
    Maybe(raw: Observable.error(error, file: FunctionReference.file, line: 0))
  }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
  /// `Completable.error` as a function reference: `.catch(Completable.error)`.
  ///
  /// ```swift
  /// let same = save.catch(Completable.error)  // fails as `save` does
  /// ```
  ///
  /// Fails at once with `error`. A direct call records the call site; this records none.
  @_disfavoredOverload
  public static func error(_ error: any Error) -> Completable {
    Completable(raw: Observable.error(error, file: FunctionReference.file, line: 0))
  }
}

extension Infallible {
  /// `Infallible.just` as a function reference: `.flatMap(Infallible.just)`.
  ///
  /// ```swift
  /// _ = Infallible.of(1, 2).flatMap(Infallible.just).subscribe(onNext: { print($0) })
  /// // Prints "1", "2"
  /// ```
  ///
  /// Emits `element` and completes. A direct call records the call site; this records none.
  @_disfavoredOverload
  public static func just(_ element: Element) -> Infallible<Element> {
    Infallible(Observable.just(element, file: FunctionReference.file, line: 0))
  }
}
