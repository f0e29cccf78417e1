/// A scheduler whose clock only moves when told to, counting time in the units of its
/// `Converter`: the base of StreamsTest's `TestScheduler` and of ``HistoricalScheduler``, and what
/// test suites subclass with a converter of their own, as in RxSwift.
///
/// `VirtualTimeScheduler()` counts integer ticks (``VirtualTickConverter``): `resolution` is the
/// number of seconds one tick stands for, so that `.seconds(10)` is 10 ticks at the default
/// resolution of 1. Actions due at the same virtual time run in the order they were scheduled.
/// Actions run on the thread that calls ``start()`` or ``advanceTo(_:)``, never under the
/// scheduler's lock.
///
/// ```swift
/// let scheduler = VirtualTimeScheduler()
/// _ = scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in
///   print(scheduler.clock)
///   return Disposables.create()
/// }
/// scheduler.start()
/// // Prints "5"
/// ```
///
/// A clock of your own: subclass it over a ``VirtualTimeConverterType``, as RxSwift test suites
/// do (`final class MyScheduler: VirtualTimeScheduler<MyConverter>`, calling
/// `super.init(initialClock:converter:)`).
///
/// Differences from RxSwift: relative work is due at the converter's ``VirtualTimeConverterType/virtualTime(_:advancedBy:)``, which by default does what
/// RxSwift does; ``start()`` called from a running action and ``advanceTo(_:)`` to a past time
/// stop the program with a message (RxSwift ignores the nested `start()`); any thread may schedule
/// and dispose (RxSwift asks for one thread).
///
/// Cost: for ``VirtualTickConverter`` and ``HistoricalSchedulerTimeConverter`` the queue keeps
/// times as plain numbers and scheduling allocates nothing once warm; a converter of your own has
/// its times boxed (one allocation per scheduled action) and ordered by its `compareVirtualTime`.
///
/// A subclass restates `@unchecked Sendable` (Swift asks it of every subclass of an
/// `@unchecked Sendable` class, with a warning): the clock and the queue live in a lock-guarded
/// state and the converter is an immutable `Sendable` value; subclasses must keep their own state
/// behind a lock too.
open class VirtualTimeScheduler<Converter: VirtualTimeConverterType>: SchedulerType,
  @unchecked Sendable
{
  /// The unit of the clock.
  public typealias VirtualTime = Converter.VirtualTimeUnit
  /// The unit of a distance between two virtual times.
  public typealias VirtualTimeInterval = Converter.VirtualTimeIntervalUnit

  /// The clock, the run flag and the queue: guarded by one lock, which every scheduled item
  /// shares (an item's own phase is guarded by it too, so that an item needs no lock of its own).
  /// The queue is not generic: it holds times as ``VirtualInstant``s (see there).
  private let state: Locked<VirtualTimeQueue>

  /// How the clock counts time.
  public let converter: Converter

  /// Converts between the converter's times and the queue's instants.
  private let bridge: VirtualInstantBridge<VirtualTime>

  /// A scheduler whose clock starts at `initialClock` and counts time as `converter` does.
  ///
  /// ```swift
  /// let scheduler = VirtualTimeScheduler(
  ///   initialClock: 100, converter: VirtualTickConverter(resolution: 0.001))
  /// print(scheduler.now.timeIntervalSince1970)
  /// // Prints "0.1"
  /// ```
  public init(initialClock: VirtualTime, converter: Converter) {
    let bridge = VirtualInstantBridge(converter)
    state = Locked(VirtualTimeQueue(clock: bridge.erase(initialClock), order: bridge.order))
    self.converter = converter
    self.bridge = bridge
  }

  /// The current virtual time.
  public var clock: VirtualTime { currentClock() }

  /// `true` while ``start()`` or ``advanceTo(_:)`` is running actions.
  public var isEnabled: Bool { state.withLock { $0.running } }

  /// The current time, as the converter turns the clock into a `Date` (``RxTime``).
  public var now: RxTime { converter.convertFromVirtualTime(currentClock()) }

  /// The clock, read under the lock (a method, so that it can be pre-specialized).
  private func currentClock() -> VirtualTime {
    bridge.restore(state.withLock { $0.clock })
  }

  /// The clock in whole nanoseconds since 1970, for the time operators (``SchedulerClock``).
  var nanosecondsNow: Int64 { bridge.nanoseconds(currentClock()) }

  /// Runs `action` now, after actions already due now (at the time ``adjustScheduledTime(_:)``
  /// gives for the current clock).
  public func schedule<StateType: Sendable>(
    _ state: StateType, action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    scheduleRelative(state, dueTime: .nanoseconds(0), action: action)
  }

  /// Runs `action` `dueTime` after the current time: at the converter's
  /// ``VirtualTimeConverterType/virtualTime(_:advancedBy:)`` of the clock, as
  /// ``adjustScheduledTime(_:)`` adjusts it.
  public func scheduleRelative<StateType: Sendable>(
    _ state: StateType, dueTime: RxTimeInterval,
    action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    // As on the dispatch schedulers, work due `.never` never runs (nor moves the clock to the
    // end of time).
    if case .never = dueTime { return BooleanDisposable() }
    let due = converter.virtualTime(clock, advancedBy: dueTime)
    return scheduleAbsoluteVirtual(state, time: adjustScheduledTime(due), action: action)
  }

  /// Runs `action` `dueTime` after the current virtual time, without adjusting the time (as
  /// RxSwift's `scheduleRelativeVirtual`).
  public func scheduleRelativeVirtual<StateType: Sendable>(
    _ state: StateType, dueTime: VirtualTimeInterval,
    action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    scheduleAbsoluteVirtual(
      state, time: converter.offsetVirtualTime(clock, offset: dueTime), action: action)
  }

  /// The virtual time at which an action requested for `time` through the `SchedulerType` API
  /// (``schedule(_:action:)``, ``scheduleRelative(_:dueTime:action:)``, periodic scheduling)
  /// runs. The base class returns `time`; `TestScheduler` moves times at or before the clock
  /// one tick later, as RxTest does. ``scheduleAbsoluteVirtual(_:time:action:)`` and
  /// ``scheduleRelativeVirtual(_:dueTime:action:)`` do not adjust, as in RxSwift.
  open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime { time }

  /// Runs `action` after `startAfter` and then every `period`, as RxSwift's periodic scheduling
  /// does on a virtual-time scheduler: each tick first schedules the next one `period` later
  /// (through ``scheduleRelative(_:dueTime:action:)``, so adjusted times apply), then runs
  /// `action`. Disposing the result cancels the pending tick.
  public func schedulePeriodic<StateType: Sendable>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping @Sendable (StateType) -> StateType
  ) -> any Disposable {
    if case .never = startAfter { return BooleanDisposable() }
    let run = VirtualPeriodicRun(scheduler: self, period: period, state: state, action: action)
    run.serial.disposable = scheduleRelative((), dueTime: startAfter) { _ in
      run.tick()
      return Disposables.create()
    }
    return run.serial
  }

  /// Runs `action` at virtual time `time` exactly (a time already past runs at the current
  /// clock). Subclasses may override it to observe or change scheduling; the RxTest time
  /// adjustment lives in ``adjustScheduledTime(_:)``.
  ///
  /// Disposing the result before the action runs takes the action out of the queue; disposing it
  /// after disposes what the action returned.
  open func scheduleAbsoluteVirtual<StateType: Sendable>(
    _ state: StateType, time: VirtualTime,
    action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    let action = Tracing.carryingCause(action, to: "\(type(of: self))")
    let instant = bridge.erase(time)
    return self.state.withLock { s in
      let item =
        s.takeSpare(VirtualScheduledAction<StateType>.self)
        ?? VirtualScheduledAction<StateType>(guarded: self.state)
      item.prepare(time: instant, state: state, action: action)
      s.insert(item)
      return item
    }
  }

  /// Runs every scheduled action in time order until the queue is empty or ``stop()`` is called.
  public func start() {
    run(until: nil)
  }

  /// Runs the actions due up to and including `time`, then sets the clock to `time` (also when
  /// ``stop()`` ended the run early, as in RxSwift). Moving backwards is a programming error.
  public func advanceTo(_ time: VirtualTime) {
    let current = clock
    if converter.compareVirtualTime(time, current) == .lessThan {
      streamsStop(
        "VirtualTimeScheduler.advanceTo(\(time)) would move the clock back from \(current)")
    }
    run(until: bridge.erase(time))
  }

  /// Moves the clock forward by `interval` without running anything. Moving backwards is a
  /// programming error.
  public func sleep(_ interval: VirtualTimeInterval) {
    // The clock only moves forward, and only the thread driving it (or a test between runs)
    // sleeps, so reading it first and storing the new time later is enough.
    let current = clock
    let target = converter.offsetVirtualTime(current, offset: interval)
    let moved = converter.compareVirtualTime(target, current) != .lessThan
    if moved {
      let instant = bridge.erase(target)
      state.withLock { $0.clock = instant }
    }
    if !moved {
      streamsStop(
        "VirtualTimeScheduler.sleep(\(interval)) would move the clock back; sleep forward")
    }
  }

  /// Stops ``start()`` or ``advanceTo(_:)`` after the action that is running.
  public func stop() {
    state.withLock { $0.running = false }
  }

  private func run(until limit: VirtualInstant?) {
    // `driving` covers the whole loop; `running` is cleared by `stop()` while an action may still
    // be under way, so it cannot guard against a second loop.
    let alreadyRunning = state.withLock { s -> Bool in
      if s.driving { return true }
      s.driving = true
      s.running = true
      return false
    }
    if alreadyRunning {
      streamsStop("VirtualTimeScheduler is already running; it is not reentrant")
    }
    // What the last action returned is handed to its item in the same lock round trip that takes
    // the next item: one lock per action.
    var finished: (item: any VirtualScheduledItem, result: any Disposable)?
    while true {
      let (next, orphan) = state.withLock { s -> ((any VirtualScheduledItem)?, (any Disposable)?) in
        let orphan = finished.flatMap { s.finish($0.item, result: $0.result) }
        // What an action disposed while it ran returned is disposed at the action's time: the
        // clock moves on to the next item only after that.
        return (orphan == nil ? s.takeDue(until: limit) : nil, orphan)
      }
      finished = nil
      if let orphan {
        orphan.dispose()
        continue
      }
      guard let next else { break }
      finished = (next, next.runOnce())
    }
    state.withLock { s in
      if let limit, s.compare(s.clock, limit) == .lessThan { s.clock = limit }
      s.running = false
      s.driving = false
    }
  }

  deinit {
    // Queued and spare items hold the lock storage that holds them: let them go.
    let held = state.withLock { s -> ([VirtualTimeQueue.Entry], [any VirtualScheduledItem]) in
      defer {
        s.queue = []
        s.spares = []
      }
      return (s.queue, s.spares)
    }
    withExtendedLifetime(held) {}
  }
}

extension VirtualTimeScheduler where Converter == VirtualTickConverter {
  /// A scheduler counting integer ticks from `initialClock`, with `resolution` seconds per tick.
  ///
  /// ```swift
  /// let scheduler = VirtualTimeScheduler(initialClock: 0, resolution: 0.001)
  /// _ = scheduler.scheduleRelative((), dueTime: .milliseconds(40)) { _ in
  ///   Disposables.create()
  /// }
  /// scheduler.start()
  /// print(scheduler.clock)
  /// // Prints "40"
  /// ```
  public convenience init(
    initialClock: Int = 0, resolution: Double = 1.0, file: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(
      initialClock: initialClock,
      converter: VirtualTickConverter(resolution: resolution, file: file, line: line))
  }

  /// Seconds per tick.
  public var resolution: Double { converter.resolution }

  /// Converts an interval to ticks, rounding to the nearest tick (`Int.max` for `.never`).
  ///
  /// ```swift
  /// print(VirtualTimeScheduler(resolution: 0.001).ticks(.milliseconds(250)))
  /// // Prints "250"
  /// ```
  public func ticks(_ interval: RxTimeInterval) -> Int {
    converter.ticks(interval)
  }
}

extension VirtualTimeScheduler: NanosecondClock {}
