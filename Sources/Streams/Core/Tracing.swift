import StreamsShims

/// Installs and removes the process-wide tracer, or binds one to a piece of work
/// (``withTracer(_:_:)``).
public enum Tracing {
  /// The installed tracer, its generation (see ``install(_:)``), and how many
  /// ``withTracer(_:_:)`` calls are under way.
  @usableFromInline static let slot = Locked<
    (tracer: (any StreamsTracer)?, generation: Int, scopes: Int)
  >((nil, 0, 0))
  @usableFromInline static let ids = AtomicCounter()
  /// Hands out generations: each installation of a tracer gets a new one.
  static let generations = AtomicCounter()

  /// Installs `tracer` (or removes the current one with `nil`). Subscriptions made afterwards are
  /// offered to it; subscriptions made before are unaffected.
  ///
  /// Each thread keeps the tracer it used last, to find it without a lock. A thread lets go of a
  /// replaced tracer the next time it subscribes or sends while another one is installed (the
  /// release then happens on a global dispatch queue), or when it exits; after
  /// `install(nil)`, threads keep the last tracer they used until then.
  ///
  /// Code that runs in ``withTracer(_:_:)`` keeps that call's tracer.
  public static func install(_ tracer: (any StreamsTracer)?) {
    let previous = slot.withLock { current -> (any StreamsTracer)? in
      let previous = current.tracer
      let generation = tracer == nil ? 0 : generations.increment()
      current = (tracer, generation, current.scopes)
      if current.scopes == 0 { streams_tracing_installed_store(generation) }
      return previous
    }
    // Release the previous tracer outside the lock: its deinit is user code.
    withExtendedLifetime(previous) {}
  }

  /// The tracer of the calling code: the one ``withTracer(_:_:)`` bound here, if any, or else
  /// the installed one. One atomic load when there is none, and a thread-local read when this
  /// thread has used the installed one before.
  @inlinable
  public static var current: (any StreamsTracer)? {
    let generation = streams_tracing_installed_load()
    guard generation != 0 else { return nil }
    guard generation != scoping else { return scopedCurrent() }
    return Trampoline.currentUnretained._withUnsafeGuaranteedRef { trampoline in
      if trampoline.tracerGeneration == generation { return trampoline.tracer }
      return trampoline.refreshTracer()
    }
  }

  /// Whether a tracer is installed: one atomic load.
  @inlinable
  static var isInstalled: Bool { streams_tracing_installed_load() != 0 }

  @inlinable
  static func nextID() -> UInt64 { UInt64(ids.increment()) }

  /// Ends a delivery or a send begun through a ``DirectTraceSubscription`` or a
  /// ``DirectTraceSender``: pops the frame its `begin` pushed.
  @inlinable
  static func endDirect() { streams_trace_pop() }

  /// Sends `event` into `subject` through the tracer, which calls `deliver`.
  @inlinable
  static func send<Element>(
    _ event: Event<Element>, into subject: Observable<Element>, _ deliver: () -> Void
  ) {
    let generation = streams_tracing_installed_load()
    guard generation != 0 else { return deliver() }
    let direct = Trampoline.currentUnretained._withUnsafeGuaranteedRef {
      trampoline -> Bool in
      if generation == scoping {
        _ = scopedCurrent()
      } else if trampoline.tracerGeneration != generation {
        _ = trampoline.refreshTracer()
      }
      return trampoline.directSenderRef != nil
    }
    guard direct else {
      guard let tracer = current else { return deliver() }
      return tracer.send(
        event.traceKind, value: { event.traceValue() }, into: subject.traceNodeID,
        node: { subject.traceNode }, deliver)
    }
    if case .next(let element) = event, let words = TraceValue.plainWords(of: element) {
      // Without a retain: the thread's trampoline holds the sender until this thread refreshes
      // its tracer, and `beginSendPlain` runs no code that could (no element is described, no
      // user code runs); the sender is not used after it returns.
      Trampoline.currentUnretained._withUnsafeGuaranteedRef { trampoline in
        trampoline.directSenderRef.unsafelyUnwrapped._withUnsafeGuaranteedRef {
          $0.sender.beginSendPlain(
            Element.self, words.0, words.1, into: subject.traceNodeID, node: { subject.traceNode })
        }
      }
    } else {
      // Retained: describing the element runs user code, which may subscribe on this thread
      // under a newly installed tracer and so let go of the trampoline's reference.
      Trampoline.current.directSender.unsafelyUnwrapped.sender.beginSend(
        event.traceKind, value: { event.traceValue() }, into: subject.traceNodeID,
        node: { subject.traceNode })
    }
    deliver()
    endDirect()
  }

  /// How a trace names a hop to the main queue (`MainScheduler`, a state binding's hop).
  @usableFromInline static let mainQueueLabel = "main queue"

