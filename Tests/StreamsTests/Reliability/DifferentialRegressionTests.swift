import Foundation
import Streams
import StreamsTest
import Testing

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

  @Test("takeLast stops sending its values once the consumer ended on one of them")
  func takeLastStopsAfterTheConsumerEnded() throws {
    // Fuzz seed 1961216259136666723, shrunk: the third value would start a third inner sequence
    // (whose `startWith` subscribes s1 even after the end) if takeLast went on sending.
    let s0 = Self.hot([
      Recorded(time: 361, value: .next(11)), Recorded(time: 431, value: .next(17)),
      Recorded(time: 501, value: .next(15)), Recorded(time: 551, value: .completed),
    ])
    let pipeline = Pipeline(
      sources: [s0, Self.hot([])],
      root: .unary(
        .elementAt(2),
        .higher(
          .switchLatest, .unary(.takeLast(3), .source(0)),
          inners: [.unary(.startWith([14, 13]), .source(1))])))
    let expected = ModelResult(
      events: [[Recorded(time: 551, value: .next(14)), Recorded(time: 551, value: .completed)]],
      subscriptions: [[Subscription(200, 551)], [Subscription(551, 551), Subscription(551, 551)]])
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
