import Dispatch
import StreamsShims

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A scheduler that runs work on the calling thread through a per-thread trampoline, as RxSwift's
/// `CurrentThreadScheduler`.
///
/// If no trampoline is running on this thread, ``schedule(_:action:)`` runs the action at once and
/// then runs everything that was scheduled meanwhile, in order, before it returns. If a trampoline
/// is already running (the call comes from inside a scheduled action), the action is queued and
/// runs after the current one. Recursion therefore turns into a loop instead of growing the stack.
///
/// ```swift
/// let scheduler = CurrentThreadScheduler.instance
/// _ = scheduler.schedule(()) { _ in
///   _ = scheduler.schedule(()) { _ in print("inner"); return Disposables.create() }
///   print("outer")
///   return Disposables.create()
/// }
/// // Prints "outer", "inner"
/// ```
///
/// Every subscription to a Streams observable runs inside this trampoline (as every `Producer`
/// subscription does in RxSwift), so sources such as
/// ``ObservableType/of(_:scheduler:file:line:)-(_,CurrentThreadScheduler,_,_)`` start emitting only
/// after the whole chain has been subscribed, and an operator that stops early (`take(3)`) can
/// dispose them between two elements.
///
/// Disposing the result of ``schedule(_:action:)`` before the action ran removes it from the
/// queue; it may be called from any thread. Each thread has its own queue: actions never move
/// between threads.
public final class CurrentThreadScheduler: ImmediateSchedulerType {
  /// The shared instance.
  public static let instance = CurrentThreadScheduler()

  private init() {}

  /// `true` when no trampoline is running on the calling thread, so that a call to
  /// ``schedule(_:action:)`` would run its action at once.
  public static var isScheduleRequired: Bool {
    !Trampoline.current.isRunning
  }

  /// Runs `action(state)` now if no trampoline runs on this thread (then runs what it queued),
  /// or queues it behind the running action.
  ///
  /// - Returns: The action's own disposable when it ran at once; otherwise a disposable that
  ///   removes the queued action.
  public func schedule<StateType: Sendable>(
    _ state: StateType, action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    scheduleLocal(state, action: action)
  }

  /// ``schedule(_:action:)`` for state and actions that never leave the calling thread, so need
  /// not be `Sendable`: the queue is per thread.
  func scheduleLocal<StateType>(
    _ state: StateType, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    let trampoline = Trampoline.current
    if trampoline.isRunning {
      let item = QueuedAction(state: state, action: action)
      trampoline.enqueue(item)
      return item
    }
    trampoline.isRunning = true
    let disposable = action(state)
    trampoline.drainAndStop()
    return disposable
  }
}

/// A unit of work queued on a thread's trampoline.
@usableFromInline
protocol TrampolineTask: AnyObject {
  /// Runs the task on the trampoline's thread. `trampoline` is the running trampoline, so that a
  /// task can check whether other work is waiting.
  func runOnTrampoline(_ trampoline: Trampoline)
}

/// The per-thread queue behind ``CurrentThreadScheduler``.
///
/// One instance per thread, created on first use and released when the thread exits (a pthread
/// key destructor). It is only ever touched by its own thread, which is why it has no lock and is
/// not `Sendable`.
///
/// The stored properties opt out of dynamic exclusivity checking (about 75 instructions per
/// access, twice per subscription): only the owning thread touches them, and no access overlaps
/// another, since the queue operations never call out and tasks run outside of them.
@usableFromInline
final class Trampoline {
  /// `true` while an action runs or the queue drains on this thread.
  @exclusivity(unchecked) @usableFromInline var isRunning = false
  /// The queued tasks.
  @exclusivity(unchecked) @usableFromInline var tasks = RingQueue<any TrampolineTask>()

