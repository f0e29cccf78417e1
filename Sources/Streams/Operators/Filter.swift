extension ObservableType {
  /// Emits only the elements that satisfy `predicate`.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3, 4).filter { $0.isMultiple(of: 2) }.subscribe(onNext: { print($0) })
  /// // Prints "2", "4"
  /// ```
  ///
  /// Completes and fails when the source does; a throw from `predicate` becomes `.error` and
  /// disposes the source. Disposal disposes the source.
  @inlinable
  public func filter(
    _ predicate: @escaping (Element) throws -> Bool,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let caller = CallerIsolation(isolation, api: "filter", file: file, line: line)
    let predicate = isolation == nil ? predicate : caller.checked(predicate)
    return stage(FilterStep(predicate), kind: "filter", file: file, line: line)
  }
}
