extension ObservableType {
  /// Pairs the n-th elements of two or more sources and combines them with `resultSelector`.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<String>()
  /// _ = Observable.zip(a, b) { "\($0)\($1)" }.subscribe(onNext: { print($0) })
  /// a.onNext(1); a.onNext(2); b.onNext("x"); b.onNext("y")
  /// // Prints "1x", "2y"
  /// ```
  ///
  /// ```
  /// a:      -1-2-----3--|
  /// b:      -----x-y----|
  /// result: -----1x-2y--|
  /// ```
  ///
  /// Takes any number of sources from two up (RxSwift has overloads for 2 to 8). Elements wait in
  /// per-source buffers until every source has one. The sources are subscribed in order. As in
  /// RxSwift, completes when every source completed (a source that completed with nothing
  /// buffered does not end the sequence by itself); fails with the first error, or when
  /// `resultSelector` throws, disposing every source. A source's subscription is disposed when it
  /// completes; disposal disposes them all. Sources may emit on different threads:
  /// `resultSelector` and the observer run one at a time, never under a lock.
  ///
  /// - Parameter resultSelector: Combines one element of each source.
  public static func zip<
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
      kind: "zip", mode: .zip(completesWhenOthersDone: false), upstreams: erased.map(\.traceID),
      subscribers: erased.map(\.subscribe), file: file, line: line
    ) { values in
      var reader = PackReader(values)
      return try resultSelector(
        reader.take(Source1.Element.self), reader.take(Source2.Element.self),
        repeat reader.take((each Source).Element.self))
    }
  }

  /// Pairs the n-th elements of the sources in `collection` and combines them with
  /// `resultSelector`.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<Int>()
  /// _ = Observable.zip([a, b]) { $0.reduce(0, +) }.subscribe(onNext: { print($0) })
  /// a.onNext(1); a.onNext(2); b.onNext(10)
  /// // Prints "11"
  /// ```
  ///
  /// Completes at once for an empty collection, when every source completed, or, as RxSwift's
  /// collection `zip` does, when a source emits an element that cannot be paired because every
  /// other source completed. Fails with the first error or when `resultSelector` throws. Disposal
  /// disposes every source.
  ///
  /// - Parameter resultSelector: Receives one element of each source, in the collection's order.
  public static func zip<Sources: Collection>(
    _ collection: Sources,
    resultSelector: @escaping ([Sources.Element.Element]) throws -> Element,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Sources.Element: ObservableType {
    let observables = collection.map { $0.asObservable() }
    return CombineSink.observable(
      kind: "zip", mode: .zip(completesWhenOthersDone: true),
      upstreams: observables.map(\.traceID),
      subscribers: observables.map { source in { source.subscribeAny($0) } },
      file: file, line: line
    ) { try resultSelector(Array($0)) }
  }

  /// Emits arrays of the n-th elements of the sources in `collection`.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<Int>()
  /// _ = Observable.zip([a, b]).subscribe(onNext: { print($0) })
  /// a.onNext(1); b.onNext(10)
  /// // Prints "[1, 10]"
  /// ```
  ///
  /// Completes and fails as ``zip(_:resultSelector:file:line:)`` over a collection; disposal
  /// disposes every source.
  public static func zip<Sources: Collection>(
    _ collection: Sources, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<[Element]>
  where Sources.Element: ObservableType, Sources.Element.Element == Element {
    Observable<[Element]>.zip(collection, resultSelector: { $0 }, file: file, line: line)
  }
}

extension ObservableType where Element == Any {
  /// Emits tuples of the n-th elements of two or more sources.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<String>()
  /// _ = Observable.zip(a, b).subscribe(onNext: { print($0) })
  /// a.onNext(1); a.onNext(2); b.onNext("x")
  /// // Prints "(1, "x")"
  /// ```
  ///
  /// Completes when every source completed; fails with the first error, disposing every source.
  /// Disposal disposes every source.
  public static func zip<
    Source1: ObservableType, Source2: ObservableType, each Source: ObservableType
  >(
    _ source1: Source1, _ source2: Source2, _ sources: repeat each Source,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<(Source1.Element, Source2.Element, repeat (each Source).Element)> {
    var erased = [PackSupport.erase(source1), PackSupport.erase(source2)]
    for source in repeat each sources { erased.append(PackSupport.erase(source)) }
    return CombineSink.observable(
      kind: "zip", mode: .zip(completesWhenOthersDone: false), upstreams: erased.map(\.traceID),
      subscribers: erased.map(\.subscribe), file: file, line: line
    ) { values in
      var reader = PackReader(values)
      return (
        reader.take(Source1.Element.self), reader.take(Source2.Element.self),
        repeat reader.take((each Source).Element.self)
      )
    }
  }
}
