import Dispatch
import Foundation
import Streams
import StreamsState
import StreamsTrace
import Synchronization
import Testing

/// Tracing off, or StreamsTrace's recorder installed (with a timeline, so that every delivery
/// also goes through the recorder's per-thread queues).
enum StressTracing: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case off
  case on

  var testDescription: String { "tracing \(rawValue)" }

  /// Runs `body` with the recorder bound (`.on`, ``Tracing/withTracer(_:_:)``) or not; with it,
  /// the graph read afterwards must have no live terminal subscription left and no edge or
  /// delivery naming an unknown node.
  func run(_ body: () -> Void) {
    guard self == .on else { return body() }
    let recorder = Self.makeRecorder()
    Tracing.withTracer(recorder, body)
    Self.check(recorder)
  }

  /// Runs `body` counting its objects in `scope`, with the recorder bound (`.on`) or not.
  func run(
    counting scope: Resources.Scope, isolation: isolated (any Actor)? = #isolation,
    _ body: () async -> Void
  ) async {
    guard self == .on else { return await scope.run(body) }
    let recorder = Self.makeRecorder()
    await scope.run { await Tracing.withTracer(recorder, body) }
    Self.check(recorder)
  }

  private static func makeRecorder() -> TraceRecorder {
    TraceRecorder(configuration: TraceConfiguration(recentDeliveries: 256, timeline: true))
  }

  private static func check(_ recorder: TraceRecorder) {
    let graph = recorder.graph
    let ids = Set(graph.nodes.map(\.id))
    #expect(graph.subscriptions.map(\.file) == [], "live subscriptions left in the trace")
    #expect(graph.edges.allSatisfy { ids.contains($0.from) && ids.contains($0.to) })
    #expect(graph.deliveries.allSatisfy { ids.contains($0.from) && ids.contains($0.to) })
  }
}

/// Sender `sender`'s element number `sequence`.
private func tag(_ sender: Int, _ sequence: Int) -> Int { sender * 1_000_000 + sequence }

/// What breaks per-sender order in `elements` (each made by ``tag(_:_:)``; negative elements, a
/// subject's or a cell's initial value, are skipped): each sender's sequence numbers must
/// increase, with no duplicate; with `complete`, each of the `senders` must have been seen
/// sending exactly `0..<complete`, none missing.
private func senderOrderProblems(_ elements: [Int], senders: Int, complete: Int? = nil)
  -> [String]
{
  var last = [Int](repeating: -1, count: senders)
  var problems: [String] = []
  for element in elements where element >= 0 {
    let sender = element / 1_000_000
    let sequence = element % 1_000_000
    guard sender < senders else {
      problems.append("unexpected element \(element)")
      continue
    }
    if sequence <= last[sender] {
      problems.append("sender \(sender): \(sequence) after \(last[sender])")
    } else if complete != nil, sequence != last[sender] + 1 {
      problems.append("sender \(sender): \(sequence - last[sender] - 1) missing before \(sequence)")
    }
    last[sender] = max(last[sender], sequence)
  }
  if let complete {
    for sender in 0..<senders where last[sender] != complete - 1 {
      problems.append("sender \(sender): last \(last[sender]), expected \(complete - 1)")
    }
  }
  return Array(problems.prefix(5))
}

/// The grammar and serial delivery as a `ContractRecorder` saw them.
private func contractProblems<Element>(_ recorder: ContractRecorder<Element>) -> [String] {
  recorder.violations + (recorder.overlapCount == 0 ? [] : ["\(recorder.overlapCount) overlaps"])
}

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
      send: { sender, sequence in send(tag(sender, sequence)) }, finish: finish,
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
          send: { sender, sequence in subjects[sender].onNext(tag(sender, sequence)) },
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
        let last = (0..<4).map { tag($0, Self.perSender - 1) }
        return StressCase(
          send: { sender, sequence in subjects[sender].onNext(tag(sender, sequence)) },
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
          (0..<4).map { tag($0, sequence) }
        }
        return StressCase(
          send: { sender, sequence in subjects[sender].onNext(tag(sender, sequence)) },
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
              inners[sender].onNext(tag(sender, sequence))
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
            for sequence in 0..<perSender { subject.onNext(tag(sender, sequence)) }
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
                subject.onNext(tag(sender, sequence))
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
                    DispatchQueue.global().async { observer(.success(tag(index, round))) }
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
                for sequence in 0..<perSender { relay.accept(tag(index, sequence)) }
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

/// `true` once `condition` holds; waits up to 10 s (a hang detector, not a timing assertion).
private func eventually(_ condition: () -> Bool) -> Bool {
  for _ in 0..<1000 {
    if condition() { return true }
    usleep(10_000)
  }
  return condition()
}
