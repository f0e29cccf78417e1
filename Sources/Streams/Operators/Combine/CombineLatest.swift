extension ObservableType {
  /// Combines the latest elements of two or more sources with `resultSelector` whenever any of
  /// them emits, once each has emitted at least once.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<String>()
  /// _ = Observable.combineLatest(a, b) { "\($0)\($1)" }.subscribe(onNext: { print($0) })
  /// a.onNext(1); b.onNext("x"); a.onNext(2)
  /// // Prints "1x", "2x"
  /// ```
  ///
  /// ```
  /// a:      -1----2----3-|
  /// b:      ---x-----y---|
  /// result: ---1x-2x-2y-3y-|
  /// ```
  ///
  /// Takes any number of sources from two up (RxSwift has overloads for 2 to 8). The sources are
  /// subscribed in order. Completes when every source completed, or when a source emits while
  /// every other source has completed; fails with the first error, or when `resultSelector`
  /// throws, disposing every source. A source's subscription is disposed when it completes;
  /// disposal disposes them all. Sources may emit on different threads: `resultSelector` and the
  /// observer run one at a time, in the order the elements arrived, never under a lock.
  ///
  /// - Parameter resultSelector: Combines the latest element of each source.
  public static func combineLatest<
    Source1: ObservableType, Source2: ObservableType, each Source: ObservableType
  >(
    _ source1: Source1, _ source2: Source2, _ sources: repeat each Source,
    resultSelector:
      @escaping (Source1.Element, Source2.Element, repeat (each Source).Element)
      throws -> Element,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    var erased = [PackSupport.erase(source1), PackSupport.erase(source2)]
    for source in repeat each sources { erased.append(PackSupport.erase(source)) }
    return CombineSink.observable(
      kind: "combineLatest", mode: .latest, upstreams: erased.map(\.traceID),
      subscribers: erased.map(\.subscribe),
      file: file, line: line
    ) { values in
      var reader = PackReader(values)
      return try resultSelector(
        reader.take(Source1.Element.self), reader.take(Source2.Element.self),
        repeat reader.take((each Source).Element.self))
    }
  }

  /// Combines the latest elements of the sources in `collection` with `resultSelector` whenever
  /// any of them emits, once each has emitted at least once.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<Int>()
  /// _ = Observable.combineLatest([a, b]) { $0.reduce(0, +) }.subscribe(onNext: { print($0) })
  /// a.onNext(1); b.onNext(10); a.onNext(2)
  /// // Prints "11", "12"
  /// ```
  ///
  /// Completes at once for an empty collection, otherwise as the fixed-arity `combineLatest`; fails
  /// with the first error or when `resultSelector` throws. Disposal disposes every source.
  ///
  /// - Parameter resultSelector: Receives the latest elements in the collection's order.
  public static func combineLatest<Sources: Collection>(
    _ collection: Sources,
    resultSelector: @escaping ([Sources.Element.Element]) throws -> Element,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Sources.Element: ObservableType {
    let observables = collection.map { $0.asObservable() }
    return CombineSink.observable(
      kind: "combineLatest", mode: .latest, upstreams: observables.map(\.traceID),
      subscribers: observables.map { source in { source.subscribeAny($0) } },
      file: file, line: line
    ) { try resultSelector(Array($0)) }
  }

  /// Emits an array of the latest elements of the sources in `collection` whenever any of them
  /// emits, once each has emitted at least once.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<Int>()
  /// _ = Observable.combineLatest([a, b]).subscribe(onNext: { print($0) })
  /// a.onNext(1); b.onNext(10)
  /// // Prints "[1, 10]"
  /// ```
  ///
  /// Completes at once for an empty collection, otherwise as the fixed-arity `combineLatest`;
  /// fails with the first error. Disposal disposes every source.
  public static func combineLatest<Sources: Collection>(
    _ collection: Sources, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<[Element]>
  where Sources.Element: ObservableType, Sources.Element.Element == Element {
    Observable<[Element]>.combineLatest(collection, resultSelector: { $0 }, file: file, line: line)
  }
}

extension ObservableType where Element == Any {
  /// Emits a tuple of the latest elements of two or more sources whenever any of them emits, once
  /// each has emitted at least once.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<String>()
  /// _ = Observable.combineLatest(a, b).subscribe(onNext: { print($0) })
  /// a.onNext(1); b.onNext("x"); a.onNext(2)
  /// // Prints "(1, "x")", "(2, "x")"
  /// ```
  ///
  /// Completes when every source completed, or when a source emits while every other source has
  /// completed; fails with the first error, disposing every source. Disposal disposes every
  /// source.
  public static func combineLatest<
    Source1: ObservableType, Source2: ObservableType, each Source: ObservableType
  >(
    _ source1: Source1, _ source2: Source2, _ sources: repeat each Source,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<(Source1.Element, Source2.Element, repeat (each Source).Element)> {
    var erased = [PackSupport.erase(source1), PackSupport.erase(source2)]
    for source in repeat each sources { erased.append(PackSupport.erase(source)) }
    return CombineSink.observable(
      kind: "combineLatest", mode: .latest, upstreams: erased.map(\.traceID),
      subscribers: erased.map(\.subscribe),
      file: file, line: line
    ) { values in
      var reader = PackReader(values)
      return (
        reader.take(Source1.Element.self), reader.take(Source2.Element.self),
        repeat reader.take((each Source).Element.self)
      )
    }
  }
}
