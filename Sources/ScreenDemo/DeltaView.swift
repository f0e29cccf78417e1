// Block D: a UIKit-style view that the view model configures by hand, as before the migration.

/// Stands in for a `UIView` subclass with a label.
@MainActor
final class DeltaView {
  private(set) var text = ""
  private(set) var configurations = 0

  func configure(_ block: DeltaBlock) {
    text = block.message
    configurations += 1
  }
}
