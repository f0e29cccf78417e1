// Differential fuzzing: random pipelines run on Streams (on a TestScheduler) and in the reference
// model; every event, tick and source subscription must match.
//
//   swift test --filter DifferentialTests                     (10,000 cases, new seed)
//   STREAMS_FUZZ_SEED=123 STREAMS_FUZZ_CASES=1000000 swift test --filter DifferentialTests

import Foundation
import Streams
import StreamsTest
import Testing

/// An error a test source sends, with its code.
struct FuzzError: Error, Equatable {
  let code: Int
}

/// The model's code for an error Streams sent.
func errorCode(_ error: any Error) -> Int {
  if let error = error as? FuzzError { return error.code }
  if let error = error as? RxError {
    switch error {
    case .timeout: return ErrorCode.timeout
    case .argumentOutOfRange: return ErrorCode.argumentOutOfRange
    default: return ErrorCode.unknown
    }
  }
  return ErrorCode.unknown
}

extension ModelEvent {
  init(_ event: Event<Int>) {
    switch event {
    case .next(let value): self = .next(value)
    case .completed: self = .completed
    case .error(let error): self = .error(errorCode(error))
    }
  }

  var streamsEvent: Event<Int> {
    switch self {
    case .next(let value): return .next(value)
    case .completed: return .completed
    case .error(let code): return .error(FuzzError(code: code))
    }
  }
}

/// Runs pipelines on Streams.
enum StreamsRunner {
  static func run(_ pipeline: Pipeline) -> ModelResult {
    let scheduler = TestScheduler(initialClock: 0)
    let sources = pipeline.sources.map { spec -> TestableObservable<Int> in
      let events = spec.events.map { Recorded(time: $0.time, value: $0.value.streamsEvent) }
      return spec.isHot
        ? scheduler.createHotObservable(events) : scheduler.createColdObservable(events)
    }
    let builder = Builder(sources: sources, scheduler: scheduler)
    builder.shared = pipeline.shared.map { spec in
      let upstream = builder.build(spec.upstream)
      switch spec.kind {
      case .share(let replay, let forever):
        return upstream.share(replay: replay, scope: forever ? .forever : .whileConnected)
      case .publishRefCount: return upstream.publish().refCount()
      }
    }
    var observers: [TestableObserver<Int>] = []
    for consumer in pipeline.consumers {
      let observable = builder.build(consumer.root)
      let observer = scheduler.createObserver(Int.self)
      observers.append(observer)
      let subscription = SerialDisposable()
      scheduler.scheduleAt(consumer.subscribed) {
        subscription.disposable = observable.subscribe(observer)
      }
      scheduler.scheduleAt(consumer.disposed) { subscription.dispose() }
    }
    scheduler.start()
    return ModelResult(
      events: observers.map { observer in
        observer.events.map { Recorded(time: $0.time, value: ModelEvent($0.value)) }
      },
      subscriptions: sources.map { sortedSubscriptions($0.subscriptions) })
  }

  private final class Builder {
    let sources: [TestableObservable<Int>]
    let scheduler: TestScheduler
    var shared: [Observable<Int>] = []

    init(sources: [TestableObservable<Int>], scheduler: TestScheduler) {
      self.sources = sources
      self.scheduler = scheduler
    }

    func build(_ node: Node) -> Observable<Int> {
      switch node {
      case .source(let index): return sources[index].asObservable()
      case .shared(let index): return shared[index]
      case .unary(let op, let upstream):
        return unary(op, build(upstream), op.other.map { build($0) })
      case .multi(let op, let children): return multi(op, children.map { build($0) })
      case .higher(let op, let outer, let inners):
        let up = build(outer)
        let built = inners.map { build($0) }
        let pick = { (value: Int) in built[((value % built.count) + built.count) % built.count] }
        switch op {
        case .flatMap: return up.flatMap(pick)
        case .flatMapLatest: return up.flatMapLatest(pick)
        case .flatMapFirst: return up.flatMapFirst(pick)
        case .concatMap: return up.concatMap(pick)
        case .switchLatest: return up.map(pick).switchLatest()
        }
      }
    }

