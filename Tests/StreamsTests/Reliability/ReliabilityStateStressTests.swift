import Dispatch
import Foundation
import Streams
import StreamsState
import StreamsTrace
import Synchronization
import Testing

extension MainThreadDeliveryTests {
  /// The state cells under the same load: a relay bound to a cell, written from four threads,
  /// while four threads subscribe to the cell as an observable and dispose. Under the main-thread
  /// suite, whose tests run one at a time (the cell writes on the main queue).
  @Suite("Reliability Stress: state cells", .serialized)
  struct ReliabilityStateStressTests {
    @Test(
      "a relay bound to a cell, written from four threads, read from four more",
      arguments: StressTracing.allCases)
    @MainActor
    func stateCells(tracing: StressTracing) async {
      await drainMainQueue()
      let scope = Resources.Scope()
      await tracing.run(counting: scope) {
        let perSender = ReliabilityStressTests.perSender
        let cell = StateCell(-1)
        let relay = PublishRelay<Int>()
        let binding = relay.bind(to: cell)
        var changes: [Int] = []
        let observation = cell.onChange { changes.append($0) }
        let steady = ContractRecorder<Int>()
        let steadySubscription = cell.asObservable().subscribe(steady.on)
        let problems = Locked<[String]>([])
        let carried = TestBinding.here
        await Task.detached {
          let sendersLeft = Atomic<Int>(4)
          carried.run {
            runOnThreads(ReliabilityStressTests.threads) { index in
              if index < 4 {
                for sequence in 0..<perSender { relay.accept(stressTag(index, sequence)) }
                sendersLeft.subtract(1, ordering: .sequentiallyConsistent)
                return
              }
              repeat {
                let recorder = ContractRecorder<Int>()
                let subscription = cell.asObservable().subscribe(recorder.on)
                sched_yield()
                subscription.dispose()
                let found =
                  contractProblems(recorder) + senderOrderProblems(recorder.elements, senders: 4)
                if !found.isEmpty { problems.withLock { $0.append("churn \(index): \(found)") } }
              } while sendersLeft.load(ordering: .sequentiallyConsistent) > 0
            }
          }
        }.value
        await bridgeWait { changes.count == 4 * perSender }
        await drainMainQueue()
        #expect(senderOrderProblems(changes, senders: 4, complete: perSender) == [])
        #expect(contractProblems(steady) == [])
        #expect(
          senderOrderProblems(steady.elements, senders: 4, complete: perSender) == [])
        #expect(problems.withLock { $0 } == [])
        steadySubscription.dispose()
        binding.dispose()
        observation.cancel()
        await drainMainQueue()
      }
      #expect(released(scope))
    }
  }
}
