// Stand-in for RxSwift's `Event` (RxSwift/Event.swift): the same cases and names.

/// An event of a sequence: an element, a failure, or the completion.
@frozen public enum Event<Element> {
  /// The next element.
  case next(Element)
  /// The sequence failed.
  case error(Swift.Error)
  /// The sequence completed.
  case completed

  /// `true` for `.error` and `.completed`.
  public var isStopEvent: Bool {
    switch self {
    case .next: return false
    case .error, .completed: return true
    }
  }
}

/// The errors RxSwift's operators fail with; the stand-in has the two `asSingle()` uses.
public enum RxError: Swift.Error {
  /// The sequence completed without an element.
  case noElements
  /// The sequence sent a second element.
  case moreThanOneElement
}
