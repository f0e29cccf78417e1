/// A sequence event: the unit an observable delivers to its observers.
///
/// Every subscription sees the grammar `next* (error | completed)?`: any number of elements, then at
/// most one terminal event, after which nothing more is delivered.
///
/// ```swift
/// let events: [Event<Int>] = [.next(1), .next(2), .completed]
/// print(events.compactMap(\.element))
/// // Prints "[1, 2]"
/// ```
public enum Event<Element> {
  /// The next element of the sequence.
  case next(Element)
  /// The sequence failed with `error`; nothing follows.
  case error(any Error)
  /// The sequence finished; nothing follows.
  case completed
}

extension Event: Sendable where Element: Sendable {}

extension Event {
  /// `true` for `.error` and `.completed`.
  @inlinable
  public var isStopEvent: Bool {
    switch self {
    case .next: return false
    case .error, .completed: return true
    }
  }

  /// The element of a `.next` event, otherwise `nil`.
  @inlinable
  public var element: Element? {
    if case .next(let value) = self { return value }
    return nil
  }

  /// The error of an `.error` event, otherwise `nil`.
  @inlinable
  public var error: (any Error)? {
    if case .error(let error) = self { return error }
    return nil
  }

  /// `true` for `.completed`.
  @inlinable
  public var isCompleted: Bool {
    if case .completed = self { return true }
    return false
  }

  /// Maps the element of a `.next` event; a throwing `transform` turns the event into `.error`.
  @inlinable
  public func map<Result>(_ transform: (Element) throws -> Result) -> Event<Result> {
    switch self {
    case .next(let element):
      do { return .next(try transform(element)) } catch { return .error(error) }
    case .error(let error): return .error(error)
    case .completed: return .completed
    }
  }
}

extension Event: CustomDebugStringConvertible {
  public var debugDescription: String {
    switch self {
    case .next(let value): return "next(\(value))"
    case .error(let error): return "error(\(error))"
    case .completed: return "completed"
    }
  }
}

extension Event: Equatable where Element: Equatable {
  /// Elements compare with `==`; errors compare by dynamic type and description (the only
  /// comparison that behaves the same on Linux and Apple platforms for arbitrary `Error`s).
  public static func == (lhs: Event<Element>, rhs: Event<Element>) -> Bool {
    switch (lhs, rhs) {
    case (.next(let l), .next(let r)): return l == r
    case (.completed, .completed): return true
    case (.error(let l), .error(let r)): return errorsMatch(l, r)
    default: return false
    }
  }
}

/// Compares two errors the way Streams documents: same dynamic type and same description, or `==`
/// when both are the same `Equatable` type.
public func errorsMatch(_ lhs: any Error, _ rhs: any Error) -> Bool {
  if let equatable = lhs as? any Equatable {
    return equatableEqual(equatable, rhs)
  }
  return type(of: lhs) == type(of: rhs) && String(describing: lhs) == String(describing: rhs)
}

private func equatableEqual<T: Equatable>(_ lhs: T, _ rhs: any Error) -> Bool {
  guard let rhs = rhs as? T else { return false }
  return lhs == rhs
}
