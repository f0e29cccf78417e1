@testable import Streams

/// The state-machine test suites name the events a machine hands back the same way; a suite
/// that conforms gets ``name(_:)``.
protocol HandedBackNaming {
  /// How an element reads in an event's name; `"\(element)"` unless the suite says otherwise.
  associatedtype Element = Int
  static func describe(_ element: Element) -> String
}

extension HandedBackNaming {
  static func describe(_ element: Element) -> String { "\(element)" }

  /// An event the machine handed back, as text (`next(1)`, `error`, `completed`, `nil`). A drain
  /// would deliver it holding the claim, so this takes the claim's rank off the thread, as the
  /// drain does.
  static func name(_ event: Event<Element>?) -> String {
    guard let event else { return "nil" }
    _ = ClaimRank.takeClaimed()
    switch event {
    case .next(let element): return "next(\(describe(element)))"
    case .error: return "error"
    case .completed: return "completed"
    }
  }
}
