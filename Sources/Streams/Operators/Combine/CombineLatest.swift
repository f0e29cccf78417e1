extension ObservableType {
  /// Combines the latest elements of two sources with `resultSelector` whenever either emits,
  /// once both have emitted at least once.
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
  /// result: ---A--B--C-D-|   (A = "1x", B = "2x", C = "2y", D = "3y")
  /// ```
  ///
  /// The sources are subscribed in order. Completes when both sources completed, or when one
  /// emits while the other has completed without ever emitting (no combination can be made);
  /// fails with the first error, or when `resultSelector` throws, disposing both sources (in
  /// subscription order, after the error was delivered; RxSwift disposes a failing source first,
  /// see the migration guide). A source's subscription is disposed when it completes; disposal
  /// disposes both. The sources may emit on different threads: `resultSelector` and the
  /// observer run one at a time, in the order the elements arrived, never under a lock.
  ///
  /// The latest elements are kept with their own types and the operator specializes in the
  /// caller's module, so an update costs no allocation.
  ///
  /// - Parameters:
  ///   - source1: The first source.
  ///   - source2: The second source.
  ///   - resultSelector: Combines the latest element of each source.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  @inlinable
  public static func combineLatest<Source1: ObservableType, Source2: ObservableType>(
    _ source1: Source1, _ source2: Source2,
    resultSelector: @escaping (Source1.Element, Source2.Element) throws -> Element,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let caller = CallerIsolation(isolation, api: "combineLatest", file: file, line: line)
    let resultSelector = isolation == nil ? resultSelector : caller.checked(resultSelector)
    let first = source1.asObservable()
    let second = source2.asObservable()
    return Observable(
      kind: "combineLatest", upstreams: [first.traceID, second.traceID], file: file, line: line
    ) { observer in
      typealias Latest = (Source1.Element?, Source2.Element?)
      let state = TypedCombineStateMachine<Latest, (Source1.Element, Source2.Element)>(
        empty: (nil, nil), count: 2, completesWhenOthersDone: true
      ) { latest in ((latest.0!, latest.1!), 0b11) }
      let sink = TypedCombineSink(downstream: observer, state: state) { values in
        try resultSelector(values.0, values.1)
      }
      sink.subscribe(0, to: first) { $0.0.replace(with: $1) }
      sink.subscribe(1, to: second) { $0.1.replace(with: $1) }
      return sink
    }
  }

  /// Combines the latest elements of three sources with `resultSelector` whenever any of them
  /// emits, once each has emitted at least once.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<String>(), c = PublishSubject<Bool>()
  /// _ = Observable.combineLatest(a, b, c) { "\($0)\($1)\($2)" }
  ///   .subscribe(onNext: { print($0) })
  /// a.onNext(1); b.onNext("x"); c.onNext(true); a.onNext(2)
  /// // Prints "1xtrue", "2xtrue"
  /// ```
  ///
  /// The sources are subscribed in order. Completes when every source completed, or when a
  /// source emits while the other two have completed and one of them never emitted (no
  /// combination can be made); fails with the first error, or when
  /// `resultSelector` throws, disposing every source. A source's subscription is disposed when
  /// it completes; disposal disposes them all. Sources may emit on different threads:
  /// `resultSelector` and the observer run one at a time, in the order the elements arrived,
  /// never under a lock. As with two sources, an update costs no allocation.
  ///
  /// - Parameters:
  ///   - source1: The first source.
  ///   - source2: The second source.
  ///   - source3: The third source.
  ///   - resultSelector: Combines the latest element of each source.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  @inlinable
  public static func combineLatest<
    Source1: ObservableType, Source2: ObservableType, Source3: ObservableType
  >(
    _ source1: Source1, _ source2: Source2, _ source3: Source3,
    resultSelector:
      @escaping (Source1.Element, Source2.Element, Source3.Element) throws -> Element,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let caller = CallerIsolation(isolation, api: "combineLatest", file: file, line: line)
    let select: ((Source1.Element, Source2.Element, Source3.Element)) throws -> Element = {
      try resultSelector($0.0, $0.1, $0.2)
    }
    let selector = isolation == nil ? select : caller.checked(select)
    let first = source1.asObservable()
    let second = source2.asObservable()
    let third = source3.asObservable()
    return Observable(
      kind: "combineLatest", upstreams: [first.traceID, second.traceID, third.traceID],
      file: file, line: line
    ) { observer in
      typealias Latest = (Source1.Element?, Source2.Element?, Source3.Element?)
      typealias Values = (Source1.Element, Source2.Element, Source3.Element)
      let state = TypedCombineStateMachine<Latest, Values>(
        empty: (nil, nil, nil), count: 3, completesWhenOthersDone: true
      ) { latest in ((latest.0!, latest.1!, latest.2!), 0b111) }
      let sink = TypedCombineSink(downstream: observer, state: state, resultSelector: selector)
      sink.subscribe(0, to: first) { $0.0.replace(with: $1) }
      sink.subscribe(1, to: second) { $0.1.replace(with: $1) }
      sink.subscribe(2, to: third) { $0.2.replace(with: $1) }
      return sink
    }
  }

  /// Combines the latest elements of four or more sources with `resultSelector` whenever any of
  /// them emits, once each has emitted at least once.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<Int>()
  /// let c = PublishSubject<Int>(), d = PublishSubject<Int>()
  /// _ = Observable.combineLatest(a, b, c, d) { $0 + $1 + $2 + $3 }
  ///   .subscribe(onNext: { print($0) })
  /// a.onNext(1); b.onNext(10); c.onNext(100); d.onNext(1000); a.onNext(2)
  /// // Prints "1111", "1112"
  /// ```
  ///
  /// Takes any number of sources (RxSwift has overloads for 2 to 8); two and three sources use the
  /// typed overloads above, this one serves more, and code that forwards a parameter pack. It keeps
  /// the latest elements boxed, which costs allocations per update. The sources are subscribed in
  /// order. Completes when every source completed, or when a source emits while every other source
  /// has completed and one of them never emitted; fails with the first error, or when
  /// `resultSelector` throws, disposing every source. A source's subscription is disposed when it
  /// completes; disposal disposes them all. Sources may emit on different threads: `resultSelector`
  /// and the observer run one at a time, in the order the elements arrived, never under a lock.
  ///
  /// - Parameters:
  ///   - source1: The first source.
  ///   - source2: The second source.
  ///   - sources: The further sources, if any.
  ///   - resultSelector: Combines the latest element of each source.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public static func combineLatest<
    Source1: ObservableType, Source2: ObservableType, each Source: ObservableType
  >(
    _ source1: Source1, _ source2: Source2, _ sources: repeat each Source,
    resultSelector:
      @escaping (Source1.Element, Source2.Element, repeat (each Source).Element)
      throws -> Element,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let caller = CallerIsolation(isolation, api: "combineLatest", file: file, line: line)
    let select = { (values: ContiguousArray<Any>) throws -> Element in
      var reader = PackReader(values)
      return try resultSelector(
        reader.take(Source1.Element.self), reader.take(Source2.Element.self),
        repeat reader.take((each Source).Element.self))
    }
    var erased = [PackSupport.erase(source1), PackSupport.erase(source2)]
    for source in repeat each sources { erased.append(PackSupport.erase(source)) }
    return CombineSink.observable(
      kind: "combineLatest", mode: .latest, upstreams: erased.map(\.traceID),
      subscribers: erased.map(\.subscribe),
      file: file, line: line,
      resultSelector: isolation == nil ? select : caller.checked(select))
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
  /// For an empty collection, emits `resultSelector([])` and completes at once (as RxSwift does);
  /// otherwise completes as the fixed-arity `combineLatest`, delivering the completion before it
  /// disposes the source that completed last (RxSwift's order for this form). Fails with the
  /// first error or when `resultSelector` throws. Disposal disposes every source.
  ///
  /// - Parameters:
  ///   - collection: The sources, subscribed in the collection's order.
  ///   - resultSelector: Receives the latest elements in the collection's order.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public static func combineLatest<Sources: Collection>(
    _ collection: Sources,
    resultSelector: @escaping ([Sources.Element.Element]) throws -> Element,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Sources.Element: ObservableType {
    let caller = CallerIsolation(isolation, api: "combineLatest", file: file, line: line)
    let resultSelector = isolation == nil ? resultSelector : caller.checked(resultSelector)
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
  /// For an empty collection, emits one empty array and completes at once (as RxSwift does);
  /// otherwise completes as the fixed-arity `combineLatest`. Fails with the first error.
  /// Disposal disposes every source.
  public static func combineLatest<Sources: Collection>(
    _ collection: Sources, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<[Element]>
  where Sources.Element: ObservableType, Sources.Element.Element == Element {
    Observable<[Element]>.combineLatest(collection, resultSelector: { $0 }, file: file, line: line)
  }
}

extension ObservableType where Element == Any {
  /// Emits a tuple of the latest elements of two sources whenever either emits, once both have
  /// emitted at least once.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<String>()
  /// _ = Observable.combineLatest(a, b).subscribe(onNext: { print($0) })
  /// a.onNext(1); b.onNext("x"); a.onNext(2)
  /// // Prints "(1, "x")", "(2, "x")"
  /// ```
  ///
  /// Completes when both sources completed, or when one emits while the other has completed without
  /// ever emitting; fails with the first error, disposing both sources. Disposal disposes both
  /// sources. An update costs no allocation (see
  /// ``ObservableType/combineLatest(_:_:resultSelector:isolation:file:line:)``).
  @inlinable
  public static func combineLatest<Source1: ObservableType, Source2: ObservableType>(
    _ source1: Source1, _ source2: Source2, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<(Source1.Element, Source2.Element)> {
    Observable<(Source1.Element, Source2.Element)>.combineLatest(
      source1, source2, resultSelector: { ($0, $1) }, file: file, line: line)
  }

  /// Emits a tuple of the latest elements of three sources whenever any of them emits, once each
  /// has emitted at least once.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<String>(), c = PublishSubject<Bool>()
  /// _ = Observable.combineLatest(a, b, c).subscribe(onNext: { print($0) })
  /// a.onNext(1); b.onNext("x"); c.onNext(true)
  /// // Prints "(1, "x", true)"
  /// ```
  ///
  /// Completes when every source completed, or when a source emits while the other two have
  /// completed and one of them never emitted; fails with the first error, disposing every
  /// source. Disposal disposes every source. An update costs no allocation.
  @inlinable
  public static func combineLatest<
    Source1: ObservableType, Source2: ObservableType, Source3: ObservableType
  >(
    _ source1: Source1, _ source2: Source2, _ source3: Source3,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<(Source1.Element, Source2.Element, Source3.Element)> {
    return Observable<(Source1.Element, Source2.Element, Source3.Element)>.combineLatest(
      source1, source2, source3, resultSelector: { ($0, $1, $2) }, file: file, line: line)
  }

  /// Emits a tuple of the latest elements of four or more sources whenever any of them emits,
  /// once each has emitted at least once.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<String>()
  /// let c = PublishSubject<Bool>(), d = PublishSubject<Double>()
  /// _ = Observable.combineLatest(a, b, c, d).subscribe(onNext: { print($0) })
  /// a.onNext(1); b.onNext("x"); c.onNext(true); d.onNext(0.5)
  /// // Prints "(1, "x", true, 0.5)"
  /// ```
  ///
  /// Two and three sources use the typed overloads above; this one serves more, and code that
  /// forwards a parameter pack, and keeps the latest elements boxed. Completes when every source
  /// completed, or when a source emits while every other source has completed and one of them never
  /// emitted; fails with the first error, disposing every source. Disposal disposes every source.
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
