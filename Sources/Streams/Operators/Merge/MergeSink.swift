/// Runs one subscription of a merging operator (`flatMap`, `flatMapFirst`, `concatMap`,
/// `merge`, `concat()`): performs what ``MergeStateMachine`` decides, after unlocking.
///
/// `@unchecked Sendable`: `flags` is only accessed atomically after `init`; all other mutable
/// state is the state machine behind `state`'s lock;
/// `downstream` and `selector` are immutable and only called by the thread that holds the outbox's
/// delivery claim (downstream) or by the outer sequence's serial `on` (selector).
@usableFromInline
final class MergeSink<Source, Element>: MultiSourceSink, @unchecked Sendable {
  @usableFromInline typealias Payload = Element

  /// The lifecycle word: the first stored property (``MultiSourceSink``).
  @usableFromInline var flags: Int
  @usableFromInline let downstream: AnyObserver<Element>
  @usableFromInline let selector: (Source) throws -> Observable<Element>
  @usableFromInline let state: Locked<MergeStateMachine<Element>>
  /// `flatMapFirst`: admitting an element reserves the slot, under the lock.
  @usableFromInline let dropsWhileBusy: Bool

  @inlinable
  init(
    downstream: AnyObserver<Element>, limit: MergeLimit,
    selector: @escaping (Source) throws -> Observable<Element>
  ) {
    self.flags = 0
    self.downstream = downstream
    self.selector = selector
    self.state = Locked(MergeStateMachine(limit: limit))
    if case .dropWhileBusy = limit { dropsWhileBusy = true } else { dropsWhileBusy = false }
    Resources.track(self)
  }

  deinit { Resources.untrack(self) }

  /// Subscribes to `source`, mapping each element to an inner sequence with `selector`.
  @inlinable
  static func subscribe(
    _ source: Observable<Source>, limit: MergeLimit, observer: AnyObserver<Element>,
    selector: @escaping (Source) throws -> Observable<Element>
  ) -> any Disposable {
    let sink = MergeSink(downstream: observer, limit: limit, selector: selector)
    let subscription = source.subscribeNested(AnyObserver { event in sink.outerOn(event) })
    sink.perform(sink.withState { $0.outerSubscribed(subscription) })
    return sink
  }

