#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

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

/// The lock-guarded state of a ``VirtualTimeScheduler``: the clock, the queue of pending items,
/// kept sorted by (time, id) so that items due at the same tick run in scheduling order, and the
/// finished items kept for reuse.
///
/// It is not generic over the scheduler's converter, so that the scheduling path runs no generic
/// code and instantiates no generic metadata (measured: a queue generic over the converter, even
/// pre-specialized, made the `debounce-virtual` benchmark about 2.5 times slower).
struct VirtualTimeQueue {
  /// One pending item, with its sort key stored inline.
  struct Entry {
    let time: VirtualInstant
    let id: Int
    let item: any VirtualScheduledItem
  }

  /// How many finished items are kept for reuse.
  static let maxSpares = 16

  var clock: VirtualInstant
  /// How two instants of a converter of the user's compare; `nil` for the clocks whose instants
  /// are plain numbers.
  let order: VirtualInstant.Order?
  var running = false
  /// Set while ``VirtualTimeScheduler/start()`` or ``VirtualTimeScheduler/advanceTo(_:)`` runs
  /// its loop, even after `stop()` cleared `running`.
  var driving = false
  var nextID = 0
  var queue: [Entry] = []
  /// Finished items holding no state, action or result, reused by later scheduling of the same
  /// state type: scheduling then allocates nothing.
  var spares: [any VirtualScheduledItem] = []

  init(clock: VirtualInstant, order: VirtualInstant.Order?) {
    self.clock = clock
    self.order = order
  }

  /// How `lhs` compares with `rhs`.
  func compare(_ lhs: VirtualInstant, _ rhs: VirtualInstant) -> VirtualTimeComparison {
    if let order, let left = lhs.boxed, let right = rhs.boxed { return order(left, right) }
    return lhs.value < rhs.value ? .lessThan : lhs.value == rhs.value ? .equal : .greaterThan
  }

  /// A spare item of type `Item` that nothing else references, if there is one.
  ///
  /// An item is its own disposable, so a spare may still be held by whoever scheduled it; such an
  /// item is not reused (its holder may still dispose it, which must stay a no-op). Nobody can
  /// take a new reference to an item only the spares hold, so the check cannot go stale.
  mutating func takeSpare<Item: VirtualScheduledItem>(_ type: Item.Type) -> Item? {
    var index = spares.count
    while index > 0 {
      index -= 1
      guard Swift.type(of: spares[index]) == type else { continue }
      var candidate = unsafeDowncast(spares.remove(at: index), to: Item.self)
      if isKnownUniquelyReferenced(&candidate) { return candidate }
      spares.insert(candidate, at: index)
    }
    return nil
  }

  /// Ends the life of `item` for its scheduler: disposing it does nothing from now on.
  mutating func retire(_ item: any VirtualScheduledItem) {
    item.phase = .retired
  }

  /// Keeps a retired item that holds nothing for reuse, unless enough are kept already; returns
  /// it then, for the caller to release outside the lock.
  mutating func recycle(_ item: any VirtualScheduledItem) -> (any VirtualScheduledItem)? {
    if spares.count >= Self.maxSpares { return item }
    spares.append(item)
    return nil
  }

  /// Queues `item` after every item due at or before its time.
  mutating func insert(_ item: any VirtualScheduledItem) {
    let time = item.time
    item.id = nextID
    nextID += 1
    var low = 0
    var high = queue.count
    while low < high {
      let middle = (low + high) / 2
      if compare(queue[middle].time, time) == .greaterThan {
        high = middle
      } else {
        low = middle + 1
      }
    }
    queue.insert(Entry(time: time, id: item.id, item: item), at: low)
  }

