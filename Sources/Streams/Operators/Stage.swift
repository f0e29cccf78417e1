import StreamsShims

/// What an element-wise stage does with one element (``StageStep``).
@usableFromInline
enum StageOutput<Output> {
  /// Forward this element.
  case emit(Output)
  /// Drop the element.
  case skip
  /// Forward this element, then complete (`take(_:)`'s last element).
  case emitThenComplete(Output)
  /// Complete without forwarding the element (`take(while:)` at the first that fails).
  case complete
}

/// What one element-wise stage (`map`, `filter`, `compactMap`, `scan`, `skip`, `take`,
/// `distinctUntilChanged`, `enumerated`, ...) does with an element: forward something, drop it,
/// or complete. A throw fails the stage. A step with state (a count, the previous key) keeps it
/// in its own stored properties: each subscription's sink holds its own copy of the step.
///
/// A stage is a type rather than a closure so that ``StageSink`` specializes over it: the call to
/// `apply` is direct and inlined, and only the user's closure is called indirectly. The source's
/// terminal events and disposal pass through unchanged (a step may only complete early); an
/// operator that changes them (`element(at:)`, `takeLast`, `reduce`) is not a stage.
@usableFromInline
protocol StageStep {
  associatedtype Input
  associatedtype Output
  mutating func apply(_ input: Input) throws -> StageOutput<Output>
}

@usableFromInline
struct MapStep<Input, Output>: StageStep {
  @usableFromInline let transform: (Input) throws -> Output

  @inlinable
  init(_ transform: @escaping (Input) throws -> Output) { self.transform = transform }

  @inlinable
  func apply(_ input: Input) throws -> StageOutput<Output> { .emit(try transform(input)) }
}

@usableFromInline
struct FilterStep<Element>: StageStep {
  @usableFromInline let predicate: (Element) throws -> Bool

  @inlinable
  init(_ predicate: @escaping (Element) throws -> Bool) { self.predicate = predicate }

  @inlinable
  func apply(_ input: Element) throws -> StageOutput<Element> {
    try predicate(input) ? .emit(input) : .skip
  }
}

@usableFromInline
struct CompactMapStep<Input, Output>: StageStep {
  @usableFromInline let transform: (Input) throws -> Output?

  @inlinable
  init(_ transform: @escaping (Input) throws -> Output?) { self.transform = transform }

  @inlinable
  func apply(_ input: Input) throws -> StageOutput<Output> {
    guard let output = try transform(input) else { return .skip }
    return .emit(output)
  }
}

/// The sink of an element-wise stage: the step, the downstream observer and the
/// ``SinkLifecycle`` in one object, which is also the context of the observer it subscribes
/// upstream with. One allocation per stage and subscription, where a ``GuardedSink`` with a
/// closure observer is two.
///
/// The subscription's disposable is this sink, or, when the upstream's own disposable lets go of
/// its observer when the subscription ends, that disposable (see ``ObservableType/stage(_:kind:file:line:)``).
///
/// `@unchecked Sendable`: as ``GuardedSink``: `flags` is only accessed atomically after `init`,
/// `upstreamSlot` is handed over through it, `downstream` is immutable, and `step` is only used
/// by `on(_:)`, which the event grammar serializes. A step's user closure that makes the source
/// send into this stage again, re-entrantly (a `create` source whose observer the subscriber
/// calls), breaks that grammar: the inner `apply` then overlaps the outer one's access to `step`.
/// Subjects queue such an event until the current one returns; a `create` source does not.
@usableFromInline
final class StageSink<Step: StageStep>: SingleUpstreamLifecycle, Cancelable, @unchecked Sendable {
  /// The lifecycle word: the first stored property (``SinkLifecycle``).
  @usableFromInline var flags: Int
  @usableFromInline let downstream: AnyObserver<Step.Output>
  @exclusivity(unchecked) @usableFromInline var step: Step
  @exclusivity(unchecked) @usableFromInline var upstreamSlot: (any Disposable)?
  /// The releasing subscription (a subject's, say) this stage handed on as its own disposable
  /// (see `stage`), written before the upstream is published: the caller disposes that, not this
  /// sink, so it is what a step or a downstream that disposes the subscription has disposed.
  @exclusivity(unchecked) @usableFromInline var handedOn: AnyObject?

  @inlinable
  init(_ downstream: AnyObserver<Step.Output>, step: Step) {
    self.flags = 0
    self.downstream = downstream
    self.step = step
    self.upstreamSlot = nil
    self.handedOn = nil
    Resources.track(self)
  }

  @inlinable
  deinit { Resources.untrack(self) }

  /// Applies the step to an element and forwards what it gives, unless the stage stopped or was
  /// disposed (checked again after the step, which is user code and may dispose the stage).
  @inlinable
  func on(_ event: Event<Step.Input>) {
    switch event {
    case .next(let element):
      guard isActive else { return }
      let output: StageOutput<Step.Output>
      do {
        output = try step.apply(element)
      } catch {
        finish(.error(error))
        return
      }
      switch output {
      case .emit(let output):
        guard isActive, !handedOnIsDisposed else { return }
        downstream.on(.next(output))
      case .skip:
        return
      case .emitThenComplete(let output):
        // Stopped before the element goes out, so that an element the downstream makes the
        // source send meanwhile finds the stage stopped (`take(1)` forwards one element).
        guard !handedOnIsDisposed, stop() else { return }
        downstream.on(.next(output))
        // Not if the downstream disposed the subscription during the element.
        if !isDisposed, !handedOnIsDisposed {
          downstream.on(.completed)
        }
        dispose()
      case .complete:
        finish(.completed)
      }
    case .error(let error): finish(.error(error))
    case .completed: finish(.completed)
    }
  }

  /// Whether the subscription this stage handed on was disposed (by the step or the downstream).
  /// Read only once the upstream is published, after which `handedOn` no longer changes.
  @inlinable
  var handedOnIsDisposed: Bool {
    guard isUpstreamSet, let handedOn else { return false }
    return !ReleasingSubscriptions.isActive(handedOn)
  }

  /// Stops the stage with `event`, unless it stopped already; `event` is not forwarded when the
  /// subscription the stage handed on was disposed (by the step).
  @inlinable
  func finish(_ event: Event<Step.Output>) {
    guard stop() else { return }
    if !handedOnIsDisposed { downstream.on(event) }
    dispose()
  }

  @inlinable
  func dispose() {
    disposeLifecycle()
  }
}

extension ObservableType {
  /// An element-wise stage over this sequence: `step` decides per element; terminal events and
  /// disposal pass through.
  @inlinable
  func stage<Step: StageStep>(
    _ step: Step, kind: StaticString, file: StaticString, line: UInt
  ) -> Observable<Step.Output> where Step.Input == Element {
    let source = asObservable()
    return Observable(
      kind: kind, upstreams: [source.traceID], file: file, line: line,
      disposableReleasesObserver: source.disposableReleasesObserver
    ) { observer in
      let sink = StageSink(observer, step: step)
      let upstream = source.subscribeNested(AnyObserver(eventHandler: sink.on))
      guard source.disposableReleasesObserver else {
        sink.setUpstream(upstream)
        return sink
      }
      // The upstream's disposable lets go of this sink when the subscription ends, and this
      // sink has nothing of its own to do on disposal: hand that disposable on, so that the
      // caller's disposable never holds this sink (and, through it, the downstream).
      sink.handedOn = ReleasingSubscriptions.handedOn(upstream)
      sink.setUpstream(copy upstream)
      return upstream
    }
  }
}
