import StreamsShims

/// The one hook point through which a tracer sees the graph of subscriptions.
///
/// Streams calls the installed tracer once per subscription to every node (operator, subject,
/// source). The tracer decides there whether that subscription is traced by returning a
/// ``TraceSubscription`` or `nil`. An untraced subscription costs one atomic load when it is made
/// and nothing per event; a traced one reports every event the node emits and its disposal.
///
/// ```swift
/// final class Printer: StreamsTracer {
///   func subscription(to node: TraceNode) -> (any TraceSubscription)? { nil }
/// }
/// Tracing.install(Printer())
/// ```
public protocol StreamsTracer: AnyObject, Sendable {
  /// Called when something subscribes to `node`; return a recorder to trace that subscription.
  ///
  /// The subscriber is whatever the tracer knows to be subscribing on this thread: the node whose
  /// ``TraceSubscription/subscribing()`` was called last and has not finished, or the receiver of
  /// the delivery under way (an operator that subscribes an inner sequence while it handles an
  /// element).
  func subscription(to node: TraceNode) -> (any TraceSubscription)?

  /// Called when a terminal subscriber (`subscribe(onNext:)`, `bind(to:)`, `drive`, `emit`,
  /// `values`, a state binding) is about to subscribe; `node` describes it (role
  /// ``TraceRole/terminal``, its call site, the node it subscribes to as its upstream) and `owner`
  /// is the object it belongs to when known (the `with:` object). Return a recorder whose
  /// ``TraceSubscription/subscribing()`` and ``TraceSubscription/subscribed()`` bracket the
  /// subscription. The default returns `nil`.
  func terminal(_ node: TraceNode, owner: AnyObject?) -> (any TraceSubscription)?

  /// Called when code sends an event into a subject or relay (`onNext`, `accept`, `onError`,
  /// `onCompleted`); `deliver` makes the subject deliver it, and must be called once. Code running
  /// inside a traced delivery on this thread is the sender: that is the cross-file chain, and the
  /// subject's deliveries are caused by this send. The default calls `deliver`.
  ///
  /// - Parameters:
  ///   - kind: What is sent.
  ///   - value: Makes the element of a `next` or the error of an `error` (`nil` for a
  ///     completion) as a ``TraceValue``, for a tracer that records values. Nothing is made
  ///     unless it is called.
  ///   - subject: The subject's ``TraceNode/id``.
  ///   - node: Describes the subject as a ``TraceNode``; made only when called.
  ///   - deliver: Delivers the event to the subject's observers.
  func send(
    _ kind: TraceEventKind, value: () -> TraceValue?, into subject: UInt64,
    node: () -> TraceNode, _ deliver: () -> Void)

  /// Called when work is handed to a scheduler or a task (`observe(on:)`, `delay`, `debounce`,
  /// `subscribe(on:)`, a state binding's hop: `.scheduler`; a bridge's `Task`: `.task`): return
  /// what carries the cause of the work (the delivery under way on this thread) to where it runs,
  /// or `nil`. The default returns `nil`.
  ///
  /// - Parameters:
  ///   - kind: Through a scheduler or into a task.
  ///   - label: Where the work goes, as a developer knows it: `main queue`, `queue
  ///     com.app.search` (a dispatch queue's label), `TestScheduler`, `Task`.
  func hop(_ kind: TraceHopKind, label: String) -> (any TraceHop)?
}

/// How work reaches the place where it runs (see ``StreamsTracer/hop(_:label:)``).
public enum TraceHopKind: Sendable {
  /// Through a scheduler or a dispatch queue.
  case scheduler
  /// Into a `Task` started by an async bridge.
  case task
}

/// Carries the cause of scheduled work across a hop (see ``StreamsTracer/hop(_:label:)``).
public protocol TraceHop: AnyObject, Sendable {
  /// Runs `work` where the scheduler runs it, with the captured cause restored.
  func run(_ work: () -> Void)
}

extension StreamsTracer {
  /// Traces no terminal subscriber.
  public func terminal(_ node: TraceNode, owner: AnyObject?) -> (any TraceSubscription)? { nil }

