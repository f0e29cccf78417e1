/// Runs one subscription of `switchLatest` / `flatMapLatest`: performs what
/// ``SwitchStateMachine`` decides, after unlocking.
///
/// `@unchecked Sendable`: `flags` is only accessed atomically after `init`; all other mutable
/// state is the state machine behind `state`'s lock;
/// `downstream` is only called by the holder of the outbox's delivery claim and `selector` only
/// from the outer sequence's serial `on`.
@usableFromInline
final class SwitchSink<Source, Element>: MultiSourceSink, @unchecked Sendable {
  @usableFromInline typealias Payload = Element

  /// The lifecycle word: the first stored property (``MultiSourceSink``).
  @usableFromInline var flags: Int

  @usableFromInline let downstream: AnyObserver<Element>
  @usableFromInline let selector: (Source) throws -> Observable<Element>
  @usableFromInline let state = Locked(SwitchStateMachine<Element>())

  @inlinable
  init(
    downstream: AnyObserver<Element>, selector: @escaping (Source) throws -> Observable<Element>
  ) {
    self.flags = 0
    self.downstream = downstream
    self.selector = selector
    Resources.track(self)
  }

  deinit { Resources.untrack(self) }

  /// Subscribes to `source`, switching to `selector(element)` for each element.
  @inlinable
  static func subscribe(
    _ source: Observable<Source>, observer: AnyObserver<Element>,
    selector: @escaping (Source) throws -> Observable<Element>
  ) -> any Disposable {
    let sink = SwitchSink(downstream: observer, selector: selector)
    let subscription = source.subscribeNested(AnyObserver { event in sink.outerOn(event) })
    sink.perform(sink.withState { $0.outerSubscribed(subscription) })
    return sink
  }

  /// Runs `body` under the lock. Once the switch ended, the lifecycle word says so (stopped), so
  /// that `outerOn` can drop the elements of an ended sequence without taking the lock: every
  /// transition runs through here, so the word is set in the critical section that ended it.
  /// (``dispose()`` sets the disposed bit before it takes the lock, which drops them too.)
  @inlinable
  func withState<Result>(_ body: (inout SwitchStateMachine<Element>) -> Result) -> Result {
    state.withLock { machine in
      let result = body(&machine)
      if machine.hasEnded { _ = stop() }
      return result
    }
  }

  @inlinable
  func outerOn(_ event: Event<Source>) {
    switch event {
    case .next(let element):
      if !isActive { return }
      let next: Observable<Element>
      do {
        next = try selector(element)
      } catch {
        perform(withState { $0.selectorFailed(error) })
        return
      }
      if let just = next as? JustObservable<Element>, !Tracing.isInstalled,
        justArrived(just.element)
      {
        return
      }
      switch withState({ $0.innerArrived() }) {
      case .ignore:
        return
      case .subscribe(let id, let replaced):
        replaced?.dispose()
        let subscription = next.subscribeAny(AnyObserver { [self] event in innerOn(id, event) })
        perform(withState { $0.innerSubscribed(id, subscription) })
      }
    case .error(let error):
      perform(withState { $0.outerFailed(error) })
    case .completed:
      perform(withState { $0.outerCompleted() })
    }
  }

  /// A `just` arrived: unless the previous inner subscription must be disposed first, delivers
  /// its element and its completion without subscribing to it (no inner observer, no inner
  /// subscription to keep). Returns `false` when the caller must subscribe to it instead.
  ///
  /// The events, their order, and the trampoline they run in are those of a subscription: the
  /// trampoline is entered around the events as `subscribeAny` would. Traced subscriptions do
  /// not come here, so that the tracer sees the inner sequence.
  @inlinable
  func justArrived(_ element: Element) -> Bool {
    let id: Int
    let first: Event<Element>?
    switch withState({ $0.immediateArrived(element) }) {
    case .ignore: return true
    case .subscribe: return false
    case .deliver(let latest, let event):
      id = latest
      first = event
    }
    let trampoline = Trampoline.enterIfIdle()
    var event = first
    // What the completion handed back, once the deliverer asked for more and nothing was queued.
    var completion: SwitchStateMachine<Element>.ImmediateCompletedAction?
    // Holding the claim when `first` is set (see `drain`: the rank, or a waiter, otherwise).
    let saved = first == nil ? nil : ClaimRank.enter(ClaimRank.takeClaimed())
    while let current = event {
      if deliver(current) {
        dispose()
        break
      }
      switch withState({ $0.nextOrImmediateCompleted(id) }) {
      case .deliver(let next):
        event = next
      case .completed(let action):
        event = nil
        completion = action
      }
    }
    if let saved { ClaimRank.leave(saved) }
    if first == nil { drain(nil) }
    switch completion ?? withState({ $0.immediateCompleted(id) }) {
    case .none: break
    case .complete(let event): drain(event)
    }
    trampoline?.drainAndStop()
    return true
  }

  @inlinable
  func innerOn(_ id: Int, _ event: Event<Element>) {
    switch event {
    case .next:
      perform(withState { $0.innerNext(id, event) })
    case .error(let error):
      perform(withState { $0.innerFailed(id, error) })
    case .completed:
      perform(withState { $0.innerCompleted(id) })
    }
  }

  /// Disposes a subscription that returned too late to be kept.
  @inlinable
  func perform(_ action: SwitchStateMachine<Element>.SubscribedAction) {
    switch action {
    case .keep: break
    case .dispose(let disposable): disposable.dispose()
    }
  }

  /// Drains an element or an error the machine accepted.
  @inlinable
  func perform(_ action: SwitchStateMachine<Element>.ForwardAction) {
    switch action {
    case .drop: break
    case .drain(let event): drain(event)
    }
  }

  /// Disposes the subscription of a sequence that completed, then drains the completion.
  @inlinable
  func perform(_ action: SwitchStateMachine<Element>.CompletedAction) {
    switch action {
    case .none:
      break
    case .dispose(let disposable):
      disposable.dispose()
    case .complete(let disposable, let completion):
      disposable?.dispose()
      drain(completion)
    }
  }

  @inlinable
  func deliver(_ event: Event<Element>) -> Bool {
    downstream.on(event)
    return event.isStopEvent
  }

  @inlinable
  func tearDown() {
    switch withState({ $0.dispose() }) {
    case .dispose(let outer, let inner, let queued):
      outer?.dispose()
      inner?.dispose()
      withExtendedLifetime(queued) {}
    }
  }
}
