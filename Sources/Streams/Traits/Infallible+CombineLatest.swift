extension Infallible {
  /// Combines the latest elements of two sources with `resultSelector` whenever either emits,
  /// once both have emitted at least once, as RxSwift's `Infallible.combineLatest`.
  ///
  /// ```swift
  /// let title = Infallible.combineLatest(firstName, lastName) { "\($0) \($1)" }
  /// // firstName: -a-----b--
  /// // lastName:  ---x------
  /// // title:     ---A---B--   (A = "a x", B = "b x")
  /// ```
  ///
  /// The behaviour of ``ObservableType/combineLatest(_:_:resultSelector:isolation:file:line:)``: the sources
  /// are subscribed in order; completes when every source completed, or when one emits while every
  /// other has completed and one of them never emitted; never fails. Disposal disposes every
  /// source.
  ///
  /// `resultSelector` cannot throw (RxSwift's can, which would let an `Infallible` fail).
  public static func combineLatest<Source1: InfallibleType, Source2: InfallibleType>(
    _ source1: Source1, _ source2: Source2,
    resultSelector: @escaping (Source1.Element, Source2.Element) -> Element,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Infallible<Element> {
    Infallible(
      Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), resultSelector: resultSelector,
        isolation: isolation, file: file, line: line))
  }

  /// Combines the latest elements of three sources with `resultSelector`; see
  /// ``combineLatest(_:_:resultSelector:isolation:file:line:)``.
  ///
  /// ```swift
  /// let summary = Infallible.combineLatest(name, age, city) { "\($0), \($1), \($2)" }
  /// ```
  public static func combineLatest<
    Source1: InfallibleType, Source2: InfallibleType, Source3: InfallibleType
  >(
    _ source1: Source1, _ source2: Source2, _ source3: Source3,
    resultSelector: @escaping (Source1.Element, Source2.Element, Source3.Element) -> Element,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Infallible<Element> {
    Infallible(
      Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(),
        resultSelector: resultSelector, isolation: isolation, file: file, line: line))
  }

  /// Combines the latest elements of four or more sources (RxSwift has overloads up to eight)
  /// with `resultSelector`; see ``combineLatest(_:_:resultSelector:isolation:file:line:)``.
  ///
  /// ```swift
  /// let form = Infallible.combineLatest(name, email, age, terms) { $0 && $1 && $2 && $3 }
  /// ```
  public static func combineLatest<
    Source1: InfallibleType, Source2: InfallibleType, each Source: InfallibleType
  >(
    _ source1: Source1, _ source2: Source2, _ sources: repeat each Source,
    resultSelector:
      @escaping (Source1.Element, Source2.Element, repeat (each Source).Element) -> Element,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Infallible<Element> {
    Infallible(
      Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), repeat (each sources).asObservable(),
        resultSelector: resultSelector, isolation: isolation, file: file, line: line))
  }
}

extension InfallibleType {
  /// Combines the latest elements of the sources in `collection` with `resultSelector` whenever
  /// any of them emits, once each has emitted at least once.
  ///
  /// ```swift
  /// let total = Infallible.combineLatest(prices) { $0.reduce(0, +) }
  /// ```
  ///
  /// Behaves as ``ObservableType/combineLatest(_:resultSelector:isolation:file:line:)`` over the same
  /// collection; never fails. Disposal disposes every source.
  public static func combineLatest<Sources: Collection>(
    _ collection: Sources,
    resultSelector: @escaping ([Sources.Element.Element]) -> Element,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Infallible<Element> where Sources.Element: InfallibleType {
    Infallible(
      Observable.combineLatest(
        collection.map { $0.asObservable() }, resultSelector: resultSelector, isolation: isolation,
        file: file,
        line: line))
  }

  /// Emits an array of the latest elements of the sources in `collection` whenever any of them
  /// emits, once each has emitted at least once.
  ///
  /// ```swift
  /// let a = BehaviorRelay(value: 1), b = BehaviorRelay(value: 2)
  /// _ = Infallible.combineLatest([a.asInfallible(), b.asInfallible()])
  ///   .subscribe(onNext: { print($0) })
  /// // Prints "[1, 2]"
  /// ```
  ///
  /// Behaves as ``ObservableType/combineLatest(_:file:line:)`` over the same collection; never
  /// fails. Disposal disposes every source.
  public static func combineLatest<Sources: Collection>(
    _ collection: Sources, file: StaticString = #fileID, line: UInt = #line
  ) -> Infallible<[Element]>
  where Sources.Element: InfallibleType, Sources.Element.Element == Element {
    Infallible<[Element]>(
      Observable.combineLatest(
        collection.map { $0.asObservable() }, resultSelector: { $0 }, file: file, line: line))
  }
}

extension Infallible where Element == Any {
  /// Emits a tuple of the latest elements of two sources whenever either emits, once both have
  /// emitted at least once.
  ///
  /// ```swift
  /// let a = BehaviorRelay(value: 1), b = BehaviorRelay(value: "x")
  /// _ = Infallible.combineLatest(a.asInfallible(), b.asInfallible())
  ///   .subscribe(onNext: { print($0) })
  /// // Prints "(1, "x")"
  /// ```
  ///
  /// Completes as ``Infallible/combineLatest(_:_:resultSelector:isolation:file:line:)``; never fails.
  /// Disposal disposes both sources.
  public static func combineLatest<Source1: InfallibleType, Source2: InfallibleType>(
    _ source1: Source1, _ source2: Source2, file: StaticString = #fileID, line: UInt = #line
  ) -> Infallible<(Source1.Element, Source2.Element)> {
    Infallible<(Source1.Element, Source2.Element)>(
      Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), resultSelector: { ($0, $1) },
        file: file, line: line))
  }

  /// Emits a tuple of the latest elements of three sources; see
  /// ``combineLatest(_:_:file:line:)``.
  ///
  /// ```swift
  /// let all = Infallible.combineLatest(name, age, city)  // (String, Int, String)
  /// ```
  public static func combineLatest<
    Source1: InfallibleType, Source2: InfallibleType, Source3: InfallibleType
  >(
    _ source1: Source1, _ source2: Source2, _ source3: Source3,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Infallible<(Source1.Element, Source2.Element, Source3.Element)> {
    Infallible<(Source1.Element, Source2.Element, Source3.Element)>(
      Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(),
        resultSelector: { ($0, $1, $2) }, file: file, line: line))
  }

  /// Emits a tuple of the latest elements of four or more sources; see
  /// ``combineLatest(_:_:file:line:)``.
  ///
  /// ```swift
  /// let all = Infallible.combineLatest(a, b, c, d)  // (A, B, C, D)
  /// ```
  public static func combineLatest<
    Source1: InfallibleType, Source2: InfallibleType, each Source: InfallibleType
  >(
    _ source1: Source1, _ source2: Source2, _ sources: repeat each Source,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Infallible<(Source1.Element, Source2.Element, repeat (each Source).Element)> {
    Infallible<(Source1.Element, Source2.Element, repeat (each Source).Element)>(
      Observable<Any>.combineLatest(
        source1.asObservable(), source2.asObservable(), repeat (each sources).asObservable(),
        file: file, line: line))
  }
}
