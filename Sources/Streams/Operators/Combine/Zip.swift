extension ObservableType {
  /// Pairs the n-th elements of two sources and combines them with `resultSelector`.
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
  /// result: -----A-B----|   (A = "1x", B = "2y")
  /// ```
  ///
  /// Elements wait in per-source buffers until both sources have one. The sources are subscribed
  /// in order. As in RxSwift, completes when both sources completed (a source that completed
  /// with nothing buffered does not end the sequence by itself); fails with the first error, or
  /// when `resultSelector` throws, disposing both sources (in subscription order, after the error
  /// was delivered; RxSwift disposes a failing source first, see the migration guide). A
  /// source's subscription is disposed when it completes; disposal disposes both. The sources
  /// may emit on different threads:
  /// `resultSelector` and the observer run one at a time, never under a lock.
  ///
  /// The buffers keep the elements with their own types and the operator specializes in the
  /// caller's module: once the buffers have grown, pairing allocates nothing.
  ///
  /// - Parameters:
  ///   - source1: The first source.
  ///   - source2: The second source.
  ///   - resultSelector: Combines one element of each source.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  @inlinable
  public static func zip<Source1: ObservableType, Source2: ObservableType>(
    _ source1: Source1, _ source2: Source2,
    resultSelector: @escaping (Source1.Element, Source2.Element) throws -> Element,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let caller = CallerIsolation(isolation, api: "zip", file: file, line: line)
    let resultSelector = isolation == nil ? resultSelector : caller.checked(resultSelector)
    let first = source1.asObservable()
    let second = source2.asObservable()
    return Observable(
      kind: "zip", upstreams: [first.traceID, second.traceID], file: file, line: line
    ) { observer in
      typealias Queues = (RingQueue<Source1.Element>, RingQueue<Source2.Element>)
      let state = TypedCombineStateMachine<Queues, (Source1.Element, Source2.Element)>(
        empty: (RingQueue(), RingQueue()), count: 2, completesWhenOthersDone: false
      ) { queues in
        let values = (queues.0.popFirst()!, queues.1.popFirst()!)
        return (values, (queues.0.isEmpty ? 0 : 0b1) | (queues.1.isEmpty ? 0 : 0b10))
      }
      let sink = TypedCombineSink(downstream: observer, state: state) { values in
        try resultSelector(values.0, values.1)
      }
      sink.subscribe(0, to: first) { $0.0.append($1) }
      sink.subscribe(1, to: second) { $0.1.append($1) }
      return sink
    }
  }

  /// Pairs the n-th elements of three sources and combines them with `resultSelector`.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<String>(), c = PublishSubject<Bool>()
  /// _ = Observable.zip(a, b, c) { "\($0)\($1)\($2)" }.subscribe(onNext: { print($0) })
  /// a.onNext(1); a.onNext(2); b.onNext("x"); c.onNext(true)
  /// // Prints "1xtrue"
  /// ```
  ///
  /// Elements wait in per-source buffers until every source has one. The sources are subscribed
  /// in order. Completes when every source completed; fails with the first error, or when
  /// `resultSelector` throws, disposing every source. A source's subscription is disposed when
  /// it completes; disposal disposes them all. Sources may emit on different threads:
  /// `resultSelector` and the observer run one at a time, never under a lock. As with two
  /// sources, pairing allocates nothing once the buffers have grown.
  ///
  /// - Parameters:
  ///   - source1: The first source.
  ///   - source2: The second source.
  ///   - source3: The third source.
  ///   - resultSelector: Combines one element of each source.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  @inlinable
  public static func zip<
    Source1: ObservableType, Source2: ObservableType, Source3: ObservableType
  >(
    _ source1: Source1, _ source2: Source2, _ source3: Source3,
    resultSelector:
      @escaping (Source1.Element, Source2.Element, Source3.Element) throws -> Element,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let caller = CallerIsolation(isolation, api: "zip", file: file, line: line)
    let select: ((Source1.Element, Source2.Element, Source3.Element)) throws -> Element = {
      try resultSelector($0.0, $0.1, $0.2)
    }
    let selector = isolation == nil ? select : caller.checked(select)
    let first = source1.asObservable()
    let second = source2.asObservable()
    let third = source3.asObservable()
    return Observable(
      kind: "zip", upstreams: [first.traceID, second.traceID, third.traceID], file: file,
      line: line
    ) { observer in
      typealias Queues = (
        RingQueue<Source1.Element>, RingQueue<Source2.Element>, RingQueue<Source3.Element>
      )
      typealias Values = (Source1.Element, Source2.Element, Source3.Element)
      let state = TypedCombineStateMachine<Queues, Values>(
        empty: (RingQueue(), RingQueue(), RingQueue()), count: 3,
        completesWhenOthersDone: false
      ) { queues in
        let values = (queues.0.popFirst()!, queues.1.popFirst()!, queues.2.popFirst()!)
        let filled =
          (queues.0.isEmpty ? 0 : 0b1) | (queues.1.isEmpty ? 0 : 0b10)
          | (queues.2.isEmpty ? 0 : 0b100)
        return (values, filled)
      }
      let sink = TypedCombineSink(downstream: observer, state: state, resultSelector: selector)
      sink.subscribe(0, to: first) { $0.0.append($1) }
      sink.subscribe(1, to: second) { $0.1.append($1) }
      sink.subscribe(2, to: third) { $0.2.append($1) }
      return sink
    }
  }

  /// Pairs the n-th elements of four or more sources and combines them with `resultSelector`.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<Int>()
  /// let c = PublishSubject<Int>(), d = PublishSubject<Int>()
  /// _ = Observable.zip(a, b, c, d) { $0 + $1 + $2 + $3 }.subscribe(onNext: { print($0) })
  /// a.onNext(1); a.onNext(2); b.onNext(10); c.onNext(100); d.onNext(1000)
  /// // Prints "1111"
  /// ```
  ///
  /// Takes any number of sources (RxSwift has overloads for 2 to 8); two and three sources use
  /// the typed overloads above, this one serves more, and code that forwards a parameter pack
  /// (`Single.zip`). It keeps the elements boxed, which costs allocations per element. Elements
  /// wait in per-source buffers until every source has one. The sources are subscribed in order. As in
  /// RxSwift, completes when every source completed (a source that completed with nothing
  /// buffered does not end the sequence by itself); fails with the first error, or when
  /// `resultSelector` throws, disposing every source. A source's subscription is disposed when it
  /// completes; disposal disposes them all. Sources may emit on different threads:
  /// `resultSelector` and the observer run one at a time, never under a lock.
  ///
  /// - Parameters:
  ///   - source1: The first source.
  ///   - source2: The second source.
  ///   - sources: The further sources, if any.
  ///   - resultSelector: Combines one element of each source.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public static func zip<
    Source1: ObservableType, Source2: ObservableType, each Source: ObservableType
  >(
    _ source1: Source1, _ source2: Source2, _ sources: repeat each Source,
    resultSelector:
      @escaping (Source1.Element, Source2.Element, repeat (each Source).Element)
      throws -> Element,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let caller = CallerIsolation(isolation, api: "zip", file: file, line: line)
    let select = { (values: ContiguousArray<Any>) throws -> Element in
      var reader = PackReader(values)
      return try resultSelector(
        reader.take(Source1.Element.self), reader.take(Source2.Element.self),
        repeat reader.take((each Source).Element.self))
    }
    var erased = [PackSupport.erase(source1), PackSupport.erase(source2)]
    for source in repeat each sources { erased.append(PackSupport.erase(source)) }
    return CombineSink.observable(
      kind: "zip", mode: .zip(completesWhenOthersDone: false), upstreams: erased.map(\.traceID),
      subscribers: erased.map(\.subscribe), file: file, line: line,
      resultSelector: isolation == nil ? select : caller.checked(select))
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
  /// - Parameters:
  ///   - collection: The sources, subscribed in the collection's order.
  ///   - resultSelector: Receives one element of each source, in the collection's order.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public static func zip<Sources: Collection>(
    _ collection: Sources,
    resultSelector: @escaping ([Sources.Element.Element]) throws -> Element,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Sources.Element: ObservableType {
    let caller = CallerIsolation(isolation, api: "zip", file: file, line: line)
    let resultSelector = isolation == nil ? resultSelector : caller.checked(resultSelector)
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
  /// Completes and fails as ``zip(_:resultSelector:isolation:file:line:)`` over a collection; disposal
  /// disposes every source.
  public static func zip<Sources: Collection>(
    _ collection: Sources, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<[Element]>
  where Sources.Element: ObservableType, Sources.Element.Element == Element {
    Observable<[Element]>.zip(collection, resultSelector: { $0 }, file: file, line: line)
  }
}

extension ObservableType where Element == Any {
  /// Emits pairs of the n-th elements of two sources.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<String>()
  /// _ = Observable.zip(a, b).subscribe(onNext: { print($0) })
  /// a.onNext(1); a.onNext(2); b.onNext("x")
  /// // Prints "(1, "x")"
  /// ```
  ///
  /// Completes when both sources completed; fails with the first error, disposing both sources.
  /// Disposal disposes both sources. Typed and specialized as
  /// ``ObservableType/zip(_:_:resultSelector:isolation:file:line:)``.
  @inlinable
  public static func zip<Source1: ObservableType, Source2: ObservableType>(
    _ source1: Source1, _ source2: Source2, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<(Source1.Element, Source2.Element)> {
    Observable<(Source1.Element, Source2.Element)>.zip(
      source1, source2, resultSelector: { ($0, $1) }, file: file, line: line)
  }

  /// Emits triples of the n-th elements of three sources.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<String>(), c = PublishSubject<Bool>()
  /// _ = Observable.zip(a, b, c).subscribe(onNext: { print($0) })
  /// a.onNext(1); b.onNext("x"); c.onNext(true)
  /// // Prints "(1, "x", true)"
  /// ```
  ///
  /// Completes when every source completed; fails with the first error, disposing every source.
  /// Disposal disposes every source.
  @inlinable
  public static func zip<
    Source1: ObservableType, Source2: ObservableType, Source3: ObservableType
  >(
    _ source1: Source1, _ source2: Source2, _ source3: Source3,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<(Source1.Element, Source2.Element, Source3.Element)> {
    return Observable<(Source1.Element, Source2.Element, Source3.Element)>.zip(
      source1, source2, source3, resultSelector: { ($0, $1, $2) }, file: file, line: line)
  }

  /// Emits tuples of the n-th elements of four or more sources.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<String>()
  /// let c = PublishSubject<Bool>(), d = PublishSubject<Double>()
  /// _ = Observable.zip(a, b, c, d).subscribe(onNext: { print($0) })
  /// a.onNext(1); b.onNext("x"); c.onNext(true); d.onNext(0.5)
  /// // Prints "(1, "x", true, 0.5)"
  /// ```
  ///
  /// Two and three sources use the typed overloads above; this one serves more, and code that
  /// forwards a parameter pack, and keeps the elements boxed. Completes when every source
  /// completed; fails with the first error, disposing every source. Disposal disposes every
  /// source.
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