  /// Takes `item` out of the queue if it is still there.
  mutating func remove(_ item: any VirtualScheduledItem) -> Entry? {
    let time = item.time
    let id = item.id
    var low = 0
    var high = queue.count
    while low < high {
      let middle = (low + high) / 2
      let entry = queue[middle]
      let order = compare(entry.time, time)
      if order == .lessThan || (order == .equal && entry.id < id) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    guard low < queue.count, queue[low].item === item else { return nil }
    return queue.remove(at: low)
  }

  /// Takes the first item if the run goes on and it is due by `limit`, moving the clock to its
  /// time and marking it running.
  mutating func takeDue(until limit: VirtualInstant?) -> (any VirtualScheduledItem)? {
    guard running, let first = queue.first else { return nil }
    if let limit, compare(first.time, limit) == .greaterThan { return nil }
    queue.removeFirst()
    if compare(first.time, clock) == .greaterThan { clock = first.time }
    first.item.phase = .running
    return first.item
  }

  /// Records what the action of `item` returned. An item whose action returned nothing to
  /// dispose is retired and kept for reuse at once (disposing its token afterwards has nothing
  /// to do either way). Returns `result` when the item was disposed while the action ran, for the
  /// caller to dispose outside the lock.
  mutating func finish(_ item: any VirtualScheduledItem, result: any Disposable) -> (
    any Disposable
  )? {
    if case .running = item.phase {
      guard Swift.type(of: result) == NopDisposable.self else {
        item.phase = .ran(result)
        return nil
      }
      retire(item)
      _ = recycle(item)
      return nil
    }
    retire(item)
    _ = recycle(item)
    return result
  }
}

/// Where a scheduled item is in its life. Read and written under the scheduler's lock.
enum VirtualScheduledPhase {
  /// In the queue.
  case pending
  /// Taken from the queue; its action is running.
  case running
  /// Its action ran and returned this disposable, which its token disposes.
  case ran(any Disposable)
  /// Disposed while its action ran: what the action returns is disposed at once.
  case disposedWhileRunning
  /// Done: its tokens are stale; it is spare or about to be released.
  case retired
}

/// One item of a ``VirtualTimeScheduler``'s queue, whatever the type of its state. It is also the
/// disposable handed out for its action.
///
/// An item is reused after it finished, but only once nothing outside the scheduler references it
/// (``VirtualTimeQueue/takeSpare(_:)``): a disposable that was handed out never starts to stand
/// for another action.
protocol VirtualScheduledItem: Disposable {
  /// The lock of the scheduler it belongs to, which guards `id` and `phase`.
  var guarded: Locked<VirtualTimeQueue> { get }
  /// The time it is due at.
  var time: VirtualInstant { get }
  /// Its place among the items due at the same tick; set when it is queued.
  var id: Int { get set }
  /// Where it is in its life.
  var phase: VirtualScheduledPhase { get set }
  /// Runs the action and lets go of it and its state. Called on the thread driving the clock,
  /// without the lock, once the item is taken from the queue: nothing else touches the action or
  /// the state then.
  func runOnce() -> any Disposable
  /// Lets go of the action and the state of an item retired before it ran; called without the
  /// lock by whoever retired it.
  func releaseAction()
}

extension VirtualScheduledItem {
  /// Before the action runs: takes it out of the queue. While it runs: what it returns is
  /// disposed as soon as it returns. After: disposes what it returned.
  func dispose() {
    let guarded = self.guarded
    let (cancelled, result) = guarded.withLock {
      s -> (VirtualTimeQueue.Entry?, (any Disposable)?) in
      switch phase {
      case .pending:
        let entry = s.remove(self)
        s.retire(self)
        return (entry, nil)
      case .running:
        phase = .disposedWhileRunning
        return (nil, nil)
      case .ran(let result):
        s.retire(self)
        _ = s.recycle(self)
        return (nil, result)
      case .disposedWhileRunning, .retired:
        return (nil, nil)
      }
    }
    result?.dispose()
    guard cancelled != nil else { return }
    // Retired while pending: this thread owns the item until it is recycled.
    releaseAction()
    let dropped = guarded.withLock { $0.recycle(self) }
    withExtendedLifetime((cancelled, dropped)) {}
  }
}

/// A scheduled action and its state, reused for later actions with the same state type once it
/// finished.
///
/// `@unchecked Sendable`: `id` and `phase` are only touched under the scheduler's
/// lock (`guarded`); `time`, `state` and `action` are set under that lock while the item is
/// spare or new, and read or cleared by the one thread that owns the item after taking it from
/// the queue or cancelling it (see ``VirtualScheduledItem``).
final class VirtualScheduledAction<StateType: Sendable>: VirtualScheduledItem, @unchecked Sendable {
  let guarded: Locked<VirtualTimeQueue>
  // `@exclusivity(unchecked)`: each is guarded by the scheduler's lock or owned by one thread (see
  // above), so the dynamic exclusivity checks, a few hundred instructions per action, buy nothing.
  @exclusivity(unchecked) private(set) var time = VirtualInstant(value: 0)
  @exclusivity(unchecked) var id = 0
  @exclusivity(unchecked) var phase = VirtualScheduledPhase.retired
  @exclusivity(unchecked) private var state: StateType?
  @exclusivity(unchecked) private var action: (@Sendable (StateType) -> any Disposable)?

  init(guarded: Locked<VirtualTimeQueue>) {
    self.guarded = guarded
  }

  /// Arms a new or spare item; called under the lock.
  func prepare(
    time: VirtualInstant, state: StateType,
    action: @escaping @Sendable (StateType) -> any Disposable
  ) {
    self.time = time
    self.state = state
    self.action = action
    phase = .pending
  }

  func runOnce() -> any Disposable {
    guard let action, let state else {
      streamsStop("VirtualTimeScheduler internal error: an item ran twice")
    }
    releaseAction()
    return action(state)
  }

