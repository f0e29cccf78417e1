extension ObservableType where Element: FixedWidthInteger {
  /// Emits `count` consecutive integers starting at `start`, then completes.
  ///
  /// ```swift
  /// _ = Observable.range(start: 3, count: 3).subscribe { print($0) }
  /// // Prints "next(3)", "next(4)", "next(5)", "completed"
  /// ```
  ///
  /// One step per element on the trampoline of the subscribing thread (RxSwift's default
  /// ``CurrentThreadScheduler``); completes after the last element (at once when `count` is 0);
  /// never fails; disposal stops it before the next element. A negative `count`, or a range that
  /// would overflow `Element`, stops the program with a message naming the misuse.
  @inlinable
  public static func range(
    start: Element, count: Element, scheduler: CurrentThreadScheduler = .instance,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    checkRange(start: start, count: count)
    return Observable.onTrampoline(kind: "range", file: file, line: line) {
      RangeSteps(start: start, count: count)
    }
  }

  /// Emits `count` consecutive integers starting at `start`, one action on `scheduler` each, then
  /// completes in a last action.
  ///
  /// ```swift
  /// // TestScheduler, subscribed at 200:
  /// // Observable.range(start: 1, count: 2, scheduler: scheduler)
  /// //   -> next(201, 1), next(202, 2), completed(203)
  /// ```
  ///
  /// Never fails; disposal cancels the pending action. A negative `count`, or a range that would
  /// overflow `Element`, stops the program with a message naming the misuse.
  @_disfavoredOverload
  public static func range(
    start: Element, count: Element, scheduler: any ImmediateSchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Element: Sendable {
    checkRange(start: start, count: count)
    return Observable.onScheduler(kind: "range", file: file, line: line, scheduler: scheduler) {
      RangeSteps(start: start, count: count)
    }
  }

  @usableFromInline
  static func checkRange(start: Element, count: Element) {
    if count < 0 { streamsStop("Observable.range: count can't be negative (got \(count))") }
    if count > 0 {
      let (_, overflow) = start.addingReportingOverflow(count - 1)
      if overflow {
        streamsStop("Observable.range: start \(start) + count \(count) overflows \(Element.self)")
      }
    }
  }
}

/// The steps of `range`: `start`, `start + 1`, ... `count` times, then `.completed`.
@usableFromInline
struct RangeSteps<Element: FixedWidthInteger>: EmissionSteps {
  @usableFromInline let start: Element
  @usableFromInline let count: Element
  @usableFromInline var index: Element = 0

  @inlinable
  init(start: Element, count: Element) {
    self.start = start
    self.count = count
  }

  /// `next()` only adds: nothing it does can dispose the subscription.
  @inlinable
  static var nextRunsNoUserCode: Bool { true }

  @inlinable
  mutating func next() -> Event<Element> {
    guard index < count else { return .completed }
    defer { index += 1 }
    return .next(start + index)
  }
}
