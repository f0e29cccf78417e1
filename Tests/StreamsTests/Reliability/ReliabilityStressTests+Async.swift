import Dispatch
import Foundation
import Streams
import StreamsState
import StreamsTrace
import Synchronization
import Testing

extension ReliabilityStressTests {
  @Test(
    "values: steady loops miss nothing, loops left early keep order",
    arguments: StressTracing.allCases)
  func values(tracing: StressTracing) async {
    let scope = Resources.Scope()
    await tracing.run(counting: scope) {
      let subject = PublishSubject<Int>()
      let subscribed = Locked(0)
      let steady = (0..<2).map { _ in
        Task { () -> [Int] in
          let source = subject.do(onSubscribed: { subscribed.withLock { $0 += 1 } })
          var received: [Int] = []
          do {
            for try await value in source.values { received.append(value) }
          } catch {
            Issue.record("steady loop failed: \(error)")
          }
          return received
        }
      }
      await bridgeWait { subscribed.withLock { $0 } == 2 }
      let sendersDone = Locked(false)
      let churners = (0..<4).map { index in
        Task { () -> [String] in
          var problems: [String] = []
          var round = 0
          repeat {
            var received: [Int] = []
            do {
              for try await value in subject.values(bufferingPolicy: .bufferingNewest(2)) {
                received.append(value)
                if received.count > (round + index) % 5 { break }
              }
            } catch {
              problems.append("\(error)")
            }
            problems += senderOrderProblems(received, senders: 4)
            round += 1
          } while !sendersDone.withLock({ $0 })
          return problems
        }
      }
      let perSender = Self.perSender
      let binding = TestBinding.here
      await Task.detached {
        binding.run {
          runOnThreads(4) { sender in
            for sequence in 0..<perSender { subject.onNext(stressTag(sender, sequence)) }
          }
        }
      }.value
      sendersDone.withLock { $0 = true }
      subject.onCompleted()
      for task in steady {
        #expect(senderOrderProblems(await task.value, senders: 4, complete: perSender) == [])
      }
      for task in churners {
        #expect(await task.value == [])
      }
    }
    #expect(released(scope))
  }

  @Test(
    "Single's value: awaited, cancelled and answered from other threads",
    arguments: StressTracing.allCases)
  func singleValue(tracing: StressTracing) async {
    let scope = Resources.Scope()
    await tracing.run(counting: scope) {
      let subject = PublishSubject<Int>()
      let consumersDone = Locked(0)
      let binding = TestBinding.here
      let senders = Task.detached {
        binding.run {
          runOnThreads(4) { sender in
            var sequence = 0
            // Paced: threads sending without pause faster than one thread delivers would only
            // grow the subject's queue (concurrent sends are queued, see PublishSubject).
            while consumersDone.withLock({ $0 }) < 4 {
              if subject.hasObservers {
                subject.onNext(stressTag(sender, sequence))
                sequence += 1
              }
              sched_yield()
            }
          }
        }
      }
      let consumers = (0..<4).map { index in
        Task.detached { () -> [String] in
          await binding.run {
            var problems: [String] = []
            for round in 0..<200 {
              let task = Task { () throws -> Int in
                let single =
                  round.isMultiple(of: 2)
                  ? subject.take(1).asSingle()
                  : Single<Int>.create { observer in
                    DispatchQueue.global().async { observer(.success(stressTag(index, round))) }
                    return Disposables.create()
                  }
                return try await single.value
              }
              if round % 3 == 0 { task.cancel() }
              switch await task.result {
              case .success(let value):
                if value < 0 || value / 1_000_000 >= 4 { problems.append("unexpected \(value)") }
              case .failure(let error):
                if !(error is CancellationError) { problems.append("\(error)") }
              }
            }
            consumersDone.withLock { $0 += 1 }
            return problems
          }
        }
      }
      for consumer in consumers { #expect(await consumer.value == []) }
      await senders.value
      #expect(!subject.hasObservers)
    }
    #expect(released(scope))
  }
}
