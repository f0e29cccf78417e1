import StreamsTest
import Testing

@testable import Streams

@Suite("Infallible and SharedSequence values", .timeLimit(.minutes(1)), .mainSchedulerExclusive)
struct InfallibleTypeValuesTests {
  @Test("Infallible.values is a non-throwing sequence of every element")
  func infallibleValues() async {
    let values: ObservableValues<Int, Never> = Infallible.of(1, 2, 3).values
    var received: [Int] = []
    for await value in values { received.append(value) }
    #expect(received == [1, 2, 3])
  }

  @Test("Infallible.values(bufferingPolicy:) applies the policy")
  func infallibleBuffered() async {
    let values = Infallible.of(1, 2, 3, 4).values(bufferingPolicy: .bufferingNewest(1))
    var received: [Int] = []
    for await value in values { received.append(value) }
    #expect(received == [1, 4])
    #expect(values.droppedCount == 2)
  }

  @Test("a relay converted to an Infallible keeps its non-throwing values")
  func relayAsInfallible() async {
    let relay = BehaviorRelay(value: 1)
    for await value in relay.asInfallible().values {
      #expect(value == 1)
      break
    }
  }

  @Test("Driver.values on the main actor: the current value, then accepted ones")
  @MainActor
  func driverValues() async {
    let relay = BehaviorRelay(value: 1)
    let driver = relay.asDriver()
    var received: [Int] = []
    for await value in driver.values {
      #expect(BridgeMainQueue.isCurrent)
      received.append(value)
      if value == 1 { relay.accept(2) } else { break }
    }
    #expect(received == [1, 2])
  }

  @Test("a non-throwing AsyncSequence becomes an Infallible")
  func asyncSequenceAsInfallible() async {
    let stream = AsyncStream<Int> { continuation in
      continuation.yield(1)
      continuation.yield(2)
      continuation.finish()
    }
    let infallible: Infallible<Int> = stream.asInfallible()
    #expect(await bridgeRecord(infallible.asObservable()) == [.next(1), .next(2), .completed])
  }
}
