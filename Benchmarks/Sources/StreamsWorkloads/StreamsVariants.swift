import Streams
import StreamsState

/// The Streams side of every workload, written as app code would be: from a module other than
/// Streams, through its public API.
public enum StreamsVariants {
  /// PublishSubject → map → filter → sink; an operation is one `onNext`.
  @Sendable public static func subjectMapFilter() -> Workload {
    let subject = PublishSubject<Int>()
    let counter = Counter()
    let subscription =
      subject
      .map { $0 &+ 1 }
      .filter { $0 != 0 }
      .subscribe(onNext: { counter.value &+= $0 })
    return Workload(
      run: { count in
        for index in 0..<count { subject.onNext(index) }
      },
      checksum: { counter.value },
      tearDown: { subscription.dispose() })
  }

  /// Subscribes one sink to a PublishSubject and disposes it; an operation is one pair.
  @Sendable public static func subscribeDispose() -> Workload { subscribeDispose(at: 0) }

  /// Subscribes one sink to a PublishSubject that already has `present` observers, and disposes
  /// it; an operation is one pair. The cost must not grow with `present`.
  @Sendable public static func subscribeDispose(at present: Int) -> Workload {
    let subject = PublishSubject<Int>()
    let counter = Counter()
    let others = (0..<present).map { _ in subject.subscribe(onNext: { counter.value &+= $0 }) }
    return Workload(
      run: { count in
        for _ in 0..<count {
          let subscription = subject.subscribe(onNext: { counter.value &+= $0 })
          subscription.dispose()
        }
      },
      checksum: { counter.value },
      tearDown: { for other in others { other.dispose() } })
  }

  /// Releases a `DisposeBag` of subscriptions to one PublishSubject that has 10,000 observers
  /// when the teardown starts (the bag's, and others subscribed before them when the bag holds
  /// fewer); an operation is one subscription of the bag disposed. `prepare` fills the bag.
  @Sendable public static func bagTeardown() -> Workload {
    let counter = Counter()
    // The subject and its other observers outlive the run, so that only the bag's subscriptions
    // are torn down inside it; the next `prepare` (untimed) releases them.
    let subject = Held<(PublishSubject<Int>, [any Disposable])>()
    let bag = Held<DisposeBag>()
    return Workload(
      prepare: { count in
        subject.value = nil
        let fresh = PublishSubject<Int>()
        let others = (0..<max(0, 10_000 - count)).map { _ in
          fresh.subscribe(onNext: { counter.value &+= $0 })
        }
        let filled = DisposeBag()
        for _ in 0..<count {
          fresh.subscribe(onNext: { counter.value &+= $0 }).disposed(by: filled)
        }
        subject.value = (fresh, others)
        bag.value = filled
      },
      run: { _ in
        bag.value = nil  // releases the bag: one dispose per subscription
      },
      checksum: { counter.value },
      tearDown: { subject.value = nil })
  }

  /// Subscribes through map → filter → map to a PublishSubject and disposes; an operation is one
  /// pair. The chain is built once, as an app builds it once and subscribes many times.
  @Sendable public static func chain3SubscribeDispose() -> Workload {
    let subject = PublishSubject<Int>()
    let counter = Counter()
    let chain = subject.map { $0 &+ 1 }.filter { $0 != 0 }.map { $0 &* 2 }
    return Workload(
      run: { count in
        for _ in 0..<count {
          let subscription = chain.subscribe(onNext: { counter.value &+= $0 })
          subscription.dispose()
        }
      },
      checksum: { counter.value },
      tearDown: {})
  }

  /// One PublishSubject with 1000 subscribers; an operation is one `onNext` reaching all of them.
  @Sendable public static func fanout1000() -> Workload {
    let subject = PublishSubject<Int>()
    let counter = Counter()
    let subscriptions = (0..<1000).map { _ in
      subject.subscribe(onNext: { counter.value &+= $0 })
    }
    return Workload(
      run: { count in
        for index in 0..<count { subject.onNext(index) }
      },
      checksum: { counter.value },
      tearDown: { for subscription in subscriptions { subscription.dispose() } })
  }

  /// `flatMap { Observable.just($0) }` on a PublishSubject; an operation is one outer `onNext`.
  @Sendable public static func flatMapJust() -> Workload {
    let subject = PublishSubject<Int>()
    let counter = Counter()
    let subscription =
      subject
      .flatMap { Observable.just($0) }
      .subscribe(onNext: { counter.value &+= $0 })
    return Workload(
      run: { count in
        for index in 0..<count { subject.onNext(index) }
      },
      checksum: { counter.value },
      tearDown: { subscription.dispose() })
  }

  /// `flatMapLatest { Observable.just($0) }` on a PublishSubject; an operation is one outer
  /// `onNext`.
  @Sendable public static func flatMapLatestJust() -> Workload {
    let subject = PublishSubject<Int>()
    let counter = Counter()
    let subscription =
      subject
      .flatMapLatest { Observable.just($0) }
      .subscribe(onNext: { counter.value &+= $0 })
    return Workload(
      run: { count in
        for index in 0..<count { subject.onNext(index) }
      },
      checksum: { counter.value },
      tearDown: { subscription.dispose() })
  }

  /// `combineLatest` of two BehaviorSubjects updated in turn; an operation is one update.
  @Sendable public static func combineLatest2() -> Workload {
    let first = BehaviorSubject(value: 0)
    let second = BehaviorSubject(value: 0)
    let counter = Counter()
    let subscription = Observable.combineLatest(first, second) { $0 &+ $1 }
      .subscribe(onNext: { counter.value &+= $0 })
    return Workload(
      run: { count in
        for index in 0..<count {
          if index & 1 == 0 { first.onNext(index) } else { second.onNext(index) }
        }
      },
      checksum: { counter.value },
      tearDown: { subscription.dispose() })
  }