  /// The tracer this thread used last, and the generation it was installed with (see
  /// ``Tracing/current``).
  @exclusivity(unchecked) @usableFromInline var tracer: (any StreamsTracer)?
  @exclusivity(unchecked) @usableFromInline var tracerGeneration = 0
  /// `tracer`, when it makes the sends into subjects without closures (StreamsTrace's recorder).
  @exclusivity(unchecked) @usableFromInline var directSender: DirectSenderBox? {
    didSet { directSenderRef = directSender.map { Unmanaged.passUnretained($0) } }
  }
  /// `directSender` without a reference of its own, for a plain send (`Tracing.send`) to call
  /// without retaining it: `directSender` holds it until this thread refreshes its tracer, which
  /// that call never does (it runs no code but the recorder's).
  @exclusivity(unchecked) @usableFromInline var directSenderRef: Unmanaged<DirectSenderBox>?

  /// The `do` disposals deferred on this thread while ``DoLifecycle/disposeFully(_:)`` runs
  /// (see there), and how many of its calls are running.
  @exclusivity(unchecked) var deferredDisposals: [DoLifecycle] = []
  /// How many of this thread's waits for a delivery turn gave up (``TurnWaiter/wait()``).
  @exclusivity(unchecked) @usableFromInline var turnWaitsGivenUp = 0
  @exclusivity(unchecked) var disposeFullyDepth = 0

  /// Reads the installed tracer under its lock and keeps it for this thread; returns it.
  @usableFromInline
  func refreshTracer() -> (any StreamsTracer)? {
    let (installed, generation) = Tracing.slot.withLock { ($0.tracer, $0.generation) }
    use(installed, generation: generation)
    return installed
  }

  /// Keeps `tracer` as the one this thread uses, with the generation that finds it again
  /// (0 for one bound by ``Tracing/withTracer(_:_:)``, which is looked up each time).
  func use(_ tracer: (any StreamsTracer)?, generation: Int) {
    let previous = self.tracer
    self.tracer = tracer
    directSender = (tracer as? any DirectTraceSender).map(DirectSenderBox.init)
    tracerGeneration = generation
    // The previous tracer may be the last reference to a recorder, whose release runs user
    // code (the elements it kept): release it on a queue of its own, not here, where the caller
    // may hold a lock.
    if let previous {
      let box = TracerBox(previous)
      DispatchQueue.global().async { withExtendedLifetime(box) {} }
    }
  }

  /// `true` when tasks are waiting behind the one that runs.
  @inlinable
  var hasPendingTasks: Bool { !tasks.isEmpty }

  /// The calling thread's trampoline.
  @usableFromInline
  static var current: Trampoline { currentUnretained.takeUnretainedValue() }

  /// The calling thread's trampoline without a retain: the thread's key holds it until the
  /// thread exits, so it outlives anything the thread does with it. Read through a C
  /// thread-local variable (one instruction); the key is only for its destructor.
  @inlinable
  static var currentUnretained: Unmanaged<Trampoline> {
    if let raw = streams_trampoline_get() {
      return Unmanaged<Trampoline>.fromOpaque(raw)
    }
    return makeCurrent()
  }

  @usableFromInline
  static func makeCurrent() -> Unmanaged<Trampoline> {
    // The thread-local variable may read nil while the key still holds the thread's trampoline
    // (during thread exit, on platforms that tear thread-locals down before key destructors).
    if let raw = pthread_getspecific(trampolineKey) {
      streams_trampoline_set(raw)
      return Unmanaged<Trampoline>.fromOpaque(raw)
    }
    let trampoline = Unmanaged.passRetained(Trampoline())
    let result = pthread_setspecific(trampolineKey, trampoline.toOpaque())
    if result != 0 { streamsStop("Streams: pthread_setspecific failed with \(result)") }
    streams_trampoline_set(trampoline.toOpaque())
    return trampoline
  }

  /// Queues `task` behind everything already queued.
  func enqueue(_ task: any TrampolineTask) {
    tasks.append(task)
  }

  /// Runs queued tasks until the queue is empty, then marks the trampoline idle.
  @usableFromInline
  func drainAndStop() {
    while let task = tasks.popFirst() {
      task.runOnTrampoline(self)
    }
    isRunning = false
  }