    private func multi(_ op: MultiOp, _ children: [Observable<Int>]) -> Observable<Int> {
      let combine = { (a: Int, b: Int) in Encode.array([a, b]) }
      let combine3 = { (a: Int, b: Int, c: Int) in Encode.array([a, b, c]) }
      switch op {
      case .merge: return Observable.merge(children)
      case .concat: return Observable.concat(children)
      case .zip(let collection):
        if collection { return Observable.zip(children).map(Encode.array) }
        return children.count == 2
          ? Observable.zip(children[0], children[1], resultSelector: combine)
          : Observable.zip(children[0], children[1], children[2], resultSelector: combine3)
      case .combineLatest(let collection):
        if collection { return Observable.combineLatest(children).map(Encode.array) }
        return children.count == 2
          ? Observable.combineLatest(children[0], children[1], resultSelector: combine)
          : Observable.combineLatest(
            children[0], children[1], children[2], resultSelector: combine3)
      case .amb:
        return children.count == 2 ? children[0].amb(children[1]) : Observable.amb(children)
      case .takeUntil: return children[0].take(until: children[1])
      case .skipUntil: return children[0].skip(until: children[1])
      case .sample: return children[0].sample(children[1])
      case .withLatestFrom: return children[0].withLatestFrom(children[1], resultSelector: combine)
      }
    }

    // swift-format-ignore: CyclomaticComplexity
    private func unary(_ op: UnaryOp, _ up: Observable<Int>, _ other: Observable<Int>?)
      -> Observable<Int>
    {
      switch op {
      case .mapAdd(let k): return up.map { $0 + k }
      case .mapMod(let k): return up.map { $0 % k }
      case .filterEven: return up.filter { $0 % 2 == 0 }
      case .compactMap: return up.compactMap { $0 % 3 == 0 ? nil : $0 * 2 }
      case .scan(let seed): return up.scan(seed, accumulator: +)
      case .reduce(let seed): return up.reduce(seed, accumulator: +)
      case .distinctUntilChanged: return up.distinctUntilChanged()
      case .take(let count): return up.take(count)
      case .takeLast(let count): return up.takeLast(count)
      case .skip(let count): return up.skip(count)
      case .takeWhile(let limit): return up.take(while: { $0 < limit })
      case .skipWhile(let limit): return up.skip(while: { $0 < limit })
      case .startWith(let values):
        return values.count == 1 ? up.startWith(values[0]) : up.startWith(values[0], values[1])
      case .elementAt(let index): return up.element(at: index)
      case .ifEmptyDefault(let value): return up.ifEmpty(default: value)
      case .ifEmptySwitch: return up.ifEmpty(switchTo: other!)
      case .enumerated: return up.enumerated().map { Encode.enumerated($0.index, $0.element) }
      case .toArray: return up.toArray().asObservable().map(Encode.array)
      case .materialize:
        return up.materialize().map { Encode.materialized(ModelEvent($0)) }
      case .catchAndReturn(let value): return up.catchAndReturn(value)
      case .catchSwitch: return up.catch { _ in other! }
      case .retry(let attempts): return up.retry(attempts)
      case .debounce(let d): return up.debounce(.seconds(d), scheduler: scheduler)
      case .throttle(let d, let latest):
        return up.throttle(.seconds(d), latest: latest, scheduler: scheduler)
      case .delay(let d): return up.delay(.seconds(d), scheduler: scheduler)
      case .delaySubscription(let d):
        return up.delaySubscription(.seconds(d), scheduler: scheduler)
      case .timeout(let d): return up.timeout(.seconds(d), scheduler: scheduler)
      case .timeoutSwitch(let d, _):
        return up.timeout(.seconds(d), other: other!, scheduler: scheduler)
      case .buffer(let span, let count):
        return up.buffer(timeSpan: .seconds(span), count: count, scheduler: scheduler)
          .map(Encode.array)
      }
    }
  }
}

/// What one case gave.
enum CaseOutcome: Equatable {
  case agreed
  /// The model cannot order two things at the same tick; the case says nothing.
  case ambiguous
  case diverged(expected: ModelResult, actual: ModelResult)
}

enum Differential {
  static func check(_ pipeline: Pipeline) -> CaseOutcome {
    let expected: ModelResult
    do {
      expected = try ReferenceModel.run(pipeline)
    } catch {
      return .ambiguous
    }
    let actual = StreamsRunner.run(pipeline)
    return actual == expected ? .agreed : .diverged(expected: expected, actual: actual)
  }

  /// Drops operators and source events while the case still diverges.
  static func shrink(_ pipeline: Pipeline) -> Pipeline {
    var current = pipeline
    var progress = true
    while progress {
      progress = false
      for candidate in shrinkCandidates(current) {
        if case .diverged = check(candidate) {
          current = candidate
          progress = true
          break
        }
      }
    }
    return current
  }

