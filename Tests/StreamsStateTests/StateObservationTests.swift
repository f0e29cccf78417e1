import Testing

@testable import StreamsState

@Suite("StateObservation")
struct StateObservationTests {
  @Test("cancel stops the action and releases it at once")
  @MainActor
  func cancelReleases() {
    let cell = StateCell(0)
    weak var weakToken: Token?
    var received: [Int] = []
    let observation: StateObservation
    do {
      let token = Token()
      weakToken = token
      observation = cell.onChange { value in
        _ = token
        received.append(value)
      }
    }
    cell.value = 1
    #expect(weakToken != nil)
    observation.cancel()
    #expect(weakToken == nil)
    cell.value = 2
    #expect(received == [1])
    #expect(cell.observers.count == 0)
  }

  @Test("cancelling twice does nothing more: the other observers keep receiving")
  @MainActor
  func cancelTwice() {
    let cell = StateCell(0)
    var log: [String] = []
    let first = cell.onChange { log.append("a\($0)") }
    cell.onChange { log.append("b\($0)") }
    cell.onChange { log.append("c\($0)") }
    first.cancel()
    first.cancel()
    #expect(cell.observers.count == 2)
    cell.value = 1
    #expect(log == ["b1", "c1"])
  }

  @Test("isCancelled is false until cancel is called")
  @MainActor
  func isCancelled() {
    let cell = StateCell(0)
    let observation = cell.onChange { _ in }
    #expect(!observation.isCancelled)
    cell.value = 1
    #expect(!observation.isCancelled)
    observation.cancel()
    #expect(observation.isCancelled)
  }

  @Test("an observer cancelled during a delivery is not called later in that delivery")
  @MainActor
  func cancelDuringDelivery() {
    let cell = StateCell(0)
    var log: [String] = []
    var third: StateObservation?
    cell.onChange { value in
      log.append("a\(value)")
      third?.cancel()
    }
    cell.onChange { log.append("b\($0)") }
    third = cell.onChange { log.append("c\($0)") }
    cell.value = 1
    cell.value = 2
    #expect(log == ["a1", "b1", "a2", "b2"])
    #expect(cell.observers.count == 2)
  }

  @Test("an observer cancelling itself during a delivery is not called again")
  @MainActor
  func cancelSelfDuringDelivery() {
    let cell = StateCell(0)
    var log: [String] = []
    var own: StateObservation?
    own = cell.onChange { value in
      log.append("a\(value)")
      own?.cancel()
    }
    cell.onChange { log.append("b\($0)") }
    cell.value = 1
    cell.value = 2
    #expect(log == ["a1", "b1", "b2"])
  }

  @Test("an observer added during a delivery is first called by the next one")
  @MainActor
  func addDuringDelivery() {
    let cell = StateCell(0)
    var log: [String] = []
    var added: StateObservation?
    cell.onChange { [unowned cell] value in
      log.append("a\(value)")
      if added == nil {
        added = cell.onChange { log.append("late\($0)") }
      }
    }
    cell.onChange { log.append("b\($0)") }
    cell.value = 1
    #expect(log == ["a1", "b1"])
    cell.value = 2
    #expect(log == ["a1", "b1", "a2", "b2", "late2"])
  }

  @Test("an observer added during a delivery receives the values written in it, after it")
  @MainActor
  func addDuringDeliveryThenNestedWrite() {
    let cell = StateCell(0)
    var log: [String] = []
    var added: StateObservation?
    cell.onChange { [unowned cell] value in
      log.append("a\(value)")
      guard value == 1 else { return }
      added = cell.onChange { log.append("late\($0)") }
      cell.value = 2
    }
    cell.value = 1
    #expect(log == ["a1", "a2", "late2"])
    #expect(added?.isCancelled == false)
  }

  @Test("a thousand registrations and cancellations leave the survivors working, in order")
  @MainActor
  func manyAddsAndCancels() {
    let cell = StateCell(0)
    var log: [(observer: Int, value: Int)] = []
    var observations: [StateObservation] = []
    for index in 0..<1000 {
      observations.append(cell.onChange { log.append((index, $0)) })
    }
    let survivors = Array(stride(from: 7, to: 1000, by: 100))
    for index in 0..<1000 where !survivors.contains(index) {
      observations[index].cancel()
    }
    #expect(cell.observers.count == survivors.count)
    cell.value = 1
    cell.value = 2
    #expect(log.map(\.observer) == survivors + survivors)
    #expect(log.map(\.value) == Array(repeating: 1, count: 10) + Array(repeating: 2, count: 10))

    // The survivors moved when the list compacted: cancelling one must stop that one alone.
    log.removeAll()
    observations[survivors[3]].cancel()
    observations[survivors[8]].cancel()
    #expect(observations[survivors[3]].isCancelled)
    let remaining = survivors.filter { $0 != survivors[3] && $0 != survivors[8] }
    #expect(cell.observers.count == remaining.count)
    cell.value = 3
    #expect(log.map(\.observer) == remaining)

    // Registrations added after compaction come after the survivors.
    log.removeAll()
    for index in 1000..<1500 {
      observations.append(cell.onChange { log.append((index, $0)) })
    }
    for index in 1000..<1499 {
      observations[index].cancel()
    }
    for index in remaining.dropFirst() {
      observations[index].cancel()
    }
    #expect(cell.observers.count == 2)
    cell.value = 4
    #expect(log.map(\.observer) == [remaining[0], 1499])
    #expect(log.map(\.value) == [4, 4])
  }

  @Test("cancellations made during a delivery compact after it; the survivors keep working")
  @MainActor
  func manyCancelsDuringDelivery() {
    let cell = StateCell(0)
    var log: [(observer: Int, value: Int)] = []
    var observations: [StateObservation] = []
    let survivors = [0, 250, 500, 999]
    observations.append(
      cell.onChange { value in
        log.append((0, value))
        guard value == 1 else { return }
        for index in 1..<1000 where !survivors.contains(index) {
          observations[index].cancel()
        }
      })
    for index in 1..<1000 {
      observations.append(cell.onChange { log.append((index, $0)) })
    }
    cell.value = 1
    #expect(log.map(\.observer) == survivors)
    #expect(cell.observers.count == survivors.count)
    log.removeAll()
    observations[500].cancel()
    cell.value = 2
    #expect(log.map(\.observer) == [0, 250, 999])
    #expect(log.map(\.value) == [2, 2, 2])
  }
}
