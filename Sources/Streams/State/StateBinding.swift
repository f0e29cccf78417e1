import Dispatch
import StreamsState

/// One binding of a sequence to a main-actor target (a ``StateCell``, or a key path of a
/// main-actor object): writes the elements on the main actor, in order, and ends with the target.
///
/// Writing:
/// - An element that arrives on the main queue is written at once, after any of this binding's
///   elements still waiting from an earlier hop (so a later element never lands before an
///   earlier one).
/// - An element that arrives elsewhere joins this binding's backlog; the first element of a
///   backlog schedules one hop to the main queue, which writes the whole backlog.
///
/// The backlog is this binding's own. Nothing depends on what else is queued on the main queue,
/// as it does with `MainScheduler.instance`, whose process-wide count of waiting work makes an
/// element emitted on the main thread wait behind unrelated work (a known source of stale UI
/// state).
///
/// Lifetime: the binding holds the target weakly. A cell owns its bindings: when it is
/// deinitialized it ends them (disposes their subscriptions). For any other object the binding
/// ends with the first element that finds the object gone. Completion ends the binding after the
/// backlog is written; disposal ends it at once and drops the backlog. When the binding ends its
/// cell lets go of it.
///
/// An error is a programming error, as for every binding: it stops the program with a message
/// naming the binding's call site.
///
/// The element path (``on(_:)``, ``write(_:)``) is inlinable so that it is specialized for the
/// element type with the caller's `bind(to:)`.
@usableFromInline
final class StateBinding<Element: Sendable>: Sendable {
  @usableFromInline
  enum Attachment: Sendable {
    /// Not attached to a cell yet (or the target is not a cell).
    case pending
    case attached(StateObservation)
    case ended
  }

  @usableFromInline
  struct State: Sendable {
    @usableFromInline var backlog = RingQueue<Element>()
    var hopScheduled = false
    /// Set by completion: the binding ends once the backlog is written.
    var completed = false
    var attachment = Attachment.pending
    /// The sink of the subscription, held by the upstream; disposed when the target is gone.
    weak var sink: GuardedSink<Element>?

    @usableFromInline
    init() {}
  }

  /// The state; its side word is 1 while the backlog is not empty, so that an element on the main
  /// queue checks for a backlog without taking the lock.
  @usableFromInline let state = Locked(State())
  /// Writes an element; returns `false` when the target is gone. Called only on the main queue.
  ///
  /// `apply` as written, `@MainActor`, stored without its isolation: `MainActor.assumeIsolated`
  /// allocates a closure context per call (Swift 6.3), once per element here. The calls are made
  /// only where `MainQueueCheck.isMain` holds, which is the main actor's isolation (the main
  /// actor's executor is the main queue), so they keep the closure's contract. The two function
  /// types differ only in isolation and have the same representation.
  @usableFromInline let apply: @Sendable (Element) -> Bool
  @usableFromInline let file: StaticString
  @usableFromInline let line: UInt

  @inlinable
  init(file: StaticString, line: UInt, apply: @escaping @MainActor @Sendable (Element) -> Bool) {
    self.apply = unsafeBitCast(apply, to: (@Sendable (Element) -> Bool).self)
    self.file = file
    self.line = line
  }

  /// Subscribes a binding to `source` and returns the disposable that ends it.
  ///
  /// - Parameters:
  ///   - attach: Registers the binding with its target on the main actor, so that the target
  ///     ends the binding when it goes; returns `nil` when the target is already gone. `nil` for
  ///     targets that cannot own bindings.
  ///   - apply: Writes an element into the target; returns `false` when the target is gone.
  @inlinable
  static func subscribe(
    _ source: Observable<Element>, file: StaticString, line: UInt,
    attach: (@MainActor @Sendable (StateBinding) -> StateObservation?)?,
    apply: @escaping @MainActor @Sendable (Element) -> Bool
  ) -> any Disposable {
    let binding = StateBinding(file: file, line: line, apply: apply)
    // The handle holds the sink until the binding ends, then lets go.
    let handle = SingleAssignmentDisposable()
    let sink = GuardedSink(
      AnyObserver(eventHandler: binding.on),
      onDisposed: { [weak handle] in
        handle?.dispose()
        binding.end()
      })
    binding.start(sink: sink, attach: attach)
    return source.subscribeTerminal(
      .sink(sink, handle: handle), kind: "bind(to: state)", file: file, line: line)
  }

