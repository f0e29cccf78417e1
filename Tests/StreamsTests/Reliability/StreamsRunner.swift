import Foundation
import Streams
import StreamsTest
import Testing

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
