extension ObservableType {
  /// Pairs each element with its zero-based index in the sequence.
  ///
  /// ```swift
  /// _ = Observable.of("a", "b").enumerated().subscribe(onNext: { print($0.index, $0.element) })
  /// // Prints "0 a", "1 b"
  /// ```
  ///
  /// Every subscription counts from zero. Completes and fails when the source does; fails with
  /// ``RxError/overflow`` if the index would pass `Int.max`. Disposal disposes the source.
  ///
  /// - Returns: An observable of `(index, element)` pairs.
  public func enumerated(file: StaticString = #fileID, line: UInt = #line)
    -> Observable<(index: Int, element: Element)>
  {
    stage(EnumeratedStep(), kind: "enumerated", file: file, line: line)
  }
}

/// `enumerated()`: pairs each element with the count of those before it; fails once that count
/// would pass `Int.max`.
@usableFromInline
struct EnumeratedStep<Element>: StageStep {
  @usableFromInline var index = 0
  @usableFromInline var overflowed = false

  @inlinable
  init() {}

  @inlinable
  mutating func apply(_ input: Element) throws -> StageOutput<(index: Int, element: Element)> {
    if overflowed { throw RxError.overflow }
    let current = index
    if index == Int.max { overflowed = true } else { index += 1 }
    return .emit((index: current, element: input))
  }
}
