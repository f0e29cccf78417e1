import Dispatch
import Observation
import StreamsState
import Testing

extension StateCellTests {
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
