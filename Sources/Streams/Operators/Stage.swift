import StreamsShims

/// What one element-wise stage (`map`, `filter`, `compactMap`) does with an element: the element
/// to forward, or `nil` to drop it. A throw fails the stage.
///
/// A stage is a type rather than a closure so that ``StageSink`` specializes over it: the call to
/// `apply` is direct and inlined, and only the user's closure is called indirectly.
@usableFromInline
protocol StageStep {
  associatedtype Input
  associatedtype Output
  func apply(_ input: Input) throws -> Output?
}

@usableFromInline
struct MapStep<Input, Output>: StageStep {
  @usableFromInline let transform: (Input) throws -> Output

  @inlinable
  init(_ transform: @escaping (Input) throws -> Output) { self.transform = transform }

  @inlinable
  func apply(_ input: Input) throws -> Output? { try transform(input) }
}

@usableFromInline
struct FilterStep<Element>: StageStep {
  @usableFromInline let predicate: (Element) throws -> Bool

  @inlinable
  init(_ predicate: @escaping (Element) throws -> Bool) { self.predicate = predicate }

  @inlinable
  func apply(_ input: Element) throws -> Element? { try predicate(input) ? input : nil }
}

@usableFromInline
struct CompactMapStep<Input, Output>: StageStep {
  @usableFromInline let transform: (Input) throws -> Output?

  @inlinable
  init(_ transform: @escaping (Input) throws -> Output?) { self.transform = transform }

  @inlinable
  func apply(_ input: Input) throws -> Output? { try transform(input) }
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
/// `upstreamSlot` is handed over through it, `downstream` and `step` are immutable.
@usableFromInline
final class StageSink<Step: StageStep>: Cancelable, @unchecked Sendable {
  /// The lifecycle word; must stay the first stored property (see ``GuardedSink``).
  @usableFromInline var flags: Int
  @usableFromInline let downstream: AnyObserver<Step.Output>
  @usableFromInline let step: Step
  @exclusivity(unchecked) @usableFromInline var upstreamSlot: (any Disposable)?
  /// The subject subscription this stage handed on as its own disposable (see `stage`), written
  /// before the upstream is published: the caller disposes that, not this sink, so it is what a
  /// step that disposes the subscription has disposed.
  @exclusivity(unchecked) @usableFromInline var handedOn: SubjectSubscription?

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

  @inlinable
  var flagsAddress: UnsafeMutablePointer<Int> {
    _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: Int.self)
  }

  @inlinable
  var isDisposed: Bool { SinkLifecycle.isDisposed(flagsAddress) }

  /// Applies the step to an element and forwards what it gives, unless the stage stopped or was
  /// disposed (checked again after the step, which is user code and may dispose the stage).
  @inlinable
  func on(_ event: Event<Step.Input>) {
    switch event {
    case .next(let element):
      guard SinkLifecycle.isActive(flagsAddress) else { return }
      let output: Step.Output?
      do {
        output = try step.apply(element)
      } catch {
        finish(.error(error))
        return
      }
      guard let output, SinkLifecycle.isActive(flagsAddress), !handedOnIsDisposed else { return }
      downstream.on(.next(output))
    case .error(let error): finish(.error(error))
    case .completed: finish(.completed)
    }
  }

  /// Whether the subscription this stage handed on was disposed (by the step, say). Read only
  /// once the upstream is published, after which `handedOn` no longer changes.
  @inlinable
  var handedOnIsDisposed: Bool {
    guard streams_atomic_load(flagsAddress) & SinkLifecycle.upstreamSetBit != 0,
      let handedOn
    else { return false }
    return !handedOn.isActive
  }

  @inlinable
  func finish(_ event: Event<Step.Output>) {
    guard SinkLifecycle.stop(flagsAddress) else { return }
    downstream.on(event)
    dispose()
  }

  @inlinable
  func setUpstream(_ disposable: consuming any Disposable) {
    precondition(
      SinkLifecycle.canSetUpstream(flagsAddress),
      "Streams internal error: upstream disposable set twice")
    upstreamSlot = consume disposable
    if SinkLifecycle.publishUpstream(flagsAddress) { upstreamSlot.take()?.dispose() }
  }

  @inlinable
  func dispose() {
    if SinkLifecycle.dispose(flagsAddress).ownsUpstream { upstreamSlot.take()?.dispose() }
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
      sink.handedOn = SubjectSubscription.handedOn(upstream)
      sink.setUpstream(copy upstream)
      return upstream
    }
  }
}
