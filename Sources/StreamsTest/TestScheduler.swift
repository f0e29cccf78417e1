public import Streams

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
/// Time is counted in ticks (``TestTime``). `resolution` is the number of seconds one tick stands
/// for, so with the default resolution of 1 an operator asking for `.seconds(10)` waits 10 ticks,
/// and with `resolution: 0.001` it waits 10 000 ticks (intervals round to the nearest tick).
///
/// Times are adjusted exactly as RxTest adjusts them:
/// - Work requested through the `SchedulerType` API (`schedule`, `scheduleRelative`, periodic
///   scheduling: what operators use) for a tick at or before the clock runs at `clock + 1` when
///   `simulateProcessingDelay` is `true` (the default), or at `clock` when it is `false`.
/// - ``scheduleAt(_:action:)``, `scheduleAbsoluteVirtual`, `scheduleRelativeVirtual`, the events of
///   hot and cold test observables and the
///   ``start(created:subscribed:disposed:file:line:create:)`` steps run at exactly the tick they
///   name (a tick already in the past runs at the current clock).
/// - Actions due at the same tick run in the order they were scheduled.
///
/// Actions run on the thread that calls ``/Streams/VirtualTimeScheduler/start()``,
/// ``start(file:line:_:)`` or ``/Streams/VirtualTimeScheduler/advanceTo(_:)``; that is why the
/// closures given to ``scheduleAt(_:action:)`` and `start` need not be `Sendable`, as in RxTest.
///
/// As in RxTest, it is a ``/Streams/VirtualTimeScheduler`` over
/// ``TestSchedulerVirtualTimeConverter`` (integer ticks of `resolution` seconds).
public final class TestScheduler: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter>,
  @unchecked Sendable
{
  // `@unchecked Sendable`: the only added state is an immutable flag; the clock and queue are the
  // superclass's lock-guarded state.

  /// RxTest's default times for ``TestScheduler/start(file:line:_:)``.
  public enum Defaults {
    /// When ``TestScheduler/start(file:line:_:)`` creates the sequence: 100.
    public static let created = 100
    /// When ``TestScheduler/start(file:line:_:)`` subscribes: 200.
    public static let subscribed = 200
    /// When ``TestScheduler/start(file:line:_:)`` disposes the subscription: 1000.
    public static let disposed = 1000
  }

  private let simulateProcessingDelay: Bool

  /// A scheduler whose clock starts at `initialClock`.
  ///
  /// ```swift
  /// let scheduler = TestScheduler(initialClock: 0, resolution: 0.1)
  /// _ = scheduler.scheduleRelative((), dueTime: .seconds(1)) { _ in
  ///   print(scheduler.clock)
  ///   return Disposables.create()
  /// }
  /// scheduler.start()
  /// // Prints "10"
  /// ```
  ///
  /// - Parameters:
  ///   - initialClock: The tick the clock starts at.
  ///   - resolution: Seconds per tick: `.seconds(n)` lasts `n / resolution` ticks.
  ///   - simulateProcessingDelay: When `true`, work requested through the `SchedulerType` API for
  ///     the current tick (or earlier) runs one tick later, as in RxTest.
  public init(
    initialClock: TestTime, resolution: Double = 1.0, simulateProcessingDelay: Bool = true
  ) {
    self.simulateProcessingDelay = simulateProcessingDelay
    super.init(
      initialClock: initialClock,
      converter: TestSchedulerVirtualTimeConverter(resolution: resolution))
  }

  /// Moves a time at or before the clock to `clock + 1` (with the processing delay) or to `clock`.
  ///
  /// ```swift
  /// let scheduler = TestScheduler(initialClock: 200)
  /// print(scheduler.adjustScheduledTime(150))
  /// // Prints "201"
  /// ```
  public override func adjustScheduledTime(_ time: Int) -> Int {
    let current = clock
    return time <= current ? current + (simulateProcessingDelay ? 1 : 0) : time
  }

  /// Runs `action` at tick `time` exactly (not adjusted), as RxTest's `scheduleAt`.
  ///
  /// ```swift
  /// let subject = PublishSubject<Int>()
  /// let observer = scheduler.createObserver(Int.self)
  /// scheduler.scheduleAt(100) { _ = subject.subscribe(observer) }
  /// scheduler.scheduleAt(210) { subject.onNext(1) }
  /// scheduler.start()
  /// // observer.events == [.next(210, 1)]
  /// ```
  ///
  /// The action runs on the thread that drives the clock, so it need not be `Sendable`.
  /// A `time` already in the past runs at the current clock when the scheduler next runs.
  public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) {
    let box = UncheckedBox(action)
    _ = scheduleAbsoluteVirtual((), time: time) { _ in
      box.value()
      return Disposables.create()
    }
  }

  /// A hot observable that emits `events` at their absolute times, whoever is subscribed.
  ///
  /// ```swift
  /// let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(300)])
  /// let res = scheduler.start { xs }
  /// // res.events == [.next(210, 2), .completed(300)]   (150 happened before the subscription)
  /// ```
  ///
  /// Events are scheduled when the observable is created; subscribers only see those after
  /// their subscription time, in subscription order (see ``TestableObservable``). Disposing a
  /// subscription records its end in ``TestableObservable/subscriptions``.
  public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>])
    -> TestableObservable<Element>
  {
    HotObservable(scheduler: self, recordedEvents: events)
  }

  /// A cold observable that emits `events` relative to each subscription's time.
  ///
  /// ```swift
  /// let xs = scheduler.createColdObservable([.next(10, "a"), .completed(20)])
  /// let res = scheduler.start { xs }
  /// // res.events == [.next(210, "a"), .completed(220)]
  /// ```
  ///
  /// Every subscription gets its own replay; disposing it stops delivery and records its end in
  /// ``TestableObservable/subscriptions``.
  public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>])
    -> TestableObservable<Element>
  {
    ColdObservable(scheduler: self, recordedEvents: events)
  }

  /// An observer that records what it receives, stamped with this scheduler's clock.
  ///
  /// ```swift
  /// let observer = scheduler.createObserver(Int.self)
  /// scheduler.scheduleAt(10) { observer.onNext(1) }
  /// scheduler.start()
  /// print(observer.events)
  /// // Prints "[next(1) @ 10]"
  /// ```
  public func createObserver<Element>(_ type: Element.Type) -> TestableObserver<Element> {
    TestableObserver(scheduler: self)
  }

  /// Creates the sequence at `created`, subscribes at `subscribed`, disposes at `disposed`, runs
  /// the scheduler until nothing is left to do, and returns what the observer recorded.
  ///
  /// ```swift
  /// let xs = scheduler.createColdObservable([.next(10, 1), .next(500, 2)])
  /// let res = scheduler.start(created: 50, subscribed: 100, disposed: 300) { xs }
  /// // res.events == [.next(110, 1)];  xs.subscriptions == [Subscription(100, 300)]
  /// ```
  ///
  /// The subscription and disposal times must not be in the past: calling `start` a second time
  /// on the same scheduler (whose clock is then at the first run's end) with the same times is a
  /// programming error that stops with a message naming the caller. RxTest would subscribe and
  /// dispose at the current tick and record nothing. Use a new `TestScheduler` per run, or later
  /// times. (A creation time in the past, as with `initialClock: 150`, runs at the current tick.)
  ///
  /// - Parameters:
  ///   - created: When `create` runs (virtual time).
  ///   - subscribed: When the sequence is subscribed.
  ///   - disposed: When the subscription is disposed.
  ///   - file: The caller's file, named in the message of a misuse.
  ///   - line: The caller's line, named in the message of a misuse.
  ///   - create: Runs once at `created`, on the thread that calls `start`.
  public func start<Element, OutputSequence: ObservableConvertibleType>(
    created: TestTime, subscribed: TestTime, disposed: TestTime,
    file: StaticString = #fileID, line: UInt = #line,
    create: @escaping () -> OutputSequence
  ) -> TestableObserver<Element> where OutputSequence.Element == Element {
    let now = clock
    if !(min(subscribed, disposed) >= now) {
      fatalError(
        "TestScheduler.start: the clock is already at \(now), past the subscription time "
          + "\(subscribed) or the disposal time \(disposed), so nothing would be recorded; was start "
          + "called twice on the same scheduler? Create a new TestScheduler for each run, or pass "
          + "later times to start(created:subscribed:disposed:).", file: file, line: line)
    }
    let box = Locked(StartState<Element>())
    let observer = createObserver(Element.self)
    let factory = UncheckedBox(create)
    scheduleAt(created) {
      let source = factory.value().asObservable()
      box.withLock { $0.source = UncheckedBox(source) }
    }
    scheduleAt(subscribed) {
      let source = box.withLock { $0.source }
      guard let source else { return }
      let subscription = source.value.subscribe(observer)
      box.withLock { $0.subscription = subscription }
    }
    scheduleAt(disposed) {
      let subscription = box.withLock { $0.subscription }
      subscription?.dispose()
    }
    start()
    return observer
  }

  /// ``start(created:subscribed:disposed:file:line:create:)`` with RxTest's default creation (100)
  /// and subscription (200) times.
  ///
  /// ```swift
  /// let res = scheduler.start(disposed: 250) { xs }
  /// ```
  public func start<Element, OutputSequence: ObservableConvertibleType>(
    disposed: TestTime, file: StaticString = #fileID, line: UInt = #line,
    create: @escaping () -> OutputSequence
  ) -> TestableObserver<Element> where OutputSequence.Element == Element {
    start(
      created: Defaults.created, subscribed: Defaults.subscribed, disposed: disposed, file: file,
      line: line, create: create)
  }

  /// ``start(created:subscribed:disposed:file:line:create:)`` with RxTest's default times: created
  /// at 100, subscribed at 200, disposed at 1000.
  ///
  /// ```swift
  /// let res = scheduler.start { xs.map { $0 * 2 } }
  /// ```
  public func start<Element, OutputSequence: ObservableConvertibleType>(
    file: StaticString = #fileID, line: UInt = #line,
    _ create: @escaping () -> OutputSequence
  ) -> TestableObserver<Element> where OutputSequence.Element == Element {
    start(
      created: Defaults.created, subscribed: Defaults.subscribed, disposed: Defaults.disposed,
      file: file, line: line, create: create)
  }
}

/// RxTest's name for the clock of ``TestScheduler``: integer ticks of `resolution` seconds.
///
/// ```swift
/// final class TickScheduler: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter> {
///   init() { super.init(initialClock: 0, converter: TestSchedulerVirtualTimeConverter(resolution: 1)) }
/// }
/// ```
public typealias TestSchedulerVirtualTimeConverter = VirtualTickConverter

/// Holds the sequence and subscription of one ``TestScheduler/start(file:line:_:)`` run.
private struct StartState<Element> {
  var source: UncheckedBox<Observable<Element>>?
  var subscription: (any Disposable)?
}

/// Carries a value that is only used on the thread driving the virtual clock.
///
/// `@unchecked Sendable`: test factories, actions, events and observers run on the thread that
/// calls `start` or `advanceTo`; the value is never touched concurrently.
struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
