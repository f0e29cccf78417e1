extension Infallible {
  /// An `Infallible` that emits `element` and completes.
  ///
  /// ```swift
  /// _ = Infallible.just(1).subscribe(onNext: { print($0) })
  /// // Prints "1"
  /// ```
  public static func just(
    _ element: Element, file: StaticString = #fileID, line: UInt = #line
  ) -> Infallible<Element> {
    Infallible(Observable.just(element, file: file, line: line))
  }

  /// An `Infallible` that completes at once.
  ///
  /// ```swift
  /// _ = Infallible<Int>.empty().subscribe(onCompleted: { print("done") })
  /// // Prints "done"
  /// ```
  public static func empty(file: StaticString = #fileID, line: UInt = #line) -> Infallible<Element>
  {
    Infallible(Observable.empty(file: file, line: line))
  }

  /// An `Infallible` that never emits nor completes.
  ///
  /// ```swift
  /// let idle = Infallible<Int>.never()  // ------
  /// ```
  public static func never(file: StaticString = #fileID, line: UInt = #line) -> Infallible<Element>
  {
    Infallible(Observable.never(file: file, line: line))
  }

  /// An `Infallible` that emits `elements` in order, then completes.
  ///
  /// ```swift
  /// _ = Infallible.of(1, 2, 3).subscribe(onNext: { print($0) })
  /// // Prints "1", "2", "3"
  /// ```
  ///
  /// Emits on the trampoline of the subscribing thread, as `Observable.of` does.
  public static func of(
    _ elements: Element..., file: StaticString = #fileID, line: UInt = #line
  ) -> Infallible<Element> {
    from(elements, file: file, line: line)
  }

  /// An `Infallible` that emits the elements of `array` in order, then completes.
  ///
  /// ```swift
  /// _ = Infallible.from([1, 2]).subscribe(onNext: { print($0) })
  /// // Prints "1", "2"
  /// ```
  ///
  /// Emits on the trampoline of the subscribing thread, as `Observable.from` does.
  public static func from(
    _ array: [Element], file: StaticString = #fileID, line: UInt = #line
  ) -> Infallible<Element> {
    from(sequence: array, file: file, line: line)
  }

  /// An `Infallible` that emits the elements of `sequence` in order, then completes.
  ///
  /// ```swift
  /// _ = Infallible.from(1...3).subscribe(onNext: { print($0) })
  /// // Prints "1", "2", "3"
  /// ```
  ///
  /// Iterates `sequence` again for every subscription, on the trampoline of the subscribing
  /// thread, as `Observable.from` does.
  public static func from<S: Sequence>(
    _ sequence: S, file: StaticString = #fileID, line: UInt = #line
  ) -> Infallible<Element> where S.Element == Element {
    from(sequence: sequence, file: file, line: line)
  }

  private static func from<S: Sequence>(
    sequence: S, file: StaticString, line: UInt
  ) -> Infallible<Element> where S.Element == Element {
    Infallible(Observable.from(sequence, file: file, line: line))
  }

  /// Calls `factory` for every subscription and subscribes to the `Infallible` it returns.
  ///
  /// ```swift
  /// let now = Infallible<Int>.deferred { .just(clock.now) }
  /// ```
  public static func deferred(
    file: StaticString = #fileID, line: UInt = #line,
    _ factory: @escaping () -> Infallible<Element>
  ) -> Infallible<Element> {
    Infallible(Observable.deferred(file: file, line: line) { factory().source })
  }
}

extension InfallibleType {
  /// Transforms each element with `transform`.
  ///
  /// ```swift
  /// _ = Infallible.of(1, 2).map { $0 * 10 }.subscribe(onNext: { print($0) })
  /// // Prints "10", "20"
  /// ```
  ///
  /// Completes when the source does. Disposal disposes the source.
  public func map<Result>(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ transform: @escaping (Element) -> Result
  ) -> Infallible<Result> {
    Infallible<Result>(asObservable().map(transform, isolation: isolation, file: file, line: line))
  }

  /// Emits only the elements that satisfy `predicate`.
  ///
  /// ```swift
  /// _ = Infallible.of(1, 2, 3).filter { $0 != 2 }.subscribe(onNext: { print($0) })
  /// // Prints "1", "3"
  /// ```
  ///
  /// Completes when the source does. Disposal disposes the source.
  public func filter(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ predicate: @escaping (Element) -> Bool
  ) -> Infallible<Element> {
    Infallible(asObservable().filter(predicate, isolation: isolation, file: file, line: line))
  }

  /// Transforms each element and drops the `nil` results.
  ///
  /// ```swift
  /// _ = Infallible.of("1", "x", "3").compactMap { Int($0) }.subscribe(onNext: { print($0) })
  /// // Prints "1", "3"
  /// ```
  ///
  /// Completes when the source does. Disposal disposes the source.
  public func compactMap<Result>(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ transform: @escaping (Element) -> Result?
  ) -> Infallible<Result> {
    Infallible<Result>(
      asObservable().compactMap(transform, isolation: isolation, file: file, line: line))
  }

  /// Subscribes to the `Infallible` `selector` returns for each element and merges them.
  ///
  /// ```swift
  /// let details = ids.flatMap { id in loadDetails(id) }
  /// // ids: -a--b|   loadDetails: -x|   details: --x--x|
  /// ```
  ///
  /// Completes when the source and every inner sequence have completed. Disposal disposes all.
  public func flatMap<Source: InfallibleType>(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ selector: @escaping (Element) -> Source
  ) -> Infallible<Source.Element> {
    Infallible<Source.Element>(
      asObservable().flatMap(selector, isolation: isolation, file: file, line: line))
  }

  /// Subscribes to the `Infallible` `selector` returns for each element, disposing the previous
  /// one, and forwards only the latest.
  ///
  /// ```swift
  /// let results = queries.flatMapLatest { query in search(query) }
  /// // queries: -a--b|   search(a): ----x|   search(b): -y|   results: -----y|
  /// ```
  ///
  /// Completes when the source and the latest inner sequence have completed. Disposal disposes
  /// both.
  public func flatMapLatest<Source: InfallibleType>(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ selector: @escaping (Element) -> Source
  ) -> Infallible<Source.Element> {
    Infallible<Source.Element>(
      asObservable().flatMapLatest(selector, isolation: isolation, file: file, line: line))
  }

  /// Drops elements equal, according to `comparer`, to the previous element emitted.
  ///
  /// ```swift
  /// _ = Infallible.of(1, 1, 2).distinctUntilChanged { $0 == $1 }.subscribe(onNext: { print($0) })
  /// // Prints "1", "2"
  /// ```
  ///
  /// Completes when the source does. Disposal disposes the source.
  public func distinctUntilChanged(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ comparer: @escaping (Element, Element) -> Bool
  ) -> Infallible<Element> {
    Infallible(
      asObservable().distinctUntilChanged(comparer, isolation: isolation, file: file, line: line))
  }

  /// Drops elements whose key equals the key of the previous element emitted.
  ///
  /// ```swift
  /// _ = Infallible.of("a", "A", "b").distinctUntilChanged { $0.lowercased() }
  ///   .subscribe(onNext: { print($0) })
  /// // Prints "a", "b"
  /// ```
  ///
  /// Completes when the source does. Disposal disposes the source.
  public func distinctUntilChanged<Key: Equatable>(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ keySelector: @escaping (Element) -> Key
  ) -> Infallible<Element> {
    Infallible(
      asObservable().distinctUntilChanged(keySelector, isolation: isolation, file: file, line: line)
    )
  }
}

extension InfallibleType where Element: Equatable {
  /// Drops elements equal to the previous element emitted.
  ///
  /// ```swift
  /// _ = Infallible.of(1, 1, 2, 1).distinctUntilChanged().subscribe(onNext: { print($0) })
  /// // Prints "1", "2", "1"
  /// ```
  ///
  /// Completes when the source does. Disposal disposes the source.
  public func distinctUntilChanged(
    file: StaticString = #fileID, line: UInt = #line
  ) -> Infallible<Element> {
    Infallible(
      asObservable().distinctUntilChanged(file: file, line: line))
  }
}