  @usableFromInline
  func start(
    sink: GuardedSink<Element>, attach: (@MainActor @Sendable (StateBinding) -> StateObservation?)?
  ) {
    state.withLock { $0.sink = sink }
    if let attach {
      // Queued before the subscription, so it runs before any element's hop.
      MainQueueCheck.runOnMainActor { self.attach(attach) }
    }
  }

  /// Registers a binding with `cell`, which ends the binding when it is deinitialized.
  @usableFromInline
  static func attachment<Stored>(
    to cell: StateCell<Stored>
  ) -> @MainActor @Sendable (StateBinding) -> StateObservation? {
    { [weak cell] binding in
      cell?.observe(onChange: nil, onEnd: { [weak binding] in binding?.targetEnded() })
    }
  }

  /// Ends the binding from its target's side (the cell is being deinitialized, or gone).
  @usableFromInline
  func targetEnded() {
    state.withLock { $0.sink }?.dispose()
  }

  @inlinable
  func on(_ event: Event<Element>) {
    switch event {
    case .next(let element): write(element)
    case .error(let error): bindingError(error, boundAt: file, line: line)
    case .completed: completed()
    }
  }

  @inlinable
  func write(_ element: Element) {
    if MainQueueCheck.isMain {
      if state.loadWord() != 0 {
        guard writeBacklog() else { return }
      }
      if !apply(element) { targetEnded() }
      return
    }
    enqueue(element)
  }

  /// Adds an element that arrived off the main queue to the backlog, and schedules the hop that
  /// writes it unless one is scheduled.
  @usableFromInline
  func enqueue(_ element: Element) {
    let scheduleHop = state.withLock { state in
      if case .ended = state.attachment, !state.completed { return false }
      state.backlog.append(element)
      self.state.storeWord(1)
      if state.hopScheduled { return false }
      state.hopScheduled = true
      return true
    }
    if scheduleHop {
      DispatchQueue.main.async(
        execute: Tracing.carryingCause(to: Tracing.mainQueueLabel) { _ = self.writeBacklog() })
    }
  }

  /// Writes the elements waiting for a hop, in order; returns `false` when the target is gone.
  /// Runs on the main queue.
  ///
  /// The elements leave the backlog one at a time, and the side word stays set until it is
  /// empty: an element that a cell observer sends into the bound source during this flush (on the
  /// main queue) flushes the rest of the backlog before it is written, so it lands last; and a
  /// disposal during the flush drops what is left.
  @usableFromInline
  func writeBacklog() -> Bool {
    while true {
      let next: Element? = state.withLock { state in
        if case .ended = state.attachment, !state.completed {
          state.hopScheduled = false
          return nil
        }
        if let element = state.backlog.popFirst() { return element }
        state.hopScheduled = false
        self.state.storeWord(0)
        return nil
      }
      guard let next else { return true }
      if !apply(next) {
        targetEnded()
        return false
      }
    }
  }

  @usableFromInline
  func completed() {
    state.withLock { $0.completed = true }
  }

  @MainActor
  private func attach(_ register: @MainActor (StateBinding) -> StateObservation?) {
    guard let observation = register(self) else {
      targetEnded()
      return
    }
    let ended = state.withLock { state in
      guard case .pending = state.attachment else { return true }
      state.attachment = .attached(observation)
      return false
    }
    if ended { observation.cancel() }
  }

  /// Ends the binding: lets the target forget it, and drops the backlog unless the sequence
  /// completed (then the scheduled hop still writes it).
  @usableFromInline
  func end() {
    let (observation, dropped) = state.withLock { state in
      var observation: StateObservation?
      if case .attached(let attached) = state.attachment { observation = attached }
      state.attachment = .ended
      if state.completed { return (observation, RingQueue<Element>()) }
      self.state.storeWord(0)
      return (observation, state.backlog.removeAll())
    }
    _ = consume dropped
    if let observation {
      MainQueueCheck.runOnMainActor { observation.cancel() }
    }
  }
}