  /// A readable report of a divergence.
  static func report(seed: UInt64, _ pipeline: Pipeline) -> String {
    var text = "seed \(seed) diverges:\n\(pipeline)\n"
    let shrunk = shrink(pipeline)
    text += "shrunk:\n\(shrunk)\n"
    if case .diverged(let expected, let actual) = check(shrunk) {
      text += "  expected (model): \(expected.events)  subscriptions \(expected.subscriptions)\n"
      text += "  actual (Streams): \(actual.events)  subscriptions \(actual.subscriptions)\n"
    }
    return text
  }

  /// Runs `count` cases from `seed` on; returns the reports of the divergences (at most `limit`).
  static func run(seed: UInt64, count: Int, limit: Int = 3) -> (
    agreed: Int, ambiguous: Int, failures: [String]
  ) {
    var agreed = 0
    var ambiguous = 0
    var failures: [String] = []
    var seeds = SplitMix64(seed: seed)
    for _ in 0..<count {
      let caseSeed = seeds.next()
      let pipeline = PipelineGenerator.pipeline(seed: caseSeed)
      switch check(pipeline) {
      case .agreed: agreed += 1
      case .ambiguous: ambiguous += 1
      case .diverged:
        failures.append(report(seed: caseSeed, pipeline))
        if failures.count >= limit { return (agreed, ambiguous, failures) }
      }
    }
    return (agreed, ambiguous, failures)
  }
}

@Suite("differential fuzzing against the reference model")
struct DifferentialTests {
  @Test("random pipelines agree with the model (seed and count from the environment)")
  func randomPipelines() {
    let environment = ProcessInfo.processInfo.environment
    let seed =
      environment["STREAMS_FUZZ_SEED"].flatMap { UInt64($0) }
      ?? UInt64(truncatingIfNeeded: Int64(Date().timeIntervalSince1970 * 1000))
    let count = environment["STREAMS_FUZZ_CASES"].flatMap { Int($0) } ?? 10_000
    let start = Date()
    let result = Differential.run(seed: seed, count: count)
    print(
      "DifferentialTests: seed \(seed), \(count) cases: \(result.agreed) agreed, "
        + "\(result.ambiguous) ambiguous (skipped), \(result.failures.count) diverged, "
        + "\(Int(Date().timeIntervalSince(start) * 1000)) ms")
    for failure in result.failures { print(failure) }
    #expect(result.failures.isEmpty, "seed \(seed): \(result.failures.first ?? "")")
    #expect(result.agreed > count / 2, "most cases must be decidable")
  }
}

@Suite("differential fuzzing: fixed cases")
struct DifferentialRegressionTests {
  private static func hot(_ events: [Recorded<ModelEvent>]) -> SourceSpec {
    SourceSpec(isHot: true, events: events)
  }

  private static func cold(_ events: [Recorded<ModelEvent>]) -> SourceSpec {
    SourceSpec(isHot: false, events: events)
  }

  @Test("fixed seeds agree with the model")
  func fixedSeeds() {
    let result = Differential.run(seed: 0x5EED, count: 500)
    #expect(result.failures.isEmpty, "\(result.failures)")
    #expect(result.agreed > 440)
  }

  @Test("startWith subscribes its source even when the consumer ended during the prefix")
  func startWithSubscribesAfterTheConsumerEnded() throws {
    // As RxSwift's StartWith: the source is subscribed and disposed in the same tick.
    let pipeline = Pipeline(
      sources: [Self.hot([])],
      root: .unary(.elementAt(0), .unary(.startWith([7, 15]), .source(0))))
    let expected = ModelResult(
      events: [[Recorded(time: 200, value: .next(7)), Recorded(time: 200, value: .completed)]],
      subscriptions: [[Subscription(200, 200)]])
    #expect(try ReferenceModel.run(pipeline) == expected)
    #expect(StreamsRunner.run(pipeline) == expected)
  }

  @Test("a switch after the prefix ended the consumer still records the source's subscription")
  func ifEmptySwitchAfterStartWith() throws {
    let pipeline = Pipeline(
      sources: [Self.hot([]), Self.cold([Recorded(time: 64, value: .error(3))])],
      root: .unary(
        .ifEmptySwitch(.source(1)), .unary(.takeWhile(12), .unary(.startWith([18]), .source(0)))))
    let expected = ModelResult(
      events: [[Recorded(time: 264, value: .error(3))]],
      subscriptions: [[Subscription(200, 200)], [Subscription(200, 264)]])
    #expect(try ReferenceModel.run(pipeline) == expected)
    #expect(StreamsRunner.run(pipeline) == expected)
  }

