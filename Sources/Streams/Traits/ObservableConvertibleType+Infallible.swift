extension ObservableConvertibleType {
  /// This sequence as an ``Infallible`` that emits `element` and completes instead of failing.
  ///
  /// ```swift
  /// let safe = search.results.asInfallible(onErrorJustReturn: [])
  /// // results: -a-#      safe: -a-([]|)
  /// ```
  ///
  /// Completes when the source completes or fails. Disposal disposes the source.
  public func asInfallible(
    onErrorJustReturn element: Element, file: StaticString = #fileID, line: UInt = #line
  ) -> Infallible<Element> {
    Infallible(
      asObservable().catchAndReturn(element, file: file, line: line))
  }

  /// This sequence as an ``Infallible`` that continues with `infallible` instead of failing.
  ///
  /// ```swift
  /// let safe = live.asInfallible(onErrorFallbackTo: cached)
  /// // live: -a-#   cached: -b|   safe: -a--b|
  /// ```
  ///
  /// Completes when the source or `infallible` completes. The source's subscription is disposed
  /// when `infallible` is subscribed; disposal disposes whichever runs.
  public func asInfallible(
    onErrorFallbackTo infallible: Infallible<Element>, file: StaticString = #fileID,
    line: UInt = #line
  ) -> Infallible<Element> {
    Infallible(
      asObservable().catch({ _ in infallible.source }, file: file, line: line))
  }

  /// This sequence as an ``Infallible`` that continues with the `Infallible` `onErrorRecover`
  /// returns for the error.
  ///
  /// ```swift
  /// let safe = live.asInfallible(onErrorRecover: { error in .just(.failed(error)) })
  /// ```
  ///
  /// Completes when the source or the recovery sequence completes. Disposal disposes whichever
  /// runs.
  public func asInfallible(
    onErrorRecover: @escaping (any Error) -> Infallible<Element>,
    isolation: (any Actor)? = #isolation, file: StaticString = #fileID, line: UInt = #line
  ) -> Infallible<Element> {
    Infallible(
      asObservable().catch(
        { onErrorRecover($0).source }, isolation: isolation, file: file, line: line))
  }
}

extension PublishRelay {
  /// The relay as an ``Infallible``: it never fails or completes.
  ///
  /// ```swift
  /// let taps: Infallible<Void> = tapRelay.asInfallible()
  /// ```
  public func asInfallible() -> Infallible<Element> { Infallible(asObservable()) }
}

extension BehaviorRelay {
  /// The relay as an ``Infallible`` that starts with the current value.
  ///
  /// ```swift
  /// let count: Infallible<Int> = countRelay.asInfallible()
  /// ```
  public func asInfallible() -> Infallible<Element> { Infallible(asObservable()) }
}

extension ReplayRelay {
  /// The relay as an ``Infallible`` that starts with the replayed elements.
  ///
  /// ```swift
  /// let log: Infallible<String> = logRelay.asInfallible()
  /// ```
  public func asInfallible() -> Infallible<Element> { Infallible(asObservable()) }
}