  func releaseAction() {
    state = nil
    action = nil
  }
}

/// The state of one ``VirtualTimeScheduler/schedulePeriodic(_:startAfter:period:action:)``.
///
/// `@unchecked Sendable`: `state` is only read and written by `tick()`, which runs on the thread
/// driving the virtual clock, one tick at a time (the next tick is queued behind the current one).
private final class VirtualPeriodicRun<Converter: VirtualTimeConverterType, StateType: Sendable>:
  @unchecked Sendable
{
  let scheduler: VirtualTimeScheduler<Converter>
  let period: RxTimeInterval
  let action: @Sendable (StateType) -> StateType
  let serial = SerialDisposable()
  private var state: StateType

  init(
    scheduler: VirtualTimeScheduler<Converter>, period: RxTimeInterval, state: StateType,
    action: @escaping @Sendable (StateType) -> StateType
  ) {
    self.scheduler = scheduler
    self.period = period
    self.state = state
    self.action = action
  }

  func tick() {
    if serial.isDisposed { return }
    if period != .never {
      serial.disposable = scheduler.scheduleRelative((), dueTime: period) { [self] _ in
        tick()
        return Disposables.create()
      }
    }
    state = action(state)
  }
}

/// A virtual time as the queue keeps it: a number for the clocks Streams knows
/// (``VirtualTickConverter``'s ticks, ``HistoricalSchedulerTimeConverter``'s `Date` as the bits of
/// its `Double`, made to order as integers), or the converter's own time in a box, ordered by the
/// converter, for a converter of the user's.
struct VirtualInstant: Sendable {
  /// How two boxed times compare: the converter's `compareVirtualTime`.
  typealias Order =
    @Sendable (any AnyObject & Sendable, any AnyObject & Sendable) -> VirtualTimeComparison

  /// The time, for the known clocks.
  var value: Int64
  /// The converter's time (a ``VirtualTimeBox``), for a converter of the user's.
  var boxed: (any AnyObject & Sendable)?

  init(value: Int64, boxed: (any AnyObject & Sendable)? = nil) {
    self.value = value
    self.boxed = boxed
  }
}

/// A converter's time in a box, for the queue.
final class VirtualTimeBox<Time: Sendable>: Sendable {
  let time: Time
  init(_ time: Time) { self.time = time }
}

/// Converts between a converter's times and ``VirtualInstant``s. Made once per scheduler; the
/// scheduler then calls its closures, which are specialized for the known clocks.
struct VirtualInstantBridge<Time: Sendable>: Sendable {
  let erase: @Sendable (Time) -> VirtualInstant
  let restore: @Sendable (VirtualInstant) -> Time
  let order: VirtualInstant.Order?
  /// The time in whole nanoseconds since 1970, for ``SchedulerClock``: exact for ticks.
  let nanoseconds: @Sendable (Time) -> Int64

  init<Converter: VirtualTimeConverterType>(_ converter: Converter)
  where Converter.VirtualTimeUnit == Time {
    if Converter.self == VirtualTickConverter.self {
      // Time is Int.
      erase = { VirtualInstant(value: Int64(unsafeBitCast($0, to: Int.self))) }
      restore = { unsafeBitCast(Int($0.value), to: Time.self) }
      order = nil
      let ticks = unsafeBitCast(converter, to: VirtualTickConverter.self)
      nanoseconds = { ticks.nanoseconds(unsafeBitCast($0, to: Int.self)) }
    } else if Converter.self == HistoricalSchedulerTimeConverter.self {
      // Time is RxTime (a `Date`).
      erase = { VirtualInstant(value: Self.orderedBits(unsafeBitCast($0, to: RxTime.self))) }
      restore = { unsafeBitCast(Self.date(orderedBits: $0.value), to: Time.self) }
      order = nil
      nanoseconds = { unsafeBitCast($0, to: RxTime.self).streamsNanoseconds }
    } else {
      erase = { VirtualInstant(value: 0, boxed: VirtualTimeBox($0)) }
      restore = { instant in
        guard let box = instant.boxed else {
          streamsStop("VirtualTimeScheduler internal error: an unboxed custom time")
        }
        return unsafeDowncast(box, to: VirtualTimeBox<Time>.self).time
      }
      order = { lhs, rhs in
        converter.compareVirtualTime(
          unsafeDowncast(lhs, to: VirtualTimeBox<Time>.self).time,
          unsafeDowncast(rhs, to: VirtualTimeBox<Time>.self).time)
      }
      nanoseconds = { converter.convertFromVirtualTime($0).streamsNanoseconds }
    }
  }

  /// `date` as an integer that orders as the date does: the bits of its `Double`, with the
  /// magnitude bits of negative values flipped. Exact, and its own inverse (``date(orderedBits:)``).
  static func orderedBits(_ date: RxTime) -> Int64 {
    let bits = Int64(bitPattern: date.timeIntervalSinceReferenceDate.bitPattern)
    return bits < 0 ? bits ^ Int64.max : bits
  }

  /// The date ``orderedBits(_:)`` made `bits` from.
  static func date(orderedBits bits: Int64) -> RxTime {
    let raw = bits < 0 ? bits ^ Int64.max : bits
    return RxTime(timeIntervalSinceReferenceDate: Double(bitPattern: UInt64(bitPattern: raw)))
  }
}

extension VirtualTimeScheduler: NanosecondClock {}
