/// Errors Streams itself produces, with RxSwift's names.
public enum RxError: Error, CustomDebugStringConvertible, Sendable {
  /// An unknown error.
  case unknown
  /// The object was used after it was disposed.
  case disposed(object: String)
  /// An arithmetic overflow.
  case overflow
  /// An argument was outside its allowed range.
  case argumentOutOfRange
  /// The sequence had no elements where one was required.
  case noElements
  /// The sequence had more than one element where exactly one was required.
  case moreThanOneElement
  /// The sequence produced no element within the timeout.
  case timeout

  /// A description that names the misuse.
  public var debugDescription: String {
    switch self {
    case .unknown: return "Unknown error occurred."
    case .disposed(let object): return "Object `\(object)` was already disposed."
    case .overflow: return "Arithmetic overflow occurred."
    case .argumentOutOfRange: return "Argument out of range."
    case .noElements: return "Sequence doesn't contain any elements."
    case .moreThanOneElement: return "Sequence contains more than one element."
    case .timeout: return "Sequence timeout."
    }
  }
}

extension RxError: Equatable {}
