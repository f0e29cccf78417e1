import Streams

/// The names of the schedulers and queues that work hopped through (`main queue`, `queue
/// com.app.search`), numbered so that a frame and a ring entry carry one in 16 bits.
///
/// One table for the process: a frame made under one recorder may be recorded by another (a
/// subscription made under an earlier recorder keeps reporting to it), so a number must mean the
/// same label to every recorder. Its own lock, not a recorder's: a hop is made on the sending
/// thread, per scheduled action.
final class HopLabels: Sendable {
  static let shared = HopLabels()

  private struct Table {
    var names: [String] = [""]
    var numbers: [String: UInt16] = [:]
  }

  private let table = Locked(Table())

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

  /// The label of `number` in `names`, `nil` for none.
  static func label(_ number: UInt16, in names: [String]) -> String? {
    number == 0 || Int(number) >= names.count ? nil : names[Int(number)]
  }
}
