#if canImport(XCTest)
  public import Streams
  import XCTest

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Fails the test with a readable diff when two recordings differ (RxTest's overload).
  ///
  /// ```swift
  /// XCTAssertEqual(res.events, [.next(210, 10), .completed(300)])
  /// // On failure: "recorded events differ (- expected, + actual): ..."
  /// ```
  ///
  /// The first argument is shown as the actual recording, the second as the expected one.
  /// Elements compare with `==`, errors with ``/Streams/errorsMatch(_:_:)``.
  public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [Recorded<Event<Element>>], _ rhs: [Recorded<Event<Element>>],
    file: StaticString = #filePath, line: UInt = #line
  ) {
    guard let difference = recordedEventsDifference(actual: lhs, expected: rhs) else { return }
    XCTFail(difference, file: file, line: line)
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Fails the test with a readable diff when two recordings of non-`Equatable` elements differ;
  /// `elementsEqual` compares elements.
  ///
  /// ```swift
  /// XCTAssertEqual(res.events, [.next(210, Point(x: 1))]) { $0.x == $1.x }
  /// ```
  public func XCTAssertEqual<Element>(
    _ lhs: [Recorded<Event<Element>>], _ rhs: [Recorded<Event<Element>>],
    by elementsEqual: (Element, Element) -> Bool, file: StaticString = #filePath,
    line: UInt = #line
  ) {
    guard
      let difference = recordedEventsDifference(actual: lhs, expected: rhs, by: elementsEqual)
    else { return }
    XCTFail(difference, file: file, line: line)
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Fails the test with a readable diff when two event lists differ (RxTest's overload).
  ///
  /// ```swift
  /// XCTAssertEqual(events, [.next(1), .completed])
  /// ```
  public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [Event<Element>], _ rhs: [Event<Element>], file: StaticString = #filePath,
    line: UInt = #line
  ) {
    guard lhs != rhs else { return }
    let text = Difference.lines(
      title: "events differ (- expected, + actual):", expected: rhs, actual: lhs,
      equal: { $0 == $1 })
    XCTFail(text, file: file, line: line)
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Fails the test with a readable diff when two lists of ``/Streams/SingleEvent``s differ
  /// (RxTest's overload).
  ///
  /// ```swift
  /// XCTAssertEqual(events, [.success(1)])
  /// ```
  ///
  /// Elements compare with `==`, errors with ``/Streams/errorsMatch(_:_:)``.
  public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [SingleEvent<Element>], _ rhs: [SingleEvent<Element>],
    file: StaticString = #filePath, line: UInt = #line
  ) {
    guard let text = traitEventsDifference(lhs, rhs, equal: { $0 == $1 }) else { return }
    XCTFail(text, file: file, line: line)
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Fails the test with a readable diff when two lists of ``/Streams/MaybeEvent``s differ
  /// (RxTest's overload).
  ///
  /// ```swift
  /// XCTAssertEqual(events, [.completed])
  /// ```
  public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [MaybeEvent<Element>], _ rhs: [MaybeEvent<Element>],
    file: StaticString = #filePath, line: UInt = #line
  ) {
    guard let text = traitEventsDifference(lhs, rhs, equal: { $0 == $1 }) else { return }
    XCTFail(text, file: file, line: line)
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Fails the test with a readable diff when two lists of ``/Streams/CompletableEvent``s differ
  /// (RxTest's overload).
  ///
  /// ```swift
  /// XCTAssertEqual(events, [.completed])
  /// ```
  public func XCTAssertEqual(
    _ lhs: [CompletableEvent], _ rhs: [CompletableEvent],
    file: StaticString = #filePath, line: UInt = #line
  ) {
    guard let text = traitEventsDifference(lhs, rhs, equal: { $0 == $1 }) else { return }
    XCTFail(text, file: file, line: line)
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Fails unless `stream` holds exactly `elements` as `.next` events and no terminal event;
  /// times are ignored (RxTest's `XCTAssertRecordedElements`).
  ///
  /// ```swift
  /// XCTAssertRecordedElements(res.events, [1, 2, 3])
  /// ```
  public func XCTAssertRecordedElements<Element: Equatable>(
    _ stream: [Recorded<Event<Element>>], _ elements: [Element], file: StaticString = #filePath,
    line: UInt = #line
  ) {
    guard let failure = recordedElementsFailure(stream, elements) else { return }
    XCTFail(failure, file: file, line: line)
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Runs `body` and fails the test when it leaves Streams objects alive that it made (see
  /// ``LeakCheck``).
  ///
  /// ```swift
  /// XCTAssertNoLeaks {
  ///   let bag = DisposeBag()
  ///   PublishSubject<Int>().subscribe(onNext: { _ in }).disposed(by: bag)
  /// }
  /// ```
  ///
  /// - Returns: What `body` returns; rethrows what it throws.
  @discardableResult
  public func XCTAssertNoLeaks<Result>(
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath,
    line: UInt = #line, _ body: () throws -> Result
  ) rethrows -> Result {
    let (result, leaked) = try LeakCheck.measure(body)
    let comment = message()
    if let text = LeakCheck.message(leaked: leaked, comment: comment.isEmpty ? nil : comment) {
      XCTFail(text, file: file, line: line)
    }
    return result
  }
#endif

/// The failure text of the recorded-elements assertions, or `nil` when they pass.
func recordedElementsFailure<Element: Equatable>(
  _ stream: [Recorded<Event<Element>>], _ elements: [Element]
) -> String? {
  if let stop = stream.first(where: { $0.value.isStopEvent }) {
    return "a terminal event was recorded where only elements were expected: \(stop)"
  }
  let actual = stream.compactMap(\.value.element)
  guard actual != elements else { return nil }
  return Difference.lines(
    title: "recorded elements differ (- expected, + actual):", expected: elements,
    actual: actual, equal: ==)
}

/// The failure text of the trait-event assertions (`actual` first, as XCTest shows it), or `nil`
/// when the lists are equal.
func traitEventsDifference<Event>(
  _ actual: [Event], _ expected: [Event], equal: (Event, Event) -> Bool
) -> String? {
  if actual.count == expected.count && zip(actual, expected).allSatisfy(equal) { return nil }
  return Difference.lines(
    title: "events differ (- expected, + actual):", expected: expected, actual: actual,
    equal: equal)
}
