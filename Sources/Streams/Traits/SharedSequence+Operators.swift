extension SharedSequenceConvertibleType {
  /// Transforms each element with `transform`, on the main thread.
  ///
  /// ```swift
  /// let label = count.map { "\($0) items" }
  /// // count: 1-2-   label: "1 items"-"2 items"-
  /// ```
  ///
  /// The result is shared with the same strategy (a `Driver` stays a `Driver`). Completes when the
  /// source does.
  public func map<Result>(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ transform: @escaping (Element) -> Result
  ) -> SharedSequence<SharingStrategy, Result> {
    SharedSequence(asObservable().map(transform, isolation: isolation, file: file, line: line))
  }

  /// Emits only the elements that satisfy `predicate`.
  ///
  /// ```swift
  /// let positive = count.filter { $0 > 0 }
  /// ```
  ///
  /// Completes when the source does.
  public func filter(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ predicate: @escaping (Element) -> Bool
  ) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(asObservable().filter(predicate, isolation: isolation, file: file, line: line))
  }

  /// Transforms each element and drops the `nil` results.
  ///
  /// ```swift
  /// let numbers = text.compactMap { Int($0) }
  /// ```
  ///
  /// Completes when the source does.
  public func compactMap<Result>(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ transform: @escaping (Element) -> Result?
  ) -> SharedSequence<SharingStrategy, Result> {
    SharedSequence(
      asObservable().compactMap(transform, isolation: isolation, file: file, line: line))
  }

  /// Drops elements equal, according to `comparer`, to the previous element emitted.
  ///
  /// ```swift
  /// let rounded = progress.distinctUntilChanged { Int($0 * 10) == Int($1 * 10) }
  /// ```
  ///
  /// Completes when the source does.
  public func distinctUntilChanged(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ comparer: @escaping (Element, Element) -> Bool
  ) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(
      asObservable().distinctUntilChanged(comparer, isolation: isolation, file: file, line: line))
  }

  /// Drops elements whose key equals the key of the previous element emitted.
  ///
  /// ```swift
  /// let userChanges = session.distinctUntilChanged { $0.userID }
  /// ```
  ///
  /// Completes when the source does.
  public func distinctUntilChanged<Key: Equatable>(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ keySelector: @escaping (Element) -> Key
  ) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(
      asObservable().distinctUntilChanged(keySelector, isolation: isolation, file: file, line: line)
    )
  }

  /// Subscribes to the shared sequence `selector` returns for each element, disposing the
  /// previous one, and forwards only the latest.
  ///
  /// ```swift
  /// let results = query.flatMapLatest { api.search($0).asDriver(onErrorJustReturn: []) }
  /// // query: -a--b-   search(a): ----x   search(b): -y   results: -----y-
  /// ```
  ///
  /// Completes when the source and the latest inner sequence have completed. The result is
  /// shared with the inner sequences' strategy, as in RxCocoa.
  public func flatMapLatest<Sharing: SharingStrategyProtocol, Result>(
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line,
    _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>
  ) -> SharedSequence<Sharing, Result> {
    SharedSequence(
      asObservable().flatMapLatest(selector, isolation: isolation, file: file, line: line))
  }
}

extension SharedSequenceConvertibleType where Element: Equatable {
  /// Drops elements equal to the previous element emitted.
  ///
  /// ```swift
  /// let title = titles.distinctUntilChanged()
  /// // titles: a-a-b-a   title: a---b-a
  /// ```
  ///
  /// Completes when the source does.
  public func distinctUntilChanged(
    file: StaticString = #fileID, line: UInt = #line
  ) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(
      asObservable().distinctUntilChanged(file: file, line: line))
  }
}
