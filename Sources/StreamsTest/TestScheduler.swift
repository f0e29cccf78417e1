@_spi(StreamsInternal) public import Streams

/// A virtual-time scheduler for tests, shaped like RxTest's `TestScheduler`.
///
/// ```swift
/// let scheduler = TestScheduler(initialClock: 0)
/// let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(300)])
/// let res = scheduler.start { xs.map { $0 * 10 } }
/// #expect(res.events == [.next(210, 20), .completed(300)])
/// #expect(xs.subscriptions == [Subscription(200, 300)])
/// ```
///
/// ``start(_:)`` creates the sequence at 100, subscribes at 200 and disposes at 1000, as RxTest
/// does. Actions scheduled at or before the current clock run one tick later when
/// `simulateProcessingDelay` is `true` (the default), as in RxTest.
public final class TestScheduler: VirtualTimeScheduler, @unchecked Sendable {
  // `@unchecked Sendable`: the only added state is an immutable flag; the clock and queue are the
  // superclass's lock-guarded state.

  /// RxTest's default times.
  public enum Defaults {
    /// When ``TestScheduler/start(_:)`` creates the sequence.
    public static let created = 100
    /// When ``TestScheduler/start(_:)`` subscribes.
    public static let subscribed = 200
    /// When ``TestScheduler/start(_:)`` disposes.
    public static let disposed = 1000
  }

  private let simulateProcessingDelay: Bool

  /// A scheduler whose clock starts at `initialClock`, with `resolution` seconds per tick.
  public init(
    initialClock: TestTime, resolution: Double = 1.0, simulateProcessingDelay: Bool = true
  ) {
    self.simulateProcessingDelay = simulateProcessingDelay
    super.init(initialClock: initialClock, resolution: resolution)
  }

  /// Moves actions scheduled at or before the clock one tick later (with the processing delay).
  public override func scheduleAbsoluteVirtual<StateType: Sendable>(
    _ state: StateType, time: Int, action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    let current = clock
    let adjusted = time <= current ? current + (simulateProcessingDelay ? 1 : 0) : time
    return super.scheduleAbsoluteVirtual(state, time: adjusted, action: action)
  }

  /// Runs `action` at tick `time`.
  public func scheduleAt(_ time: TestTime, action: @escaping @Sendable () -> Void) {
    _ = scheduleAbsoluteVirtual((), time: time) { _ in
      action()
      return Disposables.create()
    }
  }

  /// A hot observable that emits `events` at their absolute times, whoever is subscribed.
  public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>])
    -> TestableObservable<Element>
  {
    HotObservable(scheduler: self, recordedEvents: events)
  }

  /// A cold observable that emits `events` relative to each subscription's time.
  public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>])
    -> TestableObservable<Element>
  {
    ColdObservable(scheduler: self, recordedEvents: events)
  }

  /// An observer that records what it receives with the virtual time.
  public func createObserver<Element>(_ type: Element.Type) -> TestableObserver<Element> {
    TestableObserver(scheduler: self)
  }

  /// Creates the sequence at `created`, subscribes at `subscribed`, disposes at `disposed`, runs
  /// the scheduler, and returns what the observer recorded.
  public func start<Element>(
    created: TestTime, subscribed: TestTime, disposed: TestTime,
    _ create: @escaping () -> Observable<Element>
  ) -> TestableObserver<Element> {
    let box = Protected(StartState<Element>())
    let observer = createObserver(Element.self)
    let factory = UncheckedBox(create)
    scheduleAt(created) { box.withLock { $0.source = factory.value() } }
    scheduleAt(subscribed) {
      let source = box.withLock { $0.source }
      guard let source else { return }
      let subscription = source.subscribe(observer)
      box.withLock { $0.subscription = subscription }
    }
    scheduleAt(disposed) {
      let subscription = box.withLock { $0.subscription }
      subscription?.dispose()
    }
    start()
    return observer
  }

  /// ``start(created:subscribed:disposed:_:)`` with the default creation and subscription times.
  public func start<Element>(disposed: TestTime, _ create: @escaping () -> Observable<Element>)
    -> TestableObserver<Element>
  {
    start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: disposed, create)
  }

  /// ``start(created:subscribed:disposed:_:)`` with RxTest's default times (100, 200, 1000).
  public func start<Element>(_ create: @escaping () -> Observable<Element>)
    -> TestableObserver<Element>
  {
    start(
      created: Defaults.created, subscribed: Defaults.subscribed, disposed: Defaults.disposed,
      create)
  }
}

/// Holds the sequence and subscription of one ``TestScheduler/start(_:)`` run.
private struct StartState<Element> {
  var source: Observable<Element>?
  var subscription: (any Disposable)?
}

/// Carries a value that is only used on the scheduler's thread.
///
/// `@unchecked Sendable`: test factories and observers run on the thread driving the virtual
/// clock; the value is never touched concurrently.
struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
