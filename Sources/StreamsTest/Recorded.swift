public import Streams

/// Virtual time in ticks, as in RxTest.
public typealias TestTime = Int

/// A value recorded at a virtual time.
///
/// ```swift
/// let expected: [Recorded<Event<Int>>] = [.next(210, 1), .completed(300)]
/// print(expected)
/// // Prints "[next(1) @ 210, completed @ 300]"
/// ```
///
/// Recordings compare with `==` when the value is `Equatable`: same time and equal values. For
/// events, elements compare with `==` and errors with Streams' documented rule
/// (``/Streams/errorsMatch(_:_:)``: `==` when the error type is `Equatable`, otherwise same dynamic
/// type and same description), which behaves the same on Linux and Apple platforms. Elements that
/// are not `Equatable` compare with ``Swift/Array/isEqual(to:by:)``.
public struct Recorded<Value>: CustomDebugStringConvertible {
  /// The virtual time of the recording.
  public let time: TestTime
  /// The recorded value.
  public let value: Value

  /// Records `value` at `time`.
  public init(time: TestTime, value: Value) {
    self.time = time
    self.value = value
  }

  /// `"<value> @ <time>"`, for example `"next(1) @ 210"`.
  public var debugDescription: String { "\(value) @ \(time)" }
}

extension Recorded: CustomStringConvertible {
  /// The same text as ``debugDescription``.
  public var description: String { debugDescription }
}

extension Recorded: Sendable where Value: Sendable {}

extension Recorded: Equatable where Value: Equatable {}

extension Recorded {
  /// A `.next(element)` event at `time`.
  ///
  /// ```swift
  /// let xs = scheduler.createHotObservable([.next(210, 1)])
  /// ```
  public static func next<Element>(_ time: TestTime, _ element: Element) -> Recorded<Event<Element>>
  where Value == Event<Element> {
    Recorded(time: time, value: .next(element))
  }

  /// A `.completed` event at `time`; `type` helps inference where nothing else names the element.
  ///
  /// ```swift
  /// let xs = scheduler.createHotObservable([.completed(300, Int.self)])
  /// ```
  public static func completed<Element>(_ time: TestTime, _ type: Element.Type = Element.self)
    -> Recorded<Event<Element>>
  where Value == Event<Element> {
    Recorded(time: time, value: .completed)
  }

  /// An `.error(error)` event at `time`; `type` helps inference where nothing else names the
  /// element.
  ///
  /// ```swift
  /// let xs = scheduler.createHotObservable([.error(300, RxError.unknown, Int.self)])
  /// ```
  public static func error<Element>(
    _ time: TestTime, _ error: any Error, _ type: Element.Type = Element.self
  ) -> Recorded<Event<Element>>
  where Value == Event<Element> {
    Recorded(time: time, value: .error(error))
  }

  /// The arguments as an array, as RxTest's `Recorded.events(...)`: helps inference.
  ///
  /// ```swift
  /// let expected = Recorded.events(.next(210, 1), .completed(300))
  /// ```
  public static func events<Element>(_ recordedEvents: Recorded<Event<Element>>...)
    -> [Recorded<Event<Element>>]
  where Value == Event<Element> {
    recordedEvents
  }

  /// The argument, as RxTest's `Recorded.events(_:)`: helps inference.
  ///
  /// ```swift
  /// let expected = Recorded.events([.next(210, 1), .completed(300)])
  /// ```
  public static func events<Element>(_ recordedEvents: [Recorded<Event<Element>>])
    -> [Recorded<Event<Element>>]
  where Value == Event<Element> {
    recordedEvents
  }
}

extension Event {
  /// Compares two events, using `elementsEqual` for elements and ``/Streams/errorsMatch(_:_:)`` for
  /// errors.
  ///
  /// ```swift
  /// let a = Event<[Int]>.next([1, 2])
  /// print(a.isEqual(to: .next([1, 2]), by: ==))
  /// // Prints "true"
  /// ```
  public func isEqual(
    to other: Event<Element>, by elementsEqual: (Element, Element) throws -> Bool
  ) rethrows -> Bool {
    switch (self, other) {
    case (.next(let lhs), .next(let rhs)): return try elementsEqual(lhs, rhs)
    case (.completed, .completed): return true
    case (.error(let lhs), .error(let rhs)): return errorsMatch(lhs, rhs)
    default: return false
    }
  }
}

extension Recorded {
  /// Compares two recorded events: same time and ``Streams/Event/isEqual(to:by:)``.
  public func isEqual<Element>(
    to other: Recorded<Event<Element>>, by elementsEqual: (Element, Element) throws -> Bool
  ) rethrows -> Bool where Value == Event<Element> {
    guard time == other.time else { return false }
    return try value.isEqual(to: other.value, by: elementsEqual)
  }
}

extension Array {
  /// Compares two recordings whose elements are not `Equatable`: same length, and each pair has the
  /// same time and matching events (elements by `elementsEqual`, errors by
  /// ``/Streams/errorsMatch(_:_:)``).
  ///
  /// ```swift
  /// struct Point { var x: Int }
  /// let res: [Recorded<Event<Point>>] = [.next(210, Point(x: 1))]
  /// print(res.isEqual(to: [.next(210, Point(x: 1))]) { $0.x == $1.x })
  /// // Prints "true"
  /// ```
  public func isEqual<Value>(
    to other: [Recorded<Event<Value>>], by elementsEqual: (Value, Value) throws -> Bool
  ) rethrows -> Bool where Element == Recorded<Event<Value>> {
    guard count == other.count else { return false }
    for (lhs, rhs) in zip(self, other) where !(try lhs.isEqual(to: rhs, by: elementsEqual)) {
      return false
    }
    return true
  }
}

/// When a test observable was subscribed and unsubscribed, in virtual ticks.
///
/// ```swift
/// #expect(xs.subscriptions == [Subscription(200, 300)])
/// ```
public struct Subscription: Equatable, Hashable, Sendable, CustomDebugStringConvertible {
  /// The tick of the subscription.
  public let subscribe: TestTime
  /// The tick of the disposal, or `Int.max` while still subscribed.
  public let unsubscribe: TestTime

  /// A subscription that has not been disposed.
  public init(_ subscribe: TestTime) {
    self.subscribe = subscribe
    self.unsubscribe = Int.max
  }

  /// A subscription disposed at `unsubscribe`.
  public init(_ subscribe: TestTime, _ unsubscribe: TestTime) {
    self.subscribe = subscribe
    self.unsubscribe = unsubscribe
  }

  /// `"(200, 300)"`, or `"(200, never)"` while still subscribed.
  public var debugDescription: String {
    unsubscribe == Int.max ? "(\(subscribe), never)" : "(\(subscribe), \(unsubscribe))"
  }
}

extension Subscription: CustomStringConvertible {
  /// The same text as ``debugDescription``.
  public var description: String { debugDescription }
}
