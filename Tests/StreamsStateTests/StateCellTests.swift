import Dispatch
import Observation
import StreamsState
import Testing

@Suite("StateCell")
struct StateCellTests {
  // MARK: - Value and onChange

  @Test("value reads back what was written")
  @MainActor
  func readWrite() {
    let cell = StateCell(1)
    #expect(cell.value == 1)
    cell.value = 2
    #expect(cell.value == 2)
    cell.value = 3
    #expect(cell.value == 3)
  }

  @Test("onChange runs after the store with each new value, never with the current one")
  @MainActor
  func onChangeAfterStore() {
    let cell = StateCell(0)
    var received: [Int] = []
    var storedDuringAction: [Int] = []
    let observation = cell.onChange { [unowned cell] value in
      received.append(value)
      storedDuringAction.append(cell.value)
    }
    #expect(received == [])
    cell.value = 1
    cell.value = 2
    #expect(received == [1, 2])
    #expect(storedDuringAction == [1, 2])
    observation.cancel()
  }

  @Test("onChange actions run in registration order")
  @MainActor
  func registrationOrder() {
    let cell = StateCell(0)
    var log: [String] = []
    cell.onChange { log.append("a\($0)") }
    cell.onChange { log.append("b\($0)") }
    cell.onChange { log.append("c\($0)") }
    cell.value = 1
    cell.value = 2
    #expect(log == ["a1", "b1", "c1", "a2", "b2", "c2"])
  }

  // MARK: - Equality

  @Test("an Equatable cell written an equal value notifies nobody")
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @MainActor
  func equalWriteIsSilent() {
    let cell = StateCell(Block(title: "a"))
    var changes = 0
    cell.onChange { _ in changes += 1 }
    let willChange = WillChangeCounter(cell)
    cell.value = Block(title: "a")
    #expect(changes == 0)
    #expect(willChange.count == 0)
    cell.value = Block(title: "b")
    #expect(changes == 1)
    #expect(willChange.count == 1)
    cell.value = Block(title: "b")
    #expect(changes == 1)
    #expect(willChange.count == 1)
  }

  @Test("a cell of a non-Equatable value notifies on every write, even of the same contents")
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @MainActor
  func nonEquatableNotifiesAlways() {
    let cell = StateCell(Opaque(number: 1))
    var received: [Int] = []
    cell.onChange { received.append($0.number) }
    let willChange = WillChangeCounter(cell)
    cell.value = Opaque(number: 1)
    cell.value = Opaque(number: 1)
    cell.value = Opaque(number: 2)
    #expect(received == [1, 1, 2])
    #expect(willChange.count == 3)
  }

  // MARK: - update

  @Test("update with several changes notifies once, with the final value")
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @MainActor
  func updateNotifiesOnce() {
    let cell = StateCell(Block())
    var received: [Block] = []
    cell.onChange { received.append($0) }
    let willChange = WillChangeCounter(cell)
    cell.update { block in
      block.title = "Today"
      block.alpha = 0.5
      block.title = "Tomorrow"
    }
    #expect(received == [Block(title: "Tomorrow", alpha: 0.5)])
    #expect(willChange.count == 1)
    #expect(willChange.seen == [Block()])
    #expect(cell.value == Block(title: "Tomorrow", alpha: 0.5))
  }

  @Test("update whose result equals the stored value notifies nobody")
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @MainActor
  func updateToEqualIsSilent() {
    let cell = StateCell(Block(title: "a", alpha: 1))
    var changes = 0
    cell.onChange { _ in changes += 1 }
    let willChange = WillChangeCounter(cell)
    cell.update { block in
      block.title = "b"
      block.alpha = 0
      block.title = "a"
      block.alpha = 1
    }
    #expect(changes == 0)
    #expect(willChange.count == 0)
  }

  @Test("update returns what its body returns")
  @MainActor
  func updateReturns() {
    let cell = StateCell(10)
    let previous = cell.update { value in
      defer { value += 5 }
      return value
    }
    #expect(previous == 10)
    #expect(cell.value == 15)
  }

  @Test("update rethrows, leaving the value unchanged and nobody notified")
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @MainActor
  func updateRethrows() {
    let cell = StateCell(1)
    var changes = 0
    cell.onChange { _ in changes += 1 }
    let willChange = WillChangeCounter(cell)
    #expect(throws: CellError.self) {
      try cell.update { value in
        value = 2
        throw CellError()
      }
    }
    #expect(cell.value == 1)
    #expect(changes == 0)
    #expect(willChange.count == 0)
  }

  // MARK: - Observation

  @Test("withObservationTracking's onChange fires on a write, before the value is stored")
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @MainActor
  func observationBeforeStore() {
    let cell = StateCell(1)
    let seen = Recorder<Int>()
    let tracked = withObservationTracking {
      cell.value
    } onChange: {
      MainActor.assumeIsolated { seen.append(cell.value) }
    }
    #expect(tracked == 1)
    #expect(seen.elements == [])
    cell.value = 2
    #expect(seen.elements == [1])
    #expect(cell.value == 2)
  }

  @Test("tracking one cell is not invalidated when another cell changes")
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @MainActor
  func perCellInvalidation() {
    let first = StateCell(0)
    let second = StateCell(0)
    let fired = Recorder<String>()
    withObservationTracking {
      _ = first.value
    } onChange: {
      MainActor.assumeIsolated { fired.append("first") }
    }
    second.value = 1
    second.update { $0 += 1 }
    #expect(fired.elements == [])
    first.value = 1
    #expect(fired.elements == ["first"])
  }

  @Test("Observation sees every write, including writes made from onChange actions")
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @MainActor
  func observationSeesReentrantWrites() {
    let cell = StateCell(0)
    cell.onChange { [unowned cell] value in
      if value < 3 { cell.value = value + 1 }
    }
    let willChange = WillChangeCounter(cell)
    cell.value = 1
    #expect(willChange.seen == [0, 1, 2])
    #expect(cell.value == 3)
  }

  #if os(macOS) || os(Linux) || os(Windows)
    @Test("writing the cell from inside its will-change observer stops the program")
    @available(macOS 14, *)
    func writeDuringWillChangeStops() async {
      let result = await #expect(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        await MainActor.run {
          let cell = StateCell(0)
          withObservationTracking {
            _ = cell.value
          } onChange: {
            MainActor.assumeIsolated { cell.value = 2 }
          }
          cell.value = 1
        }
      }
      #if DEBUG
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("was written from inside one of its will-change observers"))
      #else
        _ = result
      #endif
    }
  #endif
}