  /// A cold `range` through map, filter and reduce; `run(n)` subscribes once to a range of `n`
  /// elements, so an operation is one element (the subscription is part of the cost).
  @Sendable public static func rangeMapFilterReduce() -> Workload {
    let counter = Counter()
    return Workload(
      run: { count in
        _ = Observable.range(start: 0, count: count)
          .map { $0 &* 3 }
          .filter { $0 & 1 == 0 }
          .reduce(0, accumulator: &+)
          .subscribe(onNext: { counter.value &+= $0 })
      },
      checksum: { counter.value },
      tearDown: {})
  }

  /// scan → map → distinctUntilChanged on a PublishSubject; an operation is one `onNext`
  /// (half of them pass `distinctUntilChanged`).
  @Sendable public static func scanDistinct() -> Workload {
    let subject = PublishSubject<Int>()
    let counter = Counter()
    let subscription =
      subject
      .scan(0) { $0 &+ $1 }
      .map { $0 / 2 }
      .distinctUntilChanged()
      .subscribe(onNext: { counter.value &+= $0 })
    return Workload(
      run: { count in
        for _ in 0..<count { subject.onNext(1) }
      },
      checksum: { counter.value },
      tearDown: { subscription.dispose() })
  }

  /// `accept` on a BehaviorRelay with 10 subscribers; an operation is one `accept`.
  @Sendable public static func behaviorRelay10() -> Workload {
    let relay = BehaviorRelay(value: 0)
    let counter = Counter()
    let subscriptions = (0..<10).map { _ in
      relay.subscribe(onNext: { counter.value &+= $0 })
    }
    return Workload(
      run: { count in
        for index in 0..<count { relay.accept(index) }
      },
      checksum: { counter.value },
      tearDown: { for subscription in subscriptions { subscription.dispose() } })
  }

  /// PublishSubject → map → `share(replay: 1)` with 10 subscribers; an operation is one `onNext`.
  @Sendable public static func shareReplay10() -> Workload {
    let subject = PublishSubject<Int>()
    let counter = Counter()
    let shared = subject.map { $0 &+ 1 }.share(replay: 1)
    let subscriptions = (0..<10).map { _ in
      shared.subscribe(onNext: { counter.value &+= $0 })
    }
    return Workload(
      run: { count in
        for index in 0..<count { subject.onNext(index) }
      },
      checksum: { counter.value },
      tearDown: { for subscription in subscriptions { subscription.dispose() } })
  }

  /// `debounce` on a VirtualTimeScheduler; an operation is one `onNext` followed by advancing
  /// the clock past the due time, so every element goes through the timer and out.
  @Sendable public static func debounceVirtual() -> Workload {
    let subject = PublishSubject<Int>()
    let scheduler = VirtualTimeScheduler(initialClock: 0)
    let counter = Counter()
    let subscription =
      subject
      .debounce(.seconds(10), scheduler: scheduler)
      .subscribe(onNext: { counter.value &+= $0 })
    var time = 0
    return Workload(
      run: { count in
        for index in 0..<count {
          subject.onNext(index)
          time += 20
          scheduler.advanceTo(time)
        }
      },
      checksum: { counter.value },
      tearDown: { subscription.dispose() })
  }
}

/// `bridge-values`: a producer ahead of one consumer, through Streams' `values` and through
/// `AsyncStream`, in the same shape: the producer sends every element synchronously into the
/// bridge's unbounded buffer, then the consumer drains it with `for await`.
public enum BridgeValues {
  /// The most mallocs one element may cost through `values` (what the malloc check enforces).
  public static let mallocsPerElement = 0

  /// Consumes `count` elements of `Observable.range` through `values`; returns their sum.
  public static func streams(_ count: Int) async -> Int {
    var sum = 0
    do {
      for try await value in Observable.range(start: 0, count: count).values {
        sum &+= value
      }
    } catch {
      preconditionFailure("range does not fail: \(error)")
    }
    return sum
  }

  /// Consumes `count` elements through an `AsyncStream` fed in the same shape; returns their sum.
  public static func asyncStream(_ count: Int) async -> Int {
    let stream = AsyncStream<Int> { continuation in
      for index in 0..<count { continuation.yield(index) }
      continuation.finish()
    }
    var sum = 0
    for await value in stream { sum &+= value }
    return sum
  }
}

/// A value a workload sets up in `prepare` and consumes in `run`.
final class Held<Value> {
  var value: Value?
}

extension StreamsVariants {
  /// BehaviorRelay → `bind(to:)` → StateCell → one `onChange` observer, on the main queue (where
  /// a binding writes synchronously); an operation is one `accept`.
  @Sendable public static func relayBindCell() -> Workload {
    let relay = BehaviorRelay(value: 0)
    let total = CellTotal()
    let (cell, observation) = MainQueue.run {
      let cell = StateCell(0)
      return (cell, cell.onChange { [total] in total.add($0) })
    }
    let binding = relay.bind(to: cell)
    return Workload(
      run: { count in
        MainQueue.run {
          for index in 1...max(count, 1) { relay.accept(index) }
        }
      },
      checksum: { total.value },
      tearDown: {
        binding.dispose()
        MainQueue.run {
          observation.cancel()
          _ = cell
        }
      })
  }
}

/// The running total of a main-actor observer (``Counter`` for main-actor closures).
@MainActor
final class CellTotal: Sendable {
  private let counter = Counter()
  nonisolated init() {}
  func add(_ value: Int) { counter.value &+= value }
  nonisolated var value: Int { MainQueue.run { counter.value } }
}
