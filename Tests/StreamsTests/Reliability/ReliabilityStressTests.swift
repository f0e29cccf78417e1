import Dispatch
import Foundation
import Streams
import StreamsState
import StreamsTrace
import Synchronization
import Testing

/// One operator under stress: senders call `send` from threads of their own while other threads
/// subscribe to `observable` and dispose; `finish` runs once every sender is done.
///
/// `@unchecked Sendable`: `Observable` is not `Sendable` only because it may hold app closures
/// that are not; the observables here are made of subjects and closures that touch nothing but
/// their arguments and `Sendable` captures, so subscribing to them from any thread is safe.
private struct StressCase<Element: Sendable>: @unchecked Sendable {
  var senders = 4
  /// Sends sender `sender`'s element number `sequence` (from that sender's thread).
  var send: @Sendable (_ sender: Int, _ sequence: Int) -> Void
  /// Ends the sources (nil for relays, which never end).
  var finish: (@Sendable () -> Void)?
  var observable: Observable<Element>
  /// Problems in what one subscriber received: `steady` when it subscribed before the senders
  /// started and stayed to the end (and saw the terminal event, when there is one).
  var check: @Sendable (_ elements: [Element], _ steady: Bool) -> [String]
  /// Whether deliveries happen after `send` returns (on a scheduler).
  var deliversLater = false
  /// Subscribers subscribed before the senders start and kept to the end.
  var steadySubscribers = 2
}

/// Per-sender order for every subscriber; for steady subscribers, also nothing missing when
/// `lossless`.
private func orderCheck(senders: Int, perSender: Int, lossless: Bool)
  -> @Sendable ([Int], Bool) -> [String]
{
  { elements, steady in
    senderOrderProblems(elements, senders: senders, complete: steady && lossless ? perSender : nil)
  }
}

/// Real threads against the operators that meet several threads at once, each case with
/// tracing off and on; run under ThreadSanitizer in CI (`--filter Stress`). Eight threads: four
/// senders, four threads subscribing and disposing in a loop until the senders are done.
@Suite("Reliability Stress", .serialized)
struct ReliabilityStressTests {
  static let threads = 8
  static let perSender = 1500