  /// `action`, made to run with the cause captured now restored when a tracer wants it, and with
  /// the tracer bound by ``withTracer(_:_:)``, if any; `action` itself when no tracer is installed
  /// (one atomic load; `label`, naming the scheduler, is made only for a tracer).
  @inlinable
  static func carryingCause<State>(
    _ action: @escaping @Sendable (State) -> any Disposable, to label: @autoclosure () -> String
  ) -> @Sendable (State) -> any Disposable {
    guard isInstalled, let carried = CarriedCause(.scheduler, label: label()) else { return action }
    return { state in
      var disposable: (any Disposable)?
      carried.run { disposable = action(state) }
      return disposable ?? Disposables.create()
    }
  }

  /// `work`, made to run with the cause captured now restored when a tracer wants it (see
  /// ``carryingCause(_:to:)``).
  @inlinable
  static func carryingCause(
    to label: @autoclosure () -> String, _ work: @escaping @Sendable () -> Void
  ) -> @Sendable () -> Void {
    guard isInstalled, let carried = CarriedCause(.scheduler, label: label()) else { return work }
    return { carried.run(work) }
  }

  /// `observer`, made to deliver with the cause captured now restored, for the events a bridge's
  /// `Task` sends it; `observer` itself when no tracer wants it.
  static func carryingCause<Element>(intoTask observer: AnyObserver<Element>)
    -> AnyObserver<Element>
  {
    guard isInstalled, let carried = CarriedCause(.task, label: "Task") else { return observer }
    return AnyObserver { event in carried.run { observer.on(event) } }
  }

  /// Runs `subscribe` as the subscription of a terminal subscriber, traced when a tracer wants
  /// it: the node of kind `kind` made at `file`:`line` subscribes to `upstream`.
  @usableFromInline
  static func terminal(
    kind: StaticString, file: StaticString, line: UInt, upstream: UInt64, owner: AnyObject?,
    _ subscribe: () -> any Disposable
  ) -> any Disposable {
    guard let tracer = current else { return subscribe() }
    let node = TraceNode(
      id: nextID(), kind: "\(kind)", upstreams: [upstream], file: "\(file)", line: line,
      role: .terminal)
    guard let recorder = tracer.terminal(node, owner: owner) else { return subscribe() }
    recorder.subscribing()
    let disposable = subscribe()
    recorder.subscribed()
    return TracedTerminalDisposable(disposable, trace: recorder)
  }

  /// Tells the tracer of a traced terminal subscription that `disposable` went into `bag`.
  static func parked(_ disposable: any Disposable, in bag: DisposeBag) {
    guard let traced = disposable as? TracedTerminalDisposable else { return }
    traced.trace.parked(inBagMadeAt: "\(bag.file)", line: bag.line)
  }
}

/// The disposable of a traced terminal subscription (``Tracing/terminal(kind:file:line:upstream:owner:_:)``):
/// disposes the subscription's own, and lets `DisposeBag` and ``Disposable/owned(by:)`` tell the
/// tracer who owns the subscription.
///
/// It keeps the subscription's own disposable, which lets go of the subscriber's closures when
/// the subscription ends, and the tracer's record, which holds no user object strongly.
@usableFromInline
final class TracedTerminalDisposable: Cancelable {
  let disposable: any Disposable
  let trace: any TraceSubscription

  init(_ disposable: any Disposable, trace: any TraceSubscription) {
    self.disposable = disposable
    self.trace = trace
  }

  @usableFromInline
  var isDisposed: Bool { (disposable as? any Cancelable)?.isDisposed ?? false }

  @usableFromInline
  func dispose() { disposable.dispose() }
}

extension Disposable {
  /// Names `owner` as the owner of this subscription for a tracer, and returns the subscription.
  ///
  /// A tracer (`StreamsTrace`) already knows the owner of a `subscribe(with:)` subscription (its
  /// `with:` object) and of one kept in a `DisposeBag` (the type whose file made the bag). Name it
  /// where neither says who the subscription belongs to: a subscription parked in another
  /// object's bag, or kept in a property. The tracer holds `owner` weakly and reports the
  /// subscription as a leak if it is still live once `owner` is gone.
  ///
  /// ```swift
  /// analytics.events
  ///   .subscribe(onNext: { [weak self] in self?.show($0) })
  ///   .owned(by: self)
  ///   .disposed(by: analytics.bag)
  /// ```
  ///
  /// With no tracer installed it does nothing but return the subscription (one atomic load); it
  /// never changes when the subscription ends.
  ///
  /// - Parameter owner: The object the subscription belongs to.
  /// - Returns: This subscription.
  @discardableResult
  public func owned(by owner: AnyObject) -> Self {
    if Tracing.isInstalled, let traced = self as? TracedTerminalDisposable {
      traced.trace.owned(by: owner)
    }
    return self
  }
}
