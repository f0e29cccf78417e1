/// One benchmark workload, set up and ready to run operations.
///
/// `run(n)` performs `n` operations (events, subscribe/dispose pairs, deliveries: whatever the
/// workload's unit is). Setup happens when the workload is made, teardown in `finish()`, so that a
/// benchmark times only `run`.
public final class Workload {
  /// Runs `n` operations.
  public let run: (Int) -> Void
  /// Sets up what the next `run(n)` consumes (untimed; called with the same `n` right before it):
  /// for workloads whose operation takes something apart, such as tearing down a bag.
  public let prepare: (Int) -> Void
  private let tearDown: () -> Void
  /// Something the operations wrote, read after the run so they cannot be optimized away.
  private let checksum: () -> Int

  init(
    prepare: @escaping (Int) -> Void = { _ in }, run: @escaping (Int) -> Void,
    checksum: @escaping () -> Int, tearDown: @escaping () -> Void
  ) {
    self.prepare = prepare
    self.run = run
    self.checksum = checksum
    self.tearDown = tearDown
  }

  /// Tears the workload down and returns its checksum.
  @discardableResult
  public func finish() -> Int {
    tearDown()
    return checksum()
  }
}

/// A mutable sink the workloads write to, so that no operation is dead code.
///
/// The total lives in allocated memory rather than in a stored property: a class's `var` pays a
/// dynamic exclusivity check per write (`swift_beginAccess`, about 80 instructions here), which
/// would be most of what a plain closure costs and would hide the differences being measured.
public final class Counter {
  private let storage: UnsafeMutablePointer<Int>

  /// A counter at zero.
  public init() {
    storage = .allocate(capacity: 1)
    storage.initialize(to: 0)
  }

  deinit { storage.deallocate() }

  /// The running total.
  public var value: Int {
    get { storage.pointee }
    set { storage.pointee = newValue }
  }
}

/// The per-event workloads of the suite, by the name the benchmarks and the malloc check use.
public enum Workloads {
  /// A workload's name, how to make its Streams and baseline variants, and how many mallocs per
  /// operation Streams may make (what the malloc check enforces).
  ///
  /// The allowances are today's counts, so that the check catches any regression: zero for every
  /// per-event workload that meets the zero-allocation target, the measured count for the others
  /// (see Guides/Performance.md for where those allocations come from).
  public struct Entry: Sendable {
    /// The workload's name, as in the benchmark suite (`subject-map-filter`, ...).
    public let name: String
    /// Sets up the Streams variant.
    public let streams: @Sendable () -> Workload
    /// Sets up the plain-Swift baseline.
    public let baseline: @Sendable () -> Workload
    /// The most mallocs one operation of the Streams variant may make.
    public let mallocsPerOperation: Int
  }

  /// Every synchronous workload; `bridge-values` is async and lives in ``BridgeValues``.
  public static let all: [Entry] = [
    Entry(
      name: "subject-map-filter", streams: StreamsVariants.subjectMapFilter,
      baseline: Baselines.subjectMapFilter, mallocsPerOperation: 0),
    Entry(
      name: "subscribe-dispose", streams: StreamsVariants.subscribeDispose,
      baseline: Baselines.subscribeDispose, mallocsPerOperation: 2),
    Entry(
      name: "chain3-subscribe-dispose", streams: StreamsVariants.chain3SubscribeDispose,
      baseline: Baselines.chain3SubscribeDispose, mallocsPerOperation: 5),
    Entry(
      name: "subscribe-dispose-at-1", streams: { StreamsVariants.subscribeDispose(at: 1) },
      baseline: { Baselines.subscribeDispose(at: 1) }, mallocsPerOperation: 2),
    Entry(
      name: "subscribe-dispose-at-100", streams: { StreamsVariants.subscribeDispose(at: 100) },
      baseline: { Baselines.subscribeDispose(at: 100) }, mallocsPerOperation: 2),
    Entry(
      name: "subscribe-dispose-at-10000",
      streams: { StreamsVariants.subscribeDispose(at: 10_000) },
      baseline: { Baselines.subscribeDispose(at: 10_000) }, mallocsPerOperation: 2),
    Entry(
      name: "bag-teardown-10000", streams: StreamsVariants.bagTeardown,
      baseline: Baselines.bagTeardown, mallocsPerOperation: 0),
    Entry(
      name: "fanout-1000", streams: StreamsVariants.fanout1000,
      baseline: Baselines.fanout1000, mallocsPerOperation: 0),
    Entry(
      name: "flatMap-just", streams: StreamsVariants.flatMapJust,
      baseline: Baselines.flatMapJust, mallocsPerOperation: 1),
    Entry(
      name: "flatMapLatest-just", streams: StreamsVariants.flatMapLatestJust,
      baseline: Baselines.flatMapJust, mallocsPerOperation: 1),
    Entry(
      name: "combineLatest2", streams: StreamsVariants.combineLatest2,
      baseline: Baselines.combineLatest2, mallocsPerOperation: 0),
    Entry(
      name: "range-map-filter-reduce", streams: StreamsVariants.rangeMapFilterReduce,
      baseline: Baselines.rangeMapFilterReduce, mallocsPerOperation: 0),
    Entry(
      name: "scan-distinct", streams: StreamsVariants.scanDistinct,
      baseline: Baselines.scanDistinct, mallocsPerOperation: 0),
    Entry(
      name: "behaviorRelay-10subs", streams: StreamsVariants.behaviorRelay10,
      baseline: Baselines.behaviorRelay10, mallocsPerOperation: 0),
    Entry(
      name: "shareReplay1-10subs", streams: StreamsVariants.shareReplay10,
      baseline: Baselines.shareReplay10, mallocsPerOperation: 0),
    Entry(
      name: "debounce-virtual", streams: StreamsVariants.debounceVirtual,
      baseline: Baselines.debounceVirtual, mallocsPerOperation: 0),
    Entry(
      name: "relay-bind-cell", streams: StreamsVariants.relayBindCell,
      baseline: Baselines.relayBindCell, mallocsPerOperation: 0),
  ]
}
