extension ObservableType {
  /// This sequence as a ``Single``, checking that it emits exactly one element.
  ///
  /// ```swift
  /// let one = Observable<Int>.create { o in o.onNext(1); o.onCompleted(); return Disposables.create() }
  /// _ = one.asSingle().subscribe(onSuccess: { print($0) })
  /// // Prints "1"
  /// ```
  ///
  /// The element is held until the source completes, then emitted. A second element fails the
  /// result with `RxError.moreThanOneElement` at once (disposing the source); completion without
  /// an element fails it with `RxError.noElements`. Errors pass through. Disposal disposes the
  /// source.
  public func asSingle(file: StaticString = #fileID, line: UInt = #line) -> Single<Element> {
    Single(
      raw: TraitElementCount.one(
        asObservable(), .exactlyOne, kind: "asSingle", file: file, line: line))
  }

  /// This sequence as a ``Maybe``, checking that it emits at most one element.
  ///
  /// ```swift
  /// let none = Observable<Int>.create { o in o.onCompleted(); return Disposables.create() }
  /// _ = none.asMaybe().subscribe(onCompleted: { print("empty") })
  /// // Prints "empty"
  /// ```
  ///
  /// The element is held until the source completes, then emitted. A second element fails the
  /// result with `RxError.moreThanOneElement` at once (disposing the source). Errors pass
  /// through. Disposal disposes the source.
  public func asMaybe(file: StaticString = #fileID, line: UInt = #line) -> Maybe<Element> {
    Maybe(
      raw: TraitElementCount.one(
        asObservable(), .atMostOne, kind: "asMaybe", file: file, line: line))
  }
}

extension ObservableType where Element == Never {
  /// This element-less sequence as a ``Completable``.
  ///
  /// ```swift
  /// let done = Observable<Never>.create { o in o.onCompleted(); return Disposables.create() }
  /// _ = done.asCompletable().subscribe(onCompleted: { print("done") })
  /// // Prints "done"
  /// ```
  ///
  /// Completes and fails as the source does.
  public func asCompletable() -> Completable {
    Completable(raw: asObservable())
  }
}
