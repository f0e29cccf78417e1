import Dispatch
import Observation
import StreamsState
import Testing

extension StateCellTests {
  // MARK: - Re-entrancy

  @Test("a write from an onChange action is stored at once; every observer sees every value")
  @MainActor
  func reentrantWrite() {
    let cell = StateCell(0)
    var seen: [[Int]] = [[], [], []]
    var storedAfterNestedWrite: [Int] = []
    var depth = 0
    var deepest = 0
    func observe(_ index: Int, writing action: @escaping @MainActor (Int) -> Void) {
      cell.onChange { value in
        depth += 1
        deepest = max(deepest, depth)
        seen[index].append(value)
        action(value)
        depth -= 1
      }
    }
    observe(0) { [unowned cell] value in
      guard value == 1 else { return }
      cell.value = 2
      storedAfterNestedWrite.append(cell.value)
    }
    observe(1) { [unowned cell] value in
      guard value == 2 else { return }
      cell.value = 3
      storedAfterNestedWrite.append(cell.value)
    }
    observe(2) { _ in }
    cell.value = 1
    #expect(storedAfterNestedWrite == [2, 3])
    #expect(seen == [[1, 2, 3], [1, 2, 3], [1, 2, 3]])
    #expect(seen.map(\.last) == [3, 3, 3])
    #expect(cell.value == 3)
    #expect(deepest == 1)
    #expect(depth == 0)
  }

  @Test("several writes from one action are delivered in the order they were stored")
  @MainActor
  func severalReentrantWrites() {
    let cell = StateCell(0)
    var first: [Int] = []
    var second: [Int] = []
    cell.onChange { [unowned cell] value in
      first.append(value)
      if value == 1 {
        cell.value = 10
        cell.value = 20
        cell.update { $0 += 1 }
      }
    }
    cell.onChange { second.append($0) }
    cell.value = 1
    #expect(first == [1, 10, 20, 21])
    #expect(second == [1, 10, 20, 21])
    #expect(cell.value == 21)
  }

  @Test("an observer registered during a delivery gets no value stored before it registered")
  @MainActor
  func registrationDuringDelivery() {
    let cell = StateCell(0)
    var late: [Int] = []
    var registered = false
    cell.onChange { [unowned cell] value in
      guard value == 1 else { return }
      cell.value = 2  // queued for the observers present now
      cell.value = 3
      if !registered {
        registered = true
        late.append(cell.value)  // what a new subscriber sends first: the current value
        cell.onChange { late.append($0) }
      }
    }
    cell.value = 1
    #expect(late == [3])
    cell.value = 4
    #expect(late == [3, 4])
  }

  #if os(macOS) || os(Linux) || os(Windows)
    @Test("writing the cell inside its own update body stops the program")
    @available(macOS 14, *)
    func writeDuringUpdateStops() async {
      let result = await #expect(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        await MainActor.run {
          let cell = StateCell(0)
          cell.update { value in
            cell.value = 5
            value += 1
          }
        }
      }
      #if DEBUG
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("was written inside its own update { } body"))
      #else
        _ = result
      #endif
    }
  #endif

  @Test("an equal write from an onChange action is not delivered again")
  @MainActor
  func reentrantEqualWrite() {
    let cell = StateCell(0)
    var received: [Int] = []
    cell.onChange { [unowned cell] value in
      received.append(value)
      // Bounded, so that a cell that notified equal writes would fail here instead of looping.
      if received.count < 5 { cell.value = value }
    }
    cell.value = 1
    #expect(received == [1])
  }
}
