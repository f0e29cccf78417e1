extension ObservableType where Element: Equatable {
  /// Emits an element only when it differs (`!=`) from the previous emitted element.
  ///
  /// ```swift
  /// _ = Observable.of(1, 1, 2, 2, 1).distinctUntilChanged().subscribe(onNext: { print($0) })
  /// // Prints "1", "2", "1"
  /// ```
  ///
  /// The first element always passes. Completes and fails when the source does. Disposal
  /// disposes the source.
  ///
  /// - Returns: The source without consecutive duplicates.
  @inlinable
  public func distinctUntilChanged(file: StaticString = #fileID, line: UInt = #line)
    -> Observable<Element>
  {
    distinctUntilChanged(kind: "distinctUntilChanged", { $0 }, comparer: ==, file: file, line: line)
  }
}

extension ObservableType {
  /// Emits an element only when its key differs (`!=`) from the key of the previous emitted
  /// element.
  ///
  /// ```swift
  /// _ = Observable.of("a", "b", "ab", "cd", "e").distinctUntilChanged { $0.count }
  ///   .subscribe(onNext: { print($0) })
  /// // Prints "a", "ab", "e"
  /// ```
  ///
  /// The first element always passes. Completes and fails when the source does; a throw from
  /// `keySelector` becomes `.error` and disposes the source. Disposal disposes the source.
  ///
  /// - Parameters:
  ///   - keySelector: Returns the key an element is compared by.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: The source without consecutive elements of equal key.
  @inlinable
  public func distinctUntilChanged<Key: Equatable>(
    _ keySelector: @escaping (Element) throws -> Key,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let caller = CallerIsolation(isolation, api: "distinctUntilChanged", file: file, line: line)
    let keySelector = isolation == nil ? keySelector : caller.checked(keySelector)
    return distinctUntilChanged(
      kind: "distinctUntilChanged", keySelector, comparer: ==, file: file, line: line)
  }

  /// Emits an element only when `comparer` says it differs from the previous emitted element.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 10, 11).distinctUntilChanged { abs($0 - $1) < 5 }
  ///   .subscribe(onNext: { print($0) })
  /// // Prints "1", "10"
  /// ```
  ///
  /// `comparer(previous, element)` returns `true` when the two are equal; the element is then
  /// dropped and `previous` stays the reference. The first element always passes. Completes and
  /// fails when the source does; a throw from `comparer` becomes `.error` and disposes the
  /// source. Disposal disposes the source.
  ///
  /// - Parameters:
  ///   - comparer: Returns `true` when two elements count as equal.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: The source without consecutive elements that `comparer` finds equal.
  @inlinable
  public func distinctUntilChanged(
    _ comparer: @escaping (Element, Element) throws -> Bool,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let caller = CallerIsolation(isolation, api: "distinctUntilChanged", file: file, line: line)
    let comparer = isolation == nil ? comparer : caller.checked(comparer)
    return distinctUntilChanged(
      kind: "distinctUntilChanged", { $0 }, comparer: comparer, file: file, line: line)
  }

  /// Emits an element only when `comparer` says its key differs from the key of the previous
  /// emitted element.
  ///
  /// ```swift
  /// _ = Observable.of("a", "B", "b", "c")
  ///   .distinctUntilChanged({ $0.lowercased() }, comparer: { $0 == $1 })
  ///   .subscribe(onNext: { print($0) })
  /// // Prints "a", "B", "c"
  /// ```
  ///
  /// The first element always passes. Completes and fails when the source does; a throw from
  /// `keySelector` or `comparer` becomes `.error` and disposes the source. Disposal disposes the
  /// source.
  ///
  /// - Parameters:
  ///   - keySelector: Returns the key an element is compared by.
  ///   - comparer: Returns `true` when two keys count as equal.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: The source without consecutive elements of equal key.
  @inlinable
  public func distinctUntilChanged<Key>(
    _ keySelector: @escaping (Element) throws -> Key,
    comparer: @escaping (Key, Key) throws -> Bool,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let caller = CallerIsolation(isolation, api: "distinctUntilChanged", file: file, line: line)
    let keySelector = isolation == nil ? keySelector : caller.checked(keySelector)
    let comparer = isolation == nil ? comparer : caller.checked(comparer)
    return distinctUntilChanged(
      kind: "distinctUntilChanged", keySelector, comparer: comparer, file: file, line: line)
  }

  /// Emits an element only when the property at `keyPath` differs (`!=`) from that of the
  /// previous emitted element.
  ///
  /// ```swift
  /// struct User { var name: String; var age: Int }
  /// _ = Observable.of(User(name: "a", age: 1), User(name: "a", age: 2), User(name: "b", age: 2))
  ///   .distinctUntilChanged(at: \.name)
  ///   .subscribe(onNext: { print($0.age) })
  /// // Prints "1", "2"
  /// ```
  ///
  /// The first element always passes. Completes and fails when the source does. Disposal
  /// disposes the source.
  ///
  /// - Parameters:
  ///   - keyPath: The property elements are compared by.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: The source without consecutive elements of equal property.
  @inlinable
  public func distinctUntilChanged<Property: Equatable>(
    at keyPath: KeyPath<Element, Property>,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    distinctUntilChanged(
      kind: "distinctUntilChanged", { $0[keyPath: keyPath] }, comparer: ==, file: file,
      line: line)
  }

  /// The one implementation behind every `distinctUntilChanged` form: keeps the key of the last
  /// emitted element, as RxSwift does.
  @inlinable
  func distinctUntilChanged<Key>(
    kind: StaticString,
    _ keySelector: @escaping (Element) throws -> Key,
    comparer: @escaping (Key, Key) throws -> Bool,
    file: StaticString, line: UInt
  ) -> Observable<Element> {
    stage(
      DistinctStep(keySelector, comparer: comparer), kind: kind, file: file, line: line)
  }
}

/// `distinctUntilChanged`: forwards an element whose key differs from the last forwarded one's.
@usableFromInline
struct DistinctStep<Element, Key>: StageStep {
  @usableFromInline let keySelector: (Element) throws -> Key
  @usableFromInline let comparer: (Key, Key) throws -> Bool
  @usableFromInline var currentKey: Key?

  @inlinable
  init(
    _ keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool
  ) {
    self.keySelector = keySelector
    self.comparer = comparer
  }

  @inlinable
  mutating func apply(_ input: Element) throws -> StageOutput<Element> {
    let key = try keySelector(input)
    if let currentKey, try comparer(currentKey, key) { return .skip }
    currentKey = key
    return .emit(input)
  }
}