  @Test("delay sends events of one tick one tick apart; throttle completes with the last element")
  func timeOperators() throws {
    let source = Self.cold([
      Recorded(time: 10, value: .next(1)), Recorded(time: 10, value: .next(2)),
      Recorded(time: 40, value: .completed),
    ])
    let delayed = Pipeline(sources: [source], root: .unary(.delay(20), .source(0)))
    let expected = ModelResult(
      events: [
        [
          Recorded(time: 230, value: .next(1)), Recorded(time: 231, value: .next(2)),
          Recorded(time: 260, value: .completed),
        ]
      ],
      subscriptions: [[Subscription(200, 240)]])
    #expect(try ReferenceModel.run(delayed) == expected)
    #expect(StreamsRunner.run(delayed) == expected)
    let throttled = Pipeline(
      sources: [source], root: .unary(.throttle(50, latest: true), .source(0)))
    let throttledExpected = ModelResult(
      events: [
        [
          Recorded(time: 210, value: .next(1)), Recorded(time: 260, value: .next(2)),
          Recorded(time: 260, value: .completed),
        ]
      ],
      subscriptions: [[Subscription(200, 240)]])
    #expect(try ReferenceModel.run(throttled) == throttledExpected)
    #expect(StreamsRunner.run(throttled) == throttledExpected)
  }

  @Test("delaySubscription over a source that ends the consumer while subscribing disposes it")
  func delaySubscriptionOverSynchronousSource() {
    // The scheduled action's disposable is disposed while it runs: what it returns is disposed at
    // once, at the action's time (found by this fuzzer: the virtual clock used to move on to the
    // next action first).
    let pipeline = Pipeline(
      sources: [Self.hot([])],
      root: .unary(.take(1), .unary(.delaySubscription(56), .unary(.startWith([30]), .source(0)))))
    let actual = StreamsRunner.run(pipeline)
    #expect(
      actual.events == [
        [Recorded(time: 256, value: .next(30)), Recorded(time: 256, value: .completed)]
      ]
    )
    #expect(actual.subscriptions == [[Subscription(256, 256)]])
  }

  @Test("a forever share keeps what the source sent while its first subscriber was subscribing")
  func foreverShareAfterASynchronousLeave() throws {
    // The first subscriber ends on 19 while subscribing; its disposal waits until subscribing
    // returned, so 15 still reaches the subject (RxSwift's RefCountSink likewise), and the
    // second subscriber gets 15 replayed before reconnecting.
    let pipeline = Pipeline(
      sources: [Self.cold([])],
      shared: [
        SharedSpec(
          kind: .share(replay: 1, forever: true),
          upstream: .unary(.startWith([19, 15]), .source(0)))
      ],
      consumers: [
        Consumer(root: .unary(.takeWhile(12), .shared(0)), subscribed: 200, disposed: 1000),
        Consumer(root: .shared(0), subscribed: 274, disposed: 1000),
      ])
    let expected = ModelResult(
      events: [
        [Recorded(time: 200, value: .completed)],
        [
          Recorded(time: 274, value: .next(15)), Recorded(time: 274, value: .next(19)),
          Recorded(time: 274, value: .next(15)),
        ],
      ],
      subscriptions: [[Subscription(200, 200), Subscription(274, 1000)]])
    #expect(try ReferenceModel.run(pipeline) == expected)
    #expect(StreamsRunner.run(pipeline) == expected)
  }

  @Test("zip's collection form completes when the last live source emits; the typed form waits")
  func zipFormsComplete() throws {
    // RxSwift's testZip_NAry_asymmetric and testZip_NonEmptyEmpty.
    let sources = [
      Self.hot([Recorded(time: 225, value: .completed)]),
      Self.hot([Recorded(time: 335, value: .next(11)), Recorded(time: 351, value: .completed)]),
    ]
    for collection in [true, false] {
      let pipeline = Pipeline(
        sources: sources, root: .multi(.zip(collection: collection), [.source(0), .source(1)]))
      let end = collection ? 335 : 351
      let expected = ModelResult(
        events: [[Recorded(time: end, value: .completed)]],
        subscriptions: [[Subscription(200, 225)], [Subscription(200, end)]])
      #expect(try ReferenceModel.run(pipeline) == expected)
      #expect(StreamsRunner.run(pipeline) == expected)
    }
  }
}
