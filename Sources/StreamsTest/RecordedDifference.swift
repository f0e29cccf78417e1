public import Streams

/// Describes how an actual recording differs from the expected one, or returns `nil` when they
/// are equal; the text the StreamsTest assertions print on failure.
///
/// ```swift
/// let diff = recordedEventsDifference(
///   actual: [.next(210, 1), .next(220, 3)], expected: [.next(210, 1), .next(220, 2)])
/// print(diff ?? "equal")
/// // Prints:
/// // recorded events differ (- expected, + actual):
/// //     next(1) @ 210
/// //   - next(2) @ 220
/// //   + next(3) @ 220
/// // marbles (frame 10 ticks, first frame at 200):
/// //   expected: -12
/// //   actual:   -13
/// ```
///
/// Works inside `#expect`, which then shows the text: `#expect(recordedEventsDifference(actual:
/// res.events, expected: expected) == nil)`. Events are aligned by a longest common subsequence
/// so that one missing or extra event shows as one line. The marble lines appear when both
/// recordings can be drawn with the default frame size (single-character element descriptions,
/// times on frame boundaries).
public func recordedEventsDifference<Element: Equatable>(
  actual: [Recorded<Event<Element>>], expected: [Recorded<Event<Element>>]
) -> String? {
  recordedEventsDifference(actual: actual, expected: expected, by: ==)
}

/// ``recordedEventsDifference(actual:expected:)`` for elements that are not `Equatable`:
/// `elementsEqual` compares elements; errors compare with ``/Streams/errorsMatch(_:_:)``.
///
/// ```swift
/// let diff = recordedEventsDifference(actual: res.events, expected: expected) { $0.id == $1.id }
/// ```
public func recordedEventsDifference<Element>(
  actual: [Recorded<Event<Element>>], expected: [Recorded<Event<Element>>],
  by elementsEqual: (Element, Element) -> Bool
) -> String? {
  if actual.isEqual(to: expected, by: elementsEqual) { return nil }
  var text = Difference.lines(
    title: "recorded events differ (- expected, + actual):", expected: expected, actual: actual,
    equal: { $0.isEqual(to: $1, by: elementsEqual) })
  if let marbles = Difference.marbles(expected: expected, actual: actual) {
    text += "\n" + marbles
  }
  return text
}

/// The text of the StreamsTest failure messages.
enum Difference {
  /// A line-by-line diff of two sequences, aligned by their longest common subsequence.
  static func lines<T>(
    title: String, expected: [T], actual: [T], equal: (T, T) -> Bool
  ) -> String {
    var lines = [title]
    for step in align(expected, actual, equal: equal) {
      switch step {
      case .same(let value): lines.append("    \(describe(value))")
      case .removed(let value): lines.append("  - \(describe(value))")
      case .added(let value): lines.append("  + \(describe(value))")
      }
    }
    if expected.isEmpty { lines.append("  (nothing expected)") }
    if actual.isEmpty { lines.append("  (nothing recorded)") }
    return lines.joined(separator: "\n")
  }

  /// Both recordings as marble lines over a shared time axis, or `nil` when one cannot be drawn.
  static func marbles<Element>(
    expected: [Recorded<Event<Element>>], actual: [Recorded<Event<Element>>]
  ) -> String? {
    let frameSize = Marbles.defaultFrameSize
    let times = (expected + actual).map(\.time)
    guard let first = times.min() else { return nil }
    let subscribed = TestScheduler.Defaults.subscribed
    let offset =
      first >= subscribed ? subscribed : first - ((first % frameSize) + frameSize) % frameSize
    guard
      let expectedLine = Marbles.render(
        expected, frameSize: frameSize, offset: offset, symbol: Marbles.describedSymbol),
      let actualLine = Marbles.render(
        actual, frameSize: frameSize, offset: offset, symbol: Marbles.describedSymbol)
    else { return nil }
    return """
      marbles (frame \(frameSize) ticks, first frame at \(offset)):
        expected: \(expectedLine)
        actual:   \(actualLine)
      """
  }

  enum Step<T> {
    case same(T)
    case removed(T)
    case added(T)
  }

  /// Longest-common-subsequence alignment; recordings are short, so the quadratic table is fine.
  static func align<T>(_ expected: [T], _ actual: [T], equal: (T, T) -> Bool) -> [Step<T>] {
    let rows = expected.count
    let columns = actual.count
    var table = Array(repeating: Array(repeating: 0, count: columns + 1), count: rows + 1)
    for row in stride(from: rows - 1, through: 0, by: -1) {
      for column in stride(from: columns - 1, through: 0, by: -1) {
        table[row][column] =
          equal(expected[row], actual[column])
          ? table[row + 1][column + 1] + 1
          : max(table[row + 1][column], table[row][column + 1])
      }
    }
    var steps: [Step<T>] = []
    var row = 0
    var column = 0
    while row < rows || column < columns {
      if row < rows, column < columns, equal(expected[row], actual[column]) {
        steps.append(.same(actual[column]))
        row += 1
        column += 1
      } else if column < columns, row == rows || table[row][column + 1] > table[row + 1][column] {
        steps.append(.added(actual[column]))
        column += 1
      } else {
        steps.append(.removed(expected[row]))
        row += 1
      }
    }
    return steps
  }

  static func describe<T>(_ value: T) -> String {
    String(describing: value)
  }
}
