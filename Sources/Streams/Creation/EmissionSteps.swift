/// The events of a synchronous source, produced one step at a time: the engine behind
/// `of`, `from`, `range`, `repeatElement`, `generate` and the scheduled `just`.
///
/// `next()` is called again only after it returned `.next`; after a terminal event the steps are
/// dropped.
@usableFromInline
protocol EmissionSteps: SendableMetatype {
  associatedtype Element

  /// The next event of the source.
  mutating func next() -> Event<Element>

  /// `true` when ``next()`` runs no code but its own (no user closure, no iterator of a
  /// caller's sequence), so it cannot dispose the subscription: an element it returns right after
  /// the subscription was found active goes downstream without checking again.
  static var nextRunsNoUserCode: Bool { get }
}

extension EmissionSteps {
  /// Steps run user code unless they say otherwise.
  @inlinable
  static var nextRunsNoUserCode: Bool { false }
}

extension Observable {
  /// A source that emits one event per step on the calling thread's trampoline
  /// (``CurrentThreadScheduler``), as RxSwift's sequence sources do with their default scheduler.
  ///
  /// Between two steps, work queued on the trampoline meanwhile runs first; when nothing waits, the
  /// emitter loops without queuing itself. Disposal stops it before the next step. The steps never
  /// leave the subscribing thread, so they need not be `Sendable`.
  ///
  /// `@inlinable`, and the loop is a closure made here: called from inlinable code (`range`),
  /// the whole per-element path is specialized in the caller's module. The loop keeps the steps
  /// in a local variable while it runs and stores them back only when it yields to queued work:
  /// a captured variable would cost a dynamic exclusivity check on every element.
  @inlinable
  static func onTrampoline<Steps: EmissionSteps>(
    kind: StaticString, file: StaticString, line: UInt, _ makeSteps: @escaping () -> Steps
  ) -> Observable<Element> where Steps.Element == Element {
    Observable(kind: kind, upstreams: [], file: file, line: line) { observer in
      let sink = GuardedSink(observer)
      var saved = makeSteps()
      Trampoline.current.run(
        TrampolineEmitter { trampoline in
          // Only this task touches `saved`, one run at a time: the trampoline runs its tasks
          // one after the other, and the loop never runs a task itself.
          var steps = saved
          while sink.isActive {
            let event = steps.next()
            if Steps.nextRunsNoUserCode, case .next = event {
              sink.downstream.on(event)
            } else {
              sink.on(event)
              if event.isStopEvent { return false }
            }
            if trampoline.hasPendingTasks {
              saved = steps
              return true
            }
          }
          return false
        })
      return sink
    }
  }

  /// A source that emits one event per action scheduled on `scheduler`, each step scheduled by
  /// the previous one (RxSwift's `scheduleRecursive`). On ``CurrentThreadScheduler`` it is
  /// ``onTrampoline(kind:file:line:_:)``.
  static func onScheduler<Steps: EmissionSteps>(
    kind: StaticString, file: StaticString, line: UInt, scheduler: any ImmediateSchedulerType,
    _ makeSteps: @escaping () -> Steps
  ) -> Observable<Element> where Steps.Element == Element, Element: Sendable {
    if scheduler is CurrentThreadScheduler {
      return onTrampoline(kind: kind, file: file, line: line, makeSteps)
    }
    return Observable(kind: kind, upstreams: [], file: file, line: line) { observer in
      let sink = GuardedSink(observer)
      let emitter = ScheduledEmitter(steps: makeSteps(), sink: sink)
      sink.setUpstream(
        scheduler.scheduleRecursive(()) { _, recurse in
          if emitter.step() { recurse(()) }
        })
      return sink
    }
  }
}

/// Runs the steps of a source on the trampoline of the subscribing thread.
///
/// Not generic: `run` emits events until the source ends, its subscription is disposed, or other
/// work waits on the trampoline; it returns `true` in the last case, and the emitter queues
/// itself behind that work. `run` is made in the source's (specialized) code.
///
/// Not `Sendable`: it lives on the queue of one thread's trampoline and is only run there.
@usableFromInline
final class TrampolineEmitter: TrampolineTask {
  private let run: (Trampoline) -> Bool

  @usableFromInline
  init(_ run: @escaping (Trampoline) -> Bool) {
    self.run = run
  }

  @usableFromInline
  func runOnTrampoline(_ trampoline: Trampoline) {
    if run(trampoline) { trampoline.enqueue(self) }
  }
}

/// Runs the steps of a source as successive scheduled actions.
///
/// The steps are moved out of their lock while one step runs (a step may call user code, which
/// must not run under a lock) and put back before the next step is scheduled, so each step sees
/// the previous one's state; steps never overlap because each is scheduled by the one before.
/// `@unchecked Sendable`: `steps` is moved, never shared. Each scheduled action takes it out of
/// the lock, runs one step and puts it back before the next action is scheduled (recursive
/// scheduling: one action at a time, on whichever thread the scheduler picks), so exactly one
/// thread uses it at a time, and the lock orders the hand-over. The public entry points that
/// schedule steps require their closures and sequences to be `Sendable`; the iterator they make is
/// carried from one action to the next this way (what a `sending` hand-over would say).
private final class ScheduledEmitter<Steps: EmissionSteps>: @unchecked Sendable {
  private let steps: Locked<Steps?>
  private let sink: GuardedSink<Steps.Element>

  init(steps: Steps, sink: GuardedSink<Steps.Element>) {
    self.steps = Locked(steps)
    self.sink = sink
  }

  /// Emits one event; returns `true` when another step should follow.
  func step() -> Bool {
    guard sink.isActive else { return false }
    let taken = steps.withLock { slot -> Steps? in
      defer { slot = nil }
      return slot
    }
    guard var current = taken else { return false }
    let event = current.next()
    if !event.isStopEvent {
      steps.withLock { $0 = current }
    }
    sink.on(event)
    return !event.isStopEvent
  }
}

/// The steps of a Swift sequence: its elements, then `.completed`.
struct SequenceSteps<Base: Sequence>: EmissionSteps {
  var iterator: Base.Iterator

  init(_ base: Base) {
    iterator = base.makeIterator()
  }

  mutating func next() -> Event<Base.Element> {
    if let element = iterator.next() { return .next(element) }
    return .completed
  }
}
