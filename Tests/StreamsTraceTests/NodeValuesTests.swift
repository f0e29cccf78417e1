import Dispatch
import Streams
import Testing

@testable import StreamsTrace

/// A plain value of two words whose halves must agree: a torn write would break the agreement.
private struct Pair: CustomStringConvertible {
  let writer: Int
  let check: Int
  var description: String { "\(writer):\(check)" }
}

@Suite("Node values: the rings of recent values")
struct NodeValuesTests {
  @Test("plain values are kept by the delivering thread, the newest `limit` oldest first")
  func newestPlainValues() {
    let values = NodeValues(limit: 5)
    for value in 0..<20 { #expect(values.write(TraceValue(value))) }
    #expect(values.ordered.map(\.description) == ["15", "16", "17", "18", "19"])
  }

  @Test("a string is not written in place; with its stamp it sits in delivery order")
  func stringsInOrder() {
    let values = NodeValues(limit: 4)
    #expect(values.write(TraceValue(1)))
    #expect(!values.write(TraceValue("two")))
    values.remember(text: TraceValue("two"), stamp: values.nextStamp())
    #expect(values.write(TraceValue(3)))
    #expect(values.ordered.map(\.description) == ["1", "two", "3"])
    for value in 4..<10 { #expect(values.write(TraceValue(value))) }
    #expect(values.ordered.map(\.description) == ["6", "7", "8", "9"])
  }

  @Test("a merged node's values move to its canonical node, and later ones follow them there")
  func forwarding() {
    let merged = NodeValues(limit: 8)
    let canonical = NodeValues(limit: 8)
    #expect(canonical.write(TraceValue(10)))
    #expect(merged.write(TraceValue(1)))
    merged.remember(text: TraceValue("two"), stamp: merged.nextStamp())
    merged.forward(to: canonical)
    #expect(merged.current.takeUnretainedValue() === canonical)
    #expect(merged.target === canonical)
    #expect(merged.current._withUnsafeGuaranteedRef { $0.write(TraceValue(3)) })
    #expect(canonical.ordered.map(\.description) == ["10", "1", "two", "3"])
  }

  @Test("two threads writing one ring: no torn value, each writer's values in its order")
  func twoWriters() {
    let values = NodeValues(limit: 8)
    let rounds = 20_000
    DispatchQueue.concurrentPerform(iterations: 2) { writer in
      for index in 0..<rounds {
        _ = values.write(TraceValue(Pair(writer: writer, check: index * 2 + writer)))
      }
    }
    let kept = values.ordered.map(\.description)
    #expect(!kept.isEmpty && kept.count <= 8)
    var last = [-1, -1]
    for description in kept {
      let parts = description.split(separator: ":").compactMap { Int($0) }
      #expect(parts.count == 2)
      guard parts.count == 2 else { continue }
      let (writer, check) = (parts[0], parts[1])
      #expect(writer == 0 || writer == 1)
      #expect(check % 2 == writer, "a torn value: \(description)")
      #expect(check > last[writer % 2])
      last[writer % 2] = check
    }
  }
}