  /// Carries nothing across hops.
  public func hop(_ kind: TraceHopKind, label: String) -> (any TraceHop)? { nil }

  /// Delivers what is sent into subjects without recording it.
  public func send(
    _ kind: TraceEventKind, value: () -> TraceValue?, into subject: UInt64,
    node: () -> TraceNode, _ deliver: () -> Void
  ) {
    deliver()
  }
}

/// Receives what one traced subscription of a node sees.
public protocol TraceSubscription: AnyObject, Sendable {
  /// The node emits an event of `kind` to this subscriber: `body` hands it to the subscriber and
  /// must be called once; what the subscriber does meanwhile happens during this delivery.
  /// `value` makes its element or error, as for ``StreamsTracer/send(_:value:into:node:_:)``,
  /// only when called.
  func deliver(_ kind: TraceEventKind, value: () -> TraceValue?, _ body: () -> Void)
  /// The node is about to subscribe to its upstreams for this subscription.
  func subscribing()
  /// The node has subscribed to its upstreams (or the terminal subscriber to its source).
  func subscribed()
  /// The subscription was disposed.
  func disposed()
  /// The disposable of this terminal subscriber's subscription was added to a `DisposeBag` made
  /// at `file`:`line` (`bag.insert`, `disposed(by:)`): the object that holds that bag owns the
  /// subscription. Called on the inserting thread, any number of times.
  func parked(inBagMadeAt file: String, line: UInt)
  /// Code named `owner` the owner of this terminal subscriber's subscription
  /// (``Disposable/owned(by:)``); the tracer may hold it weakly to tell when it is gone.
  func owned(by owner: AnyObject)
}

extension TraceSubscription {
  /// Does nothing.
  public func subscribing() {}
  /// Does nothing.
  public func subscribed() {}
  /// Does nothing.
  public func parked(inBagMadeAt file: String, line: UInt) {}
  /// Does nothing.
  public func owned(by owner: AnyObject) {}
}

/// What kind of event a tracer is told about.
public enum TraceEventKind: Sendable {
  case next, error, completed
}

extension Event {
  /// The kind of this event, for a tracer.
  @inlinable
  var traceKind: TraceEventKind {
    switch self {
    case .next: .next
    case .error: .error
    case .completed: .completed
    }
  }

  /// The element or error, as a tracer keeps it (see ``StreamsTracer/send(_:value:into:node:_:)``);
  /// `nil` for a completion.
  @inlinable
  func traceValue() -> TraceValue? {
    switch self {
    case .next(let element): TraceValue(element)
    case .error(let error): TraceValue(description: String(describing: error))
    case .completed: nil
    }
  }
}

/// An element or error as a tracer keeps it, ready to be described later on another thread.
///
/// A plain value (no references: numbers, `Bool`, enums and structs of them) of up to 16 bytes
/// is kept as its bytes and its type, without boxing; a `String` is kept as it is; anything
/// else (objects, existentials, collections, values holding references, larger plain values) is
/// described when it is made (`String(describing:)`), on the delivering thread, since a later
/// description could read state that another thread changes, and would keep objects alive.
///
/// ```swift
/// print(TraceValue(42), TraceValue("hi"), TraceValue([1, 2]))
/// // Prints "42 hi [1, 2]"
/// ```
///
/// A "plain value" is one the runtime reports as POD. That includes `Unmanaged` and structs with
/// `unowned(unsafe)` references: their bytes are kept, and describing them later describes the
/// object they point to, which may be gone. Do not trace elements of such types with values on.
///
/// `@unchecked Sendable`: its fields are immutable; the type is a metatype (immutable, global)
/// of a value with no references, whose bytes are the other field.
public struct TraceValue: @unchecked Sendable, CustomStringConvertible {
  @usableFromInline let type: (any Any.Type)?
  @usableFromInline let words: (UInt64, UInt64)
  @usableFromInline let text: String?

