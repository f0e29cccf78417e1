import OpenCombine
import StreamsState
import Testing

/// `StateCell`'s `ObservableObject` conformance, the path SwiftUI uses on iOS 15 and 16, tested
/// against OpenCombine's `ObservableObject` and `ObservableObjectPublisher`.
@Suite("StateCell as an ObservableObject (OpenCombine)")
@MainActor
struct ObservableObjectTests {
  struct Block: Equatable {
    var title = ""
    var count = 0
  }

  @Test("objectWillChange sends before the store, once per write")
  func beforeTheStore() {
    let cell = StateCell(Block())
    var seen: [String] = []
    let subscription = cell.objectWillChange.sink { seen.append(cell.value.title) }
    cell.value = Block(title: "a")
    cell.value = Block(title: "b")
    // Each send saw the value before the write: SwiftUI reads the new one after.
    #expect(seen == ["", "a"])
    #expect(cell.value.title == "b")
    subscription.cancel()
  }

  @Test("a write of an equal value sends nothing; update sends once for all its changes")
  func equalAndUpdate() {
    let cell = StateCell(Block(title: "x"))
    var sends = 0
    let subscription = cell.objectWillChange.sink { sends += 1 }
    cell.value = Block(title: "x")
    #expect(sends == 0)
    cell.update { block in
      block.title = "y"
      block.count = 2
      block.count = 3
    }
    #expect(sends == 1)
    #expect(cell.value == Block(title: "y", count: 3))
    cell.update { _ in }
    #expect(sends == 1)
    subscription.cancel()
  }

  @Test("a cell of a value that is not Equatable sends for every write")
  func notEquatable() {
    struct Opaque {}
    let cell = StateCell(Opaque())
    var sends = 0
    let subscription = cell.objectWillChange.sink { sends += 1 }
    cell.value = Opaque()
    cell.value = Opaque()
    #expect(sends == 2)
    subscription.cancel()
  }

  @Test("the publisher is made once; observers through onChange and objectWillChange both hear")
  func publisherAndObservers() {
    let cell = StateCell(0)
    #expect(cell.objectWillChange === cell.objectWillChange)
    var order: [String] = []
    let subscription = cell.objectWillChange.sink { order.append("will \(cell.value)") }
    let observation = cell.onChange { order.append("did \($0)") }
    cell.value = 1
    #expect(order == ["will 0", "did 1"])
    subscription.cancel()
    observation.cancel()
  }
}