  /// Runs `stressCase`: steady subscribers first, then the senders and the churning threads at
  /// once, then `finish`; checks every subscriber's grammar, serial delivery and per-sender order,
  /// the steady ones' completeness and terminal event, and that `Resources.total` comes back.
  private func stress<Element>(_ makeCase: () -> StressCase<Element>) {
    let scope = Resources.Scope()
    scope.run {
      let stressCase = makeCase()
      let steady = (0..<stressCase.steadySubscribers).map { _ in ContractRecorder<Element>() }
      let subscriptions = steady.map { stressCase.observable.subscribe($0.on) }
      let sendersLeft = Atomic<Int>(stressCase.senders)
      let problems = Locked<[String]>([])
      let perSender = Self.perSender
      runOnThreads(Self.threads) { index in
        if index < stressCase.senders {
          for sequence in 0..<perSender { stressCase.send(index, sequence) }
          sendersLeft.subtract(1, ordering: .sequentiallyConsistent)
          return
        }
        var round = 0
        repeat {
          let recorder = ContractRecorder<Element>()
          let subscription = stressCase.observable.subscribe(recorder.on)
          for _ in 0..<(round % 4) { sched_yield() }
          subscription.dispose()
          let found =
            contractProblems(recorder) + stressCase.check(recorder.elements, false)
          if !found.isEmpty { problems.withLock { $0.append("churn \(index): \(found)") } }
          round += 1
          // Unbounded: churning threads stop only when the senders are done, so a sender's
          // delivery that other threads' subscriptions and disposals could keep busy (as one once
          // did, `SubjectCoreTests.deliveryReturnsUnderChurn`) would hang here.
        } while sendersLeft.load(ordering: .sequentiallyConsistent) > 0
      }
      stressCase.finish?()
      if stressCase.deliversLater, stressCase.finish != nil {
        #expect(eventually { steady.allSatisfy { $0.terminal != nil } }, "steady never completed")
      }
      for (index, recorder) in steady.enumerated() {
        let found = contractProblems(recorder) + stressCase.check(recorder.elements, true)
        #expect(found == [], "steady \(index)")
        if stressCase.finish != nil { #expect(recorder.terminal == "completed") }
      }
      #expect(problems.withLock { $0 } == [])
      for subscription in subscriptions { subscription.dispose() }
    }
    #expect(released(scope))
  }

  /// A case whose senders all call `send` (a subject's `onNext`, a relay's `accept`)
  /// concurrently.
  private func shared(
    _ send: @escaping @Sendable (Int) -> Void, finish: (@Sendable () -> Void)?,
    _ observable: Observable<Int>, deliversLater: Bool = false, steady: Int = 2
  ) -> StressCase<Int> {
    StressCase(
      send: { sender, sequence in send(stressTag(sender, sequence)) }, finish: finish,
      observable: observable,
      check: orderCheck(senders: 4, perSender: Self.perSender, lossless: true),
      deliversLater: deliversLater, steadySubscribers: steady)
  }

  @Test(
    "subjects: PublishSubject, BehaviorSubject, ReplaySubject", arguments: StressTracing.allCases)
  func subjects(tracing: StressTracing) {
    tracing.run {
      stress {
        let subject = PublishSubject<Int>()
        return shared(
          { subject.onNext($0) }, finish: { subject.onCompleted() }, subject.asObservable())
      }
      stress {
        let subject = BehaviorSubject(value: -1)
        return shared(
          { subject.onNext($0) }, finish: { subject.onCompleted() }, subject.asObservable())
      }
      stress {
        let subject = ReplaySubject<Int>.create(bufferSize: 4)
        return shared(
          { subject.onNext($0) }, finish: { subject.onCompleted() }, subject.asObservable())
      }
    }
  }

  @Test("relays: PublishRelay, BehaviorRelay", arguments: StressTracing.allCases)
  func relays(tracing: StressTracing) {
    tracing.run {
      stress {
        let relay = PublishRelay<Int>()
        return shared({ relay.accept($0) }, finish: nil, relay.asObservable())
      }
      stress {
        let relay = BehaviorRelay(value: -1)
        return shared({ relay.accept($0) }, finish: nil, relay.asObservable())
      }
    }
  }

  @Test(
    "share(replay: 1), both scopes, with and without a steady subscriber",
    arguments: StressTracing.allCases)
  func share(tracing: StressTracing) {
    tracing.run {
      for scope in [SubjectLifetimeScope.whileConnected, .forever] {
        for steady in [2, 0] {
          stress {
            let source = PublishSubject<Int>()
            return shared(
              { source.onNext($0) }, finish: { source.onCompleted() },
              source.share(replay: 1, scope: scope), steady: steady)
          }
        }
      }
    }
  }

  @Test("merge of four subjects, one per sender", arguments: StressTracing.allCases)
  func merge(tracing: StressTracing) {
    tracing.run {
      stress {
        let subjects = (0..<4).map { _ in PublishSubject<Int>() }
        return StressCase(
          send: { sender, sequence in subjects[sender].onNext(stressTag(sender, sequence)) },
          finish: { for subject in subjects { subject.onCompleted() } },
          observable: Observable.merge(subjects.map { $0.asObservable() }),
          check: orderCheck(senders: 4, perSender: Self.perSender, lossless: true))
      }
    }
  }

  @Test(
    "combineLatest of four subjects: no component ever goes back", arguments: StressTracing.allCases
  )
  func combineLatest(tracing: StressTracing) {
    tracing.run {
      stress {
        let subjects = (0..<4).map { _ in PublishSubject<Int>() }
        let last = (0..<4).map { stressTag($0, Self.perSender - 1) }
        return StressCase(
          send: { sender, sequence in subjects[sender].onNext(stressTag(sender, sequence)) },
          finish: { for subject in subjects { subject.onCompleted() } },
          observable: Observable.combineLatest(subjects[0], subjects[1], subjects[2], subjects[3]) {
            [$0, $1, $2, $3]
          },
          check: { combinations, steady in
            var problems: [String] = []
            for (earlier, later) in Swift.zip(combinations, combinations.dropFirst())
            where Swift.zip(earlier, later).contains(where: { $0 > $1 }) {
              problems.append("\(later) after \(earlier)")
            }
            if steady, combinations.last != last {
              problems.append("last \(String(describing: combinations.last)), expected \(last)")
            }
            return Array(problems.prefix(5))
          })
      }
    }
  }

  @Test(
    "zip of four subjects: every component in order, steady subscribers get every tuple",
    arguments: StressTracing.allCases)
  func zip(tracing: StressTracing) {
    tracing.run {
      stress {
        let subjects = (0..<4).map { _ in PublishSubject<Int>() }
        let everything = (0..<Self.perSender).map { sequence in
          (0..<4).map { stressTag($0, sequence) }
        }
        return StressCase(
          send: { sender, sequence in subjects[sender].onNext(stressTag(sender, sequence)) },
          finish: { for subject in subjects { subject.onCompleted() } },
          observable: Observable.zip(subjects.map { $0.asObservable() }),
          check: { tuples, steady in
            if steady {
              return tuples == everything ? [] : ["\(tuples.count) tuples, not in order"]
            }
            return (0..<4).flatMap { component in
              senderOrderProblems(tuples.map { $0[component] }, senders: 4)
            }
          })
      }
    }
  }

  @Test(
    "flatMapLatest: one sender switches among three inner subjects the others send into",
    arguments: StressTracing.allCases)
  func flatMapLatest(tracing: StressTracing) {
    tracing.run {
      stress {
        let inners = (0..<3).map { _ in PublishSubject<Int>() }
        let outer = PublishSubject<Int>()
        return StressCase(
          send: { sender, sequence in
            if sender == 3 {
              outer.onNext(sequence % 3)
            } else {
              inners[sender].onNext(stressTag(sender, sequence))
            }
          },
          finish: {
            outer.onCompleted()
            for inner in inners { inner.onCompleted() }
          },
          observable: outer.flatMapLatest { inners[$0] },
          check: orderCheck(senders: 3, perSender: Self.perSender, lossless: false))
      }
    }
  }

  @Test("observe(on:) a serial dispatch scheduler", arguments: StressTracing.allCases)
  func observeOn(tracing: StressTracing) {
    tracing.run {
      stress {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "stress.observe-on")
        let subject = PublishSubject<Int>()
        return shared(
          { subject.onNext($0) }, finish: { subject.onCompleted() },
          subject.observe(on: scheduler).asObservable(), deliversLater: true)
      }
    }
  }

}

/// `true` once `condition` holds; waits up to 10 s (a hang detector, not a timing assertion).
private func eventually(_ condition: () -> Bool) -> Bool {
  for _ in 0..<1000 {
    if condition() { return true }
    usleep(10_000)
  }
  return condition()
}
