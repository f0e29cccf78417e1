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

  // MARK: - Lifetime

  @Test("deinitializing the cell releases the observers' actions and cancels their observations")
  @MainActor
  func deinitReleasesActions() {
    weak var weakToken: Token?
    weak var weakCell: StateCell<Int>?
    var cell: StateCell<Int>? = StateCell(0)
    var observation: StateObservation?
    do {
      let token = Token()
      weakToken = token
      observation = cell?.onChange { _ in _ = token }
    }
    weakCell = cell
    #expect(weakToken != nil)
    #expect(observation?.isCancelled == false)
    cell = nil
    #expect(weakCell == nil)
    #expect(weakToken == nil)
    #expect(observation?.isCancelled == true)
    observation?.cancel()
    #expect(observation?.isCancelled == true)
  }

  @Test("the cell is not kept alive by its observations, Observation tracking or values")
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @MainActor
  func notKeptAlive() {
    weak var weakCell: StateCell<Int>?
    var cell: StateCell<Int>? = StateCell(0)
    weakCell = cell
    let first = cell?.onChange { _ in }
    let second = cell?.onChange { _ in }
    let stream = cell?.values
    if let cell {
      withObservationTracking {
        _ = cell.value
      } onChange: {
      }
    }
    cell = nil
    #expect(weakCell == nil)
    #expect(first?.isCancelled == true)
    #expect(second?.isCancelled == true)
    _ = stream
  }
}

// MARK: - Support

/// An object whose release a test watches through a weak reference.
final class Token: Sendable {}

/// An error a test throws and expects.
struct CellError: Error {}

/// A value that is not `Equatable`: a cell of it notifies on every write.
struct Opaque {
  var number: Int
}

/// A content block, as a screen's state holds.
struct Block: Equatable, Sendable {
  var title = ""
  var alpha = 1.0
}

/// What a test records from closures that run on the main actor, `@Sendable` ones included.
@MainActor
final class Recorder<Element> {
  private(set) var elements: [Element] = []

  func append(_ element: Element) {
    elements.append(element)
  }
}

/// Counts a cell's will-change notifications through Observation, tracking the cell again after
/// each one (a `withObservationTracking` fires once), and records the value the cell held when
/// each fired.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
final class WillChangeCounter<Value> {
  private(set) var seen: [Value] = []
  var count: Int { seen.count }

  init(_ cell: StateCell<Value>) {
    track(cell)
  }

  private func track(_ cell: StateCell<Value>) {
    withObservationTracking {
      _ = cell.value
    } onChange: { [weak self, weak cell] in
      MainActor.assumeIsolated {
        guard let self, let cell else { return }
        self.seen.append(cell.value)
        self.track(cell)
      }
    }
  }
}

/// Waits until everything queued on the main queue before this call has run (on Linux the main
/// actor runs there, so a main-actor task enqueued before this call has run too).
func drainMainQueue() async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    DispatchQueue.main.async { continuation.resume() }
  }
}

/// Lets the main queue run until `condition` holds or the test is cancelled (by its time limit).
@MainActor
func drainMainQueue(until condition: () -> Bool) async {
  while !condition() && !Task.isCancelled {
    await drainMainQueue()
  }
}