  /// Runs `task` now if the trampoline is idle (then drains the queue), or queues it.
  @usableFromInline
  func run(_ task: any TrampolineTask) {
    if isRunning {
      enqueue(task)
      return
    }
    isRunning = true
    task.runOnTrampoline(self)
    drainAndStop()
  }

  /// Starts the trampoline if it is idle; returns `true` when the caller now owns it and must call
  /// ``drainAndStop()``.
  @usableFromInline
  static func enterIfIdle() -> Trampoline? {
    let trampoline = current
    if trampoline.isRunning { return nil }
    trampoline.isRunning = true
    return trampoline
  }

  /// ``enterIfIdle()`` without retaining the trampoline: `true` when the caller now owns it and
  /// must call ``drainAndStop(_:)``.
  @inlinable
  static func enterIfIdleUnretained(_ trampoline: Unmanaged<Trampoline>) -> Bool {
    trampoline._withUnsafeGuaranteedRef { trampoline in
      if trampoline.isRunning { return false }
      trampoline.isRunning = true
      return true
    }
  }

  /// ``drainAndStop()`` on a trampoline held unretained.
  @inlinable
  static func drainAndStop(_ trampoline: Unmanaged<Trampoline>) {
    trampoline._withUnsafeGuaranteedRef { $0.drainAndStop() }
  }
}

/// The tracer's direct sender, in an object of its own that a send borrows without a retain.
@usableFromInline
final class DirectSenderBox {
  /// The sender; a `let`, so that a call through a box borrowed without a retain
  /// (`Unmanaged._withUnsafeGuaranteedRef`) retains nothing either.
  @usableFromInline let sender: any DirectTraceSender

  init(_ sender: any DirectTraceSender) {
    self.sender = sender
  }
}

/// Carries a tracer to the queue that releases it (a tracer is `Sendable`).
final class TracerBox: Sendable {
  let tracer: any StreamsTracer
  init(_ tracer: any StreamsTracer) { self.tracer = tracer }
}

/// The pthread key under which each thread keeps its ``Trampoline``; its destructor releases the
/// trampoline when the thread exits.
private let trampolineKey: pthread_key_t = {
  var key = pthread_key_t()
  let result = pthread_key_create(&key, releaseTrampoline)
  if result != 0 { streamsStop("Streams: pthread_key_create failed with \(result)") }
  return key
}()

#if canImport(Darwin)
  private func releaseTrampoline(_ raw: UnsafeMutableRawPointer) {
    streams_trampoline_set(nil)
    Unmanaged<Trampoline>.fromOpaque(raw).release()
  }
#else
  private func releaseTrampoline(_ raw: UnsafeMutableRawPointer?) {
    streams_trampoline_set(nil)
    guard let raw else { return }
    Unmanaged<Trampoline>.fromOpaque(raw).release()
  }
#endif

/// An action queued by ``CurrentThreadScheduler/scheduleLocal(_:action:)``.
///
/// `@unchecked Sendable`: `dispose()` may come from any thread and only sets the atomic flag of
/// `flag`; the state and the action are read and released only on the thread whose trampoline
/// queued the item (in `runOnTrampoline`).
private final class QueuedAction<StateType>: TrampolineTask, Cancelable, @unchecked Sendable {
  private var payload: (state: StateType, action: (StateType) -> any Disposable)?
  private let flag = Locked<(any Disposable)?>(nil)

  init(state: StateType, action: @escaping (StateType) -> any Disposable) {
    payload = (state, action)
  }

  var isDisposed: Bool { flag.loadWord() != 0 }

  func runOnTrampoline(_ trampoline: Trampoline) {
    guard let payload else { return }
    self.payload = nil
    if isDisposed { return }
    let disposable = payload.action(payload.state)
    let disposeNow = flag.withLock { slot -> Bool in
      if flag.loadWord() != 0 { return true }
      slot = disposable
      return false
    }
    if disposeNow { disposable.dispose() }
  }

  func dispose() {
    if flag.fetchOrWord(1) != 0 { return }
    let disposable = flag.withLock { slot -> (any Disposable)? in
      defer { slot = nil }
      return slot
    }
    disposable?.dispose()
  }
}
