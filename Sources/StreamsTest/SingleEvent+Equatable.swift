public import Streams

// `SingleEvent` is `Result<Element, any Error>`, which cannot be `Equatable` (`any Error` is not,
// and the standard library's conformance needs an `Equatable` failure), so the comparisons RxTest
// provides are functions here, for the events and for arrays of them (what `#expect(a == b)` and
// `XCTAssertEqual` compare).

/// Compares two ``/Streams/SingleEvent``s: elements with `==`, errors with
/// ``/Streams/errorsMatch(_:_:)`` (RxTest's operator).
///
/// ```swift
/// print(SingleEvent.success(1) == .success(1))
/// // Prints "true"
/// ```
public func == <Element: Equatable>(lhs: SingleEvent<Element>, rhs: SingleEvent<Element>) -> Bool {
  switch (lhs, rhs) {
  case (.success(let l), .success(let r)): return l == r
  case (.failure(let l), .failure(let r)): return errorsMatch(l, r)
  default: return false
  }
}

/// The negation of `==` over ``/Streams/SingleEvent``s.
///
/// ```swift
/// print(SingleEvent.success(1) != .success(2))
/// // Prints "true"
/// ```
public func != <Element: Equatable>(lhs: SingleEvent<Element>, rhs: SingleEvent<Element>) -> Bool {
  !(lhs == rhs)
}

/// Compares two lists of ``/Streams/SingleEvent``s element by element, so that
/// `#expect(events == [.success(1)])` compiles.
///
/// ```swift
/// var events: [SingleEvent<Int>] = []
/// _ = Single.just(1).subscribe { events.append($0) }
/// #expect(events == [.success(1)])
/// ```
public func == <Element: Equatable>(lhs: [SingleEvent<Element>], rhs: [SingleEvent<Element>])
  -> Bool
{
  lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0 == $1 }
}

/// The negation of `==` over lists of ``/Streams/SingleEvent``s.
///
/// ```swift
/// print([SingleEvent.success(1)] != [.success(2)])
/// // Prints "true"
/// ```
public func != <Element: Equatable>(lhs: [SingleEvent<Element>], rhs: [SingleEvent<Element>])
  -> Bool
{
  !(lhs == rhs)
}