  /// Runs `body` under the lock. Once the merge ended, the lifecycle word says so (stopped), so
  /// that `outerOn` can drop the elements of an ended sequence without taking the lock: every
  /// transition runs through here, so the word is set in the critical section that ended it.
  /// (``dispose()`` sets the disposed bit before it takes the lock, which drops them too.)
  @inlinable
  func withState<Result>(_ body: (inout MergeStateMachine<Element>) -> Result) -> Result {
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
      if dropsWhileBusy {
        switch withState({ $0.admit() }) {
        case .drop: return
        case .select: break
        }
      } else if !isActive {
        return  // what `admit()` decides for the other limits, without the lock
      }
      let inner: Observable<Element>
      do {
        inner = try selector(element)
      } catch {
        perform(withState { $0.selectorFailed(error) })
        return
      }
      if let just = inner as? JustObservable<Element>, !Tracing.isInstalled {
        justArrived(just)
        return
      }
      switch withState({ $0.innerArrived(inner) }) {
      case .none: break
      case .runLoop: startLoop()
      }
    case .error(let error):
      perform(withState { $0.outerFailed(error) })
    case .completed:
      perform(withState { $0.outerCompleted() })
    }
  }

  /// An inner `just` arrived: when nothing else is starting, delivers its element and its
  /// completion without subscribing to it (no inner observer, no inner subscription to keep).
  ///
  /// The events, their order, and the trampoline they run in are those of a subscription: the
  /// trampoline is entered around them as `subscribeAny` would. Traced subscriptions do not come
  /// here, so that the tracer sees the inner sequence.
  @inlinable
  func justArrived(_ just: JustObservable<Element>) {
    let first: Event<Element>?
    switch withState({ $0.immediateArrived(just, element: just.element) }) {
    case .none: return
    case .runLoop:
      startLoop()
      return
    case .deliver(let event):
      first = event
    }
    let trampoline = Trampoline.enterIfIdle()
    var event = first
    // What the completion handed back, once the deliverer asked for more and nothing was queued.
    var completion: MergeStateMachine<Element>.ImmediateCompletedAction?
    // Holding the claim when `first` is set (see `drain`: the rank, or a waiter, otherwise).
    let saved = first == nil ? nil : ClaimRank.enter(ClaimRank.takeClaimed())
    while let current = event {
      if deliver(current) {
        dispose()
        break
      }
      switch withState({ $0.nextOrImmediateCompleted() }) {
      case .deliver(let next):
        event = next
      case .completed(let action):
        event = nil
        completion = action
      }
    }
    if let saved { ClaimRank.leave(saved) }
    if first == nil { drain(nil) }
    switch completion ?? withState({ $0.immediateCompleted() }) {
    case .none:
      trampoline?.drainAndStop()
    case .runLoop:
      trampoline?.drainAndStop()
      startLoop()
    case .complete(let event):
      drain(event)
      trampoline?.drainAndStop()
    }
  }

  /// The start loop: subscribes to the scheduled inner sequences, one after the other, for as
  /// long as the machine hands them out (see ``MergeStateMachine``).
  @inlinable
  func startLoop() {
    while case .subscribe(let id, let source) = withState({ $0.nextToStart() }) {
      if let just = source as? JustObservable<Element>, !Tracing.isInstalled {
        // What subscribing does, without the inner observer: the inner slot of `id` is removed
        // by the completion, so there is no subscription to store.
        let trampoline = Trampoline.enterIfIdle()
        innerOn(id, .next(just.element))
        innerOn(id, .completed)
        trampoline?.drainAndStop()
        continue
      }
      let subscription = source.subscribeAny(AnyObserver { [self] event in innerOn(id, event) })
      perform(withState { $0.innerSubscribed(id, subscription) })
    }
  }

  @inlinable
  func innerOn(_ id: Int, _ event: Event<Element>) {
    switch event {
    case .next:
      perform(withState { $0.innerNext(event) })
    case .error(let error):
      perform(withState { $0.innerFailed(error) })
    case .completed:
      perform(withState { $0.innerCompleted(id) })
    }
  }

  /// Disposes a subscription that returned too late to be kept.
  @inlinable
  func perform(_ action: MergeStateMachine<Element>.SubscribedAction) {
    switch action {
    case .keep: break
    case .dispose(let disposable): disposable.dispose()
    }
  }

  /// Drains an element or an error the machine accepted.
  @inlinable
  func perform(_ action: MergeStateMachine<Element>.ForwardAction) {
    switch action {
    case .drop: break
    case .drain(let event): drain(event)
    }
  }

  /// Disposes the subscription of a sequence that completed, then runs the start loop or drains
  /// the completion.
  @inlinable
  func perform(_ action: MergeStateMachine<Element>.CompletedAction) {
    switch action {
    case .none:
      break
    case .dispose(let disposable):
      disposable.dispose()
    case .runLoop(let disposable):
      disposable?.dispose()
      startLoop()
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
    case .dispose(let subscriptions, let queued, let waiting, let scheduled):
      for subscription in subscriptions { subscription.dispose() }
      withExtendedLifetime((queued, waiting, scheduled)) {}
    }
  }
}

extension MergeSink where Source == Observable<Element> {
  /// Subscribes to every source at once (static `merge`).
  @inlinable
  static func subscribe(all sources: [Observable<Element>], observer: AnyObserver<Element>)
    -> any Disposable
  {
    let sink = MergeSink(downstream: observer, limit: .unbounded, selector: { $0 })
    switch sink.withState({ $0.subscribeAll(sources) }) {
    case .runLoop: sink.startLoop()
    case .complete(let completion): sink.drain(completion)
    }
    return sink
  }
}
