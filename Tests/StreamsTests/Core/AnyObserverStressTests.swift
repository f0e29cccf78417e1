import Dispatch
import Streams
import Testing

/// `AnyObserver.sendable(_:)` is the checked way to make an observer other threads call: its
/// closure must be `Sendable`, so it can only reach state that guards itself. Run under
/// ThreadSanitizer in CI (`--filter Stress`).
@Suite("AnyObserver stress")
struct AnyObserverStressTests {
  @Test("one observer made with sendable(_:) called from four queues at once")
  func fourQueues() {
    let relay = PublishRelay<Int>()
    var received: [Int] = []
    let subscription = relay.subscribe(onNext: { received.append($0) })  // serial: the relay
    let observer = AnyObserver<Int>.sendable { event in
      if case .next(let value) = event { relay.accept(value) }
    }
    let group = DispatchGroup()
    for queue in 0..<4 {
      DispatchQueue.global().async(group: group) {
        for index in 0..<1000 { observer.onNext(queue * 1000 + index) }
      }
    }
    group.wait()
    subscription.dispose()
    #expect(received.count == 4000)
    #expect(Set(received) == Set(0..<4000))
    for queue in 0..<4 {
      let fromQueue = received.filter { $0 / 1000 == queue }
      #expect(fromQueue == fromQueue.sorted(), "per-sender order")
    }
  }
}
