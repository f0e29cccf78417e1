import Dispatch
import Testing

@testable import StreamsState

@Suite("StateCell.values")
struct StateCellValuesTests {
  @Test("values yields the current value, then every stored value in order")
  @MainActor
  func currentThenStored() async {
    let cell = StateCell(1)
    var iterator = cell.values.makeAsyncIterator()
    #expect(await iterator.next(isolation: #isolation) == 1)
    cell.value = 2
    cell.value = 2
    cell.value = 3
    #expect(await iterator.next(isolation: #isolation) == 2)
    #expect(await iterator.next(isolation: #isolation) == 3)
  }

  @Test("values buffers without limit: a reader that starts late sees every value")
  @MainActor
  func unbounded() async {
    let cell = StateCell(0)
    let stream = cell.values
    for value in 1...100 {
      cell.value = value
    }
    var received: [Int] = []
    for await value in stream {
      received.append(value)
      if received.count == 101 { break }
    }
    #expect(received == Array(0...100))
  }

  @Test("values(bufferingPolicy: .bufferingNewest(1)) yields only the latest unread value")
  @MainActor
  func bufferingNewest() async {
    let cell = StateCell(0)
    var iterator = cell.values(bufferingPolicy: .bufferingNewest(1)).makeAsyncIterator()
    cell.value = 1
    cell.value = 2
    cell.value = 3
    #expect(await iterator.next(isolation: #isolation) == 3)
    cell.value = 4
    #expect(await iterator.next(isolation: #isolation) == 4)
  }

  @Test("values sees the values written from onChange actions, in the order they were stored")
  @MainActor
  func reentrantWrites() async {
    let cell = StateCell(0)
    cell.onChange { [unowned cell] value in
      if value < 3 { cell.value = value + 1 }
    }
    var iterator = cell.values.makeAsyncIterator()
    cell.value = 1
    var received: [Int] = []
    for _ in 0..<4 {
      received.append(await iterator.next(isolation: #isolation) ?? -1)
    }
    #expect(received == [0, 1, 2, 3])
  }

  @Test("breaking out of the loop lets go of the registration after a main-actor turn")
  @MainActor
  func breakReleases() async {
    let cell = StateCell(0)
    #expect(await firstValue(of: cell) == 0)
    await drainMainQueue()
    #expect(cell.observers.count == 0)
  }

  @Test(
    "cancelling the reading task lets go of the registration after a main-actor turn",
    .timeLimit(.minutes(1)))
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @MainActor
  func cancelReleases() async {
    let cell = StateCell(0)
    let received = Recorder<Int>()
    let reader = Task { @MainActor in
      for await value in cell.values {
        received.append(value)
      }
    }
    await drainMainQueue(until: { !received.elements.isEmpty })
    #expect(cell.observers.count == 1)
    cell.value = 1
    await drainMainQueue(until: { received.elements.count == 2 })
    reader.cancel()
    await reader.value
    await drainMainQueue()
    #expect(cell.observers.count == 0)
    cell.value = 2
    #expect(received.elements == [0, 1])
  }

  @Test(
    "values ends when the cell is deinitialized, and does not keep the cell alive",
    .timeLimit(.minutes(1)))
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @MainActor
  func endsWithCell() async {
    weak var weakCell: StateCell<Int>?
    var cell: StateCell<Int>? = StateCell(0)
    weakCell = cell
    let stream = cell!.values
    cell?.value = 1
    cell = nil
    #expect(weakCell == nil)
    var received: [Int] = []
    for await value in stream {
      received.append(value)
    }
    #expect(received == [0, 1])
  }

  @Test(
    "a reader waiting for the next value finishes when the cell is deinitialized",
    .timeLimit(.minutes(1)))
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @MainActor
  func waitingReaderFinishes() async {
    var cell: StateCell<Int>? = StateCell(0)
    let stream = cell!.values
    let received = Recorder<Int>()
    let reader = Task { @MainActor in
      for await value in stream {
        received.append(value)
      }
    }
    await drainMainQueue(until: { !received.elements.isEmpty })
    cell = nil
    await withTaskCancellationHandler {
      await reader.value
    } onCancel: {
      reader.cancel()
    }
    #expect(received.elements == [0])
  }

  /// Reads the first value of `cell.values` and breaks out of the loop; the stream is gone when
  /// this returns.
  @MainActor
  private func firstValue(of cell: StateCell<Int>) async -> Int? {
    for await value in cell.values {
      return value
    }
    return nil
  }
}