  /// Keeps `value`: its bytes when it is a plain value of up to 16 bytes, itself when it is a
  /// string, its description otherwise.
  @inlinable
  public init<Value>(_ value: Value) {
    if let words = Self.plainWords(of: value) {
      self.init(type: Value.self, words: words, text: nil)
    } else if Value.self == String.self {
      // A native string: one bridged from an `NSString` is copied, so that releasing it later
      // (under a tracer's lock) releases no Objective-C object.
      var text = unsafeBitCast(value, to: String.self)
      text.makeContiguousUTF8()
      self.init(type: nil, words: (0, 0), text: text)
    } else {
      self.init(type: nil, words: (0, 0), text: String(describing: value))
    }
  }

  /// A value already described.
  @inlinable
  public init(description: String) {
    self.init(type: nil, words: (0, 0), text: description)
  }

  /// A plain value of `type` whose bytes are `words` (see ``plain``).
  /// Memory-unsafe when `words` are not the bytes of a `type` value: `package`, for StreamsTrace.
  package init(plainType type: any Any.Type, words: (UInt64, UInt64)) {
    self.init(type: type, words: words, text: nil)
  }

  /// The bytes of `value` when it is a plain value of up to 16 bytes (what a ``TraceValue`` keeps
  /// of it); `nil` otherwise.
  @inlinable
  static func plainWords<Value>(of value: Value) -> (UInt64, UInt64)? {
    guard _isPOD(Value.self), MemoryLayout<Value>.size <= 16, MemoryLayout<Value>.alignment <= 8
    else { return nil }
    var words: (UInt64, UInt64) = (0, 0)
    // Unprotected: a pointer to a local would otherwise give every traced delivery a stack
    // canary (about 7 instructions), though the store stays within the words' 16 bytes.
    _withUnprotectedUnsafeMutablePointer(to: &words) {
      UnsafeMutableRawPointer($0).storeBytes(of: value, as: Value.self)
    }
    return words
  }

  /// A plain value's type and bytes, for a tracer that stores them in memory of its own; `nil`
  /// for a string or a description.
  @_spi(StreamsInternal) @inlinable
  public var plain: (type: any Any.Type, words: (UInt64, UInt64))? {
    guard let type else { return nil }
    return (type, words)
  }

  @inlinable
  init(type: (any Any.Type)?, words: (UInt64, UInt64), text: String?) {
    self.type = type
    self.words = words
    self.text = text
  }

  /// The value's description (`String(describing:)`), made now for a plain value.
  public var description: String {
    if let text { return text }
    guard let type else { return "" }
    return Self.describe(type, words)
  }

  private static func describe<Value>(_ type: Value.Type, _ words: (UInt64, UInt64)) -> String {
    withUnsafeBytes(of: words) { String(describing: $0.load(as: Value.self)) }
  }
}

/// What a node of the graph is.
public enum TraceRole: String, Sendable, CaseIterable {
  /// Creates elements (`just`, `interval`, `create`, a bridge, a state cell).
  case source
  /// Transforms what it subscribes to.
  case `operator`
  /// A subject or relay: any code may send it elements.
  case subject
  /// Ends a chain: `subscribe(onNext:)`, `bind(to:)`, `drive`, `emit`, `values`, a state binding.
  case terminal
}

/// A node of the who-emits-to-whom graph: one observable, described for a tracer.
public struct TraceNode: Sendable, Hashable {
  /// A process-unique id, stable for the observable's lifetime.
  public let id: UInt64
  /// The operator or source name, such as `"map"` or `"PublishSubject"`.
  public let kind: String
  /// The ids of the observables this one subscribes to.
  public let upstreams: [UInt64]
  /// The file (`#fileID`) of the call that created the observable; `"(function reference)"` for
  /// one made by a factory passed as a function reference (`.flatMap(Observable.just)`), which
  /// has no call site.
  public let file: String
  /// The line of the call that created the observable; 0 for a function reference.
  public let line: UInt
  /// What the node is.
  public let role: TraceRole
  /// The full path (`#filePath`) of the file that created the node, where Streams knows it:
  /// subjects and relays record it, so that a tracer can read the declaration and name the node
  /// by its property (`CartStore.added`); `nil` for the others.
  public let path: String?

