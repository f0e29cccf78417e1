@_spi(StreamsInternal) import Streams

extension ThreadContext {
  /// How a delivery reached its cause (``TraceGraph/Hop``) and, after a hop, where the work went:
  /// the number of its label in the recorder's ``HopLabels`` (0 for none).
  struct Via: Equatable {
    var hop: TraceGraph.Hop
    var label: UInt16

    static let direct = Via(hop: .direct, label: 0)
  }
}

/// The names of the schedulers and queues that work hopped through (`main queue`, `queue
/// com.app.search`), numbered so that a frame and a ring entry carry one in 16 bits.
///
/// Its own lock, not the recorder's: a hop is made on the sending thread, per scheduled action.
final class HopLabels: Sendable {
  private struct Table {
    var names: [String] = [""]
    var numbers: [String: UInt16] = [:]
  }

  private let table = Protected(Table())

  /// The number of `label`, given a new one on first use; 0 (no label) once 65,535 are taken.
  func number(of label: String) -> UInt16 {
    table.withLock { table in
      if let number = table.numbers[label] { return number }
      guard table.names.count <= Int(UInt16.max) else { return 0 }
      let number = UInt16(table.names.count)
      table.names.append(label)
      table.numbers[label] = number
      return number
    }
  }

  /// The labels by number; `names[0]` is empty (no label).
  var names: [String] { table.withLock { $0.names } }
}
