#if canImport(Testing)
  public import Streams
  public import Testing

  /// Records a Swift Testing issue with a readable diff when `actual` differs from `expected`.
  ///
  /// ```swift
  /// let res = scheduler.start { xs.map { $0 * 10 } }
  /// expectEvents(res.events, [.next(210, 10), .completed(300)])
  /// // On failure: "recorded events differ (- expected, + actual): ..." with marble lines
  /// ```
  ///
  /// - Returns: `true` when the recordings are equal.
  @discardableResult
  public func expectEvents<Element: Equatable>(
    _ actual: [Recorded<Event<Element>>], _ expected: [Recorded<Event<Element>>],
    _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    expectEvents(actual, expected, by: ==, comment, sourceLocation: sourceLocation)
  }

  /// ``expectEvents(_:_:_:sourceLocation:)`` for elements that are not `Equatable`:
  /// `elementsEqual` compares elements; errors compare with ``/Streams/errorsMatch(_:_:)``.
  ///
  /// ```swift
  /// expectEvents(res.events, [.next(210, Point(x: 1))]) { $0.x == $1.x }
  /// ```
  @discardableResult
  public func expectEvents<Element>(
    _ actual: [Recorded<Event<Element>>], _ expected: [Recorded<Event<Element>>],
    by elementsEqual: (Element, Element) -> Bool, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    guard
      let difference = recordedEventsDifference(
        actual: actual, expected: expected, by: elementsEqual)
    else { return true }
    Issue.record(joined(comment, difference), sourceLocation: sourceLocation)
    return false
  }

  /// Records an issue unless `stream` holds exactly `elements` as `.next` events and no terminal
  /// event; times are ignored (RxTest's `XCTAssertRecordedElements`).
  ///
  /// ```swift
  /// expectRecordedElements(res.events, [1, 2, 3])
  /// ```
  @discardableResult
  public func expectRecordedElements<Element: Equatable>(
    _ stream: [Recorded<Event<Element>>], _ elements: [Element], _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    guard let failure = recordedElementsFailure(stream, elements) else { return true }
    Issue.record(joined(comment, failure), sourceLocation: sourceLocation)
    return false
  }

  /// Runs `body` and records an issue when it leaves Streams objects alive that it made (see
  /// ``LeakCheck``).
  ///
  /// ```swift
  /// struct LeakTests {
  ///   @Test func disposesEverything() {
  ///     expectNoLeaks {
  ///       let bag = DisposeBag()
  ///       PublishSubject<Int>().subscribe(onNext: { _ in }).disposed(by: bag)
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// - Returns: What `body` returns; rethrows what it throws.
  @discardableResult
  public func expectNoLeaks<Result>(
    _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Result
  ) rethrows -> Result {
    let (result, leaked) = try LeakCheck.measure(body)
    record(leaked: leaked, comment, sourceLocation)
    return result
  }

  /// The `async` form of ``expectNoLeaks(_:sourceLocation:_:)``: the tasks `body` creates count
  /// too.
  @discardableResult
  public func expectNoLeaks<Result>(
    _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
  ) async rethrows -> Result {
    let (result, leaked) = try await LeakCheck.measureAsync(body)
    record(leaked: leaked, comment, sourceLocation)
    return result
  }

  private func record(leaked: Int, _ comment: Comment?, _ sourceLocation: SourceLocation) {
    if let message = LeakCheck.message(leaked: leaked, comment: comment?.rawValue) {
      Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
  }

  private func joined(_ comment: Comment?, _ text: String) -> Comment {
    guard let comment else { return Comment(rawValue: text) }
    return Comment(rawValue: comment.rawValue + "\n" + text)
  }
#endif