  /// Describes a node; tracers and tests use this to build expectations. Without `role`, the
  /// role follows from the kind and the upstreams.
  public init(
    id: UInt64, kind: String, upstreams: [UInt64], file: String, line: UInt,
    role: TraceRole? = nil, path: String? = nil
  ) {
    self.id = id
    self.kind = kind
    self.upstreams = upstreams
    self.file = file
    self.line = line
    self.role = role ?? TraceNode.role(kind: kind, upstreams: upstreams)
    self.path = path
  }

  /// This node, made by the file at the full path `path`.
  public func declared(in path: String) -> TraceNode {
    TraceNode(
      id: id, kind: kind, upstreams: upstreams, file: file, line: line, role: role, path: path)
  }

  /// The upstreams the node takes its elements from: all of them but the control ones.
  public var dataUpstreams: [UInt64] {
    Self.controlKinds.contains(kind) ? Array(upstreams.prefix(1)) : upstreams
  }

  /// The upstreams the node subscribes to for control only: `take(until:)`'s trigger, `sample`'s
  /// sampler, `withLatestFrom`'s second source, `skip(until:)`'s trigger.
  public var controlUpstreams: [UInt64] {
    Self.controlKinds.contains(kind) ? Array(upstreams.dropFirst()) : []
  }

  /// The kinds whose upstreams after the first are control inputs (the static map of
  /// `streams-trace map` draws them the same way).
  public static let controlKinds: Set<String> = [
    "take(until:)", "skip(until:)", "sample", "withLatestFrom",
  ]

  static func role(kind: String, upstreams: [UInt64]) -> TraceRole {
    if kind.hasSuffix("Subject") { return .subject }
    return upstreams.isEmpty ? .source : .operator
  }
}

/// Installs and removes the process-wide tracer.
public enum Tracing {
  /// The installed tracer and its generation (see ``install(_:)``).
  @usableFromInline static let slot = Locked<(tracer: (any StreamsTracer)?, generation: Int)>(
    (nil, 0))
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
  public static func install(_ tracer: (any StreamsTracer)?) {
    let previous = slot.withLock { current -> (any StreamsTracer)? in
      let previous = current.tracer
      let generation = tracer == nil ? 0 : generations.increment()
      current = (tracer, generation)
      streams_tracing_installed_store(generation)
      return previous
    }
    // Release the previous tracer outside the lock: its deinit is user code.
    withExtendedLifetime(previous) {}
  }

  /// The installed tracer, if any: one atomic load when none is, and a thread-local read when
  /// this thread has used the installed one before.
  @inlinable
  public static var current: (any StreamsTracer)? {
    let generation = streams_tracing_installed_load()
    guard generation != 0 else { return nil }
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
      if trampoline.tracerGeneration != generation { _ = trampoline.refreshTracer() }
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

  /// `action`, made to run with the cause captured now restored when a tracer wants it; `action`
  /// itself when no tracer is installed (one atomic load; `label`, naming the scheduler, is made
  /// only for a tracer).
  @inlinable
  static func carryingCause<State>(
    _ action: @escaping @Sendable (State) -> any Disposable, to label: @autoclosure () -> String
  ) -> @Sendable (State) -> any Disposable {
    guard isInstalled, let hop = current?.hop(.scheduler, label: label()) else { return action }
    return { state in
      var disposable: (any Disposable)?
      hop.run { disposable = action(state) }
      return disposable ?? Disposables.create()
    }
  }

  /// `work`, made to run with the cause captured now restored when a tracer wants it.
  @inlinable
  static func carryingCause(
    to label: @autoclosure () -> String, _ work: @escaping @Sendable () -> Void
  ) -> @Sendable () -> Void {
    guard isInstalled, let hop = current?.hop(.scheduler, label: label()) else { return work }
    return { hop.run(work) }
  }

  /// `observer`, made to deliver with the cause captured now restored, for the events a bridge's
  /// `Task` sends it; `observer` itself when no tracer wants it.
  static func carryingCause<Element>(intoTask observer: AnyObserver<Element>)
    -> AnyObserver<Element>
  {
    guard isInstalled, let hop = current?.hop(.task, label: "Task") else { return observer }
    return AnyObserver { event in hop.run { observer.on(event) } }
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
