public import Streams

/// Virtual time in ticks, as in RxTest.
public typealias TestTime = Int

/// A value recorded at a virtual time.
///
/// ```swift
/// let expected: [Recorded<Event<Int>>] = [.next(210, 1), .completed(300)]
/// ```
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

  public var debugDescription: String { "\(value) @ \(time)" }
}

extension Recorded: Sendable where Value: Sendable {}

extension Recorded: Equatable where Value: Equatable {}

extension Recorded {
  /// A `.next(element)` event at `time`.
  public static func next<Element>(_ time: TestTime, _ element: Element) -> Recorded<Event<Element>>
  where Value == Event<Element> {
    Recorded(time: time, value: .next(element))
  }

  /// A `.completed` event at `time`.
  public static func completed<Element>(_ time: TestTime) -> Recorded<Event<Element>>
  where Value == Event<Element> {
    Recorded(time: time, value: .completed)
  }

  /// An `.error(error)` event at `time`.
  public static func error<Element>(_ time: TestTime, _ error: any Error) -> Recorded<
    Event<Element>
  >
  where Value == Event<Element> {
    Recorded(time: time, value: .error(error))
  }

  /// The arguments as an array, as RxTest's `Recorded.events(...)`.
  public static func events<Element>(_ recordedEvents: Recorded<Event<Element>>...)
    -> [Recorded<Event<Element>>]
  where Value == Event<Element> {
    recordedEvents
  }

  /// The argument, as RxTest's `Recorded.events(_:)`.
  public static func events<Element>(_ recordedEvents: [Recorded<Event<Element>>])
    -> [Recorded<Event<Element>>]
  where Value == Event<Element> {
    recordedEvents
  }
}

/// When a test observable was subscribed and unsubscribed, in virtual ticks.
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

  public var debugDescription: String {
    unsubscribe == Int.max ? "(\(subscribe), never)" : "(\(subscribe), \(unsubscribe))"
  }
}
