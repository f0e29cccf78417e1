import OpenCombine
import StreamsWorkloads

/// The OpenCombine side of the workloads OpenCombine has operators for, in the same shapes as
/// `StreamsVariants`.
public enum OpenCombineVariants {
  /// Each workload OpenCombine has a counterpart for, by its name in `Workloads.all`.
  public static let all: [String: @Sendable () -> OpenCombineWorkload] = [
    "subject-map-filter": subjectMapFilter,
    "subscribe-dispose": subscribeDispose,
    "chain3-subscribe-dispose": chain3SubscribeDispose,
    "fanout-1000": fanout1000,
    "flatMap-just": flatMapJust,
    "flatMapLatest-just": flatMapLatestJust,
    "range-map-filter-reduce": rangeMapFilterReduce,
    "scan-distinct": scanDistinct,
    "behaviorRelay-10subs": behaviorRelay10,
  ]

  static func subjectMapFilter() -> OpenCombineWorkload {
    let subject = PassthroughSubject<Int, Never>()
    let counter = Counter()
    let cancellable =
      subject
      .map { $0 &+ 1 }
      .filter { $0 != 0 }
      .sink { counter.value &+= $0 }
    return OpenCombineWorkload(
      run: { count in
        for index in 0..<count { subject.send(index) }
      },
      checksum: { counter.value },
      cancellables: [cancellable])
  }

  static func subscribeDispose() -> OpenCombineWorkload {
    let subject = PassthroughSubject<Int, Never>()
    let counter = Counter()
    return OpenCombineWorkload(
      run: { count in
        for _ in 0..<count {
          let cancellable = subject.sink { counter.value &+= $0 }
          cancellable.cancel()
        }
      },
      checksum: { counter.value },
      cancellables: [])
  }

  static func chain3SubscribeDispose() -> OpenCombineWorkload {
    let subject = PassthroughSubject<Int, Never>()
    let counter = Counter()
    let chain = subject.map { $0 &+ 1 }.filter { $0 != 0 }.map { $0 &* 2 }
    return OpenCombineWorkload(
      run: { count in
        for _ in 0..<count {
          let cancellable = chain.sink { counter.value &+= $0 }
          cancellable.cancel()
        }
      },
      checksum: { counter.value },
      cancellables: [])
  }

  static func fanout1000() -> OpenCombineWorkload {
    let subject = PassthroughSubject<Int, Never>()
    let counter = Counter()
    let cancellables = (0..<1000).map { _ in subject.sink { counter.value &+= $0 } }
    return OpenCombineWorkload(
      run: { count in
        for index in 0..<count { subject.send(index) }
      },
      checksum: { counter.value },
      cancellables: cancellables)
  }

  static func flatMapJust() -> OpenCombineWorkload {
    let subject = PassthroughSubject<Int, Never>()
    let counter = Counter()
    let cancellable =
      subject
      .flatMap { Just($0) }
      .sink { counter.value &+= $0 }
    return OpenCombineWorkload(
      run: { count in
        for index in 0..<count { subject.send(index) }
      },
      checksum: { counter.value },
      cancellables: [cancellable])
  }

  /// Combine's `flatMapLatest` is `map` then `switchToLatest`.
  static func flatMapLatestJust() -> OpenCombineWorkload {
    let subject = PassthroughSubject<Int, Never>()
    let counter = Counter()
    let cancellable =
      subject
      .map { Just($0) }
      .switchToLatest()
      .sink { counter.value &+= $0 }
    return OpenCombineWorkload(
      run: { count in
        for index in 0..<count { subject.send(index) }
      },
      checksum: { counter.value },
      cancellables: [cancellable])
  }

  static func rangeMapFilterReduce() -> OpenCombineWorkload {
    let counter = Counter()
    return OpenCombineWorkload(
      run: { count in
        _ = (0..<count).publisher
          .map { $0 &* 3 }
          .filter { $0 & 1 == 0 }
          .reduce(0, &+)
          .sink { counter.value &+= $0 }
      },
      checksum: { counter.value },
      cancellables: [])
  }

  static func scanDistinct() -> OpenCombineWorkload {
    let subject = PassthroughSubject<Int, Never>()
    let counter = Counter()
    let cancellable =
      subject
      .scan(0) { $0 &+ $1 }
      .map { $0 / 2 }
      .removeDuplicates()
      .sink { counter.value &+= $0 }
    return OpenCombineWorkload(
      run: { count in
        for _ in 0..<count { subject.send(1) }
      },
      checksum: { counter.value },
      cancellables: [cancellable])
  }

  /// Combine's counterpart of a BehaviorRelay is a CurrentValueSubject.
  static func behaviorRelay10() -> OpenCombineWorkload {
    let subject = CurrentValueSubject<Int, Never>(0)
    let counter = Counter()
    let cancellables = (0..<10).map { _ in subject.sink { counter.value &+= $0 } }
    return OpenCombineWorkload(
      run: { count in
        for index in 0..<count { subject.send(index) }
      },
      checksum: { counter.value },
      cancellables: cancellables)
  }
}

/// An OpenCombine workload: what `Workload` is for Streams.
public final class OpenCombineWorkload {
  /// Runs the given number of operations.
  public let run: (Int) -> Void
  private let checksum: () -> Int
  private let cancellables: [AnyCancellable]

  init(run: @escaping (Int) -> Void, checksum: @escaping () -> Int, cancellables: [AnyCancellable])
  {
    self.run = run
    self.checksum = checksum
    self.cancellables = cancellables
  }

  /// Cancels every subscription and returns the checksum.
  public func finish() -> Int {
    for cancellable in cancellables { cancellable.cancel() }
    return checksum()
  }
}
