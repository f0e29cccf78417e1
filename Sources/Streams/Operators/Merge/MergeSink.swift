/// Runs one subscription of a merging operator (`flatMap`, `flatMapFirst`, `concatMap`,
/// `merge`, `concat()`).
///
/// `@unchecked Sendable`: all mutable state is the state machine behind `state`'s lock;
/// `downstream` and `selector` are immutable and only called by the thread that holds the outbox's
/// delivery claim (downstream) or by the outer sequence's serial `on` (selector).
@usableFromInline
final class MergeSink<Source, Element>: SerialOutboxOwner, Disposable, @unchecked Sendable {
  @usableFromInline typealias Payload = Element

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
    sink.withState { $0.outerSubscribed(subscription) }?.dispose()
    return sink
  }

  /// Runs `body` under the lock. Once the outbox is closed, the lock's side word says so, so that
  /// `outerOn` can drop the elements of an ended sequence without taking the lock: every
  /// transition runs through here, so the word is set in the critical section that closed it.
  @inlinable
  func withState<Result>(_ body: (inout MergeStateMachine<Element>) -> Result) -> Result {
    state.withLock { machine in
      let result = body(&machine)
      if machine.outbox.isClosed { state.storeWord(1) }
      return result
    }
  }

  /// `true` once the outbox is closed (read without the lock).
  @inlinable
  var isClosed: Bool { state.loadWord() != 0 }

  @inlinable
  func outerOn(_ event: Event<Source>) {
    switch event {
    case .next(let element):
      if dropsWhileBusy {
        guard withState({ $0.admit() }) else { return }
      } else if isClosed {
        return  // what `admit()` decides for the other limits, without the lock
      }
      let inner: Observable<Element>
      do {
        inner = try selector(element)
      } catch {
        drain(withState { $0.outbox.send(.error(error)) })
        return
      }
      if let just = inner as? JustObservable<Element>, !Tracing.isInstalled {
        justArrived(just)
        return
      }
      if withState({ $0.innerArrived(inner) }) { startLoop() }
    case .error(let error):
      drain(withState { $0.outbox.send(.error(error)) })
    case .completed:
      let (disposable, event) = withState { $0.outerCompleted() }
      disposable?.dispose()
      drain(event)
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
    switch withState({ $0.immediateArrived(just, element: just.element) }) {
    case .scheduled(let mustStart):
      if mustStart { startLoop() }
    case .deliver(let first):
      let trampoline = Trampoline.enterIfIdle()
      var event = first
      var completion: (startLoop: Bool, deliver: Event<Element>?)?
      // Holding the claim when `first` is set (see `drain`: the rank, or a waiter, otherwise).
      let saved = first == nil ? nil : ClaimRank.enter(ClaimRank.takeClaimed())
      while let current = event {
        if deliver(current) {
          dispose()
          break
        }
        (event, completion) = withState { $0.nextOrImmediateCompleted() }
      }
      if let saved { ClaimRank.leave(saved) }
      if first == nil { drain(nil) }
      let (mustContinue, last) = completion ?? withState { $0.immediateCompleted() }
      drain(last)
      trampoline?.drainAndStop()
      if mustContinue { startLoop() }
    }
  }

  @inlinable
  func startLoop() {
    while let next = withState({ $0.nextToStart() }) {
      let id = next.id
      if let just = next.source as? JustObservable<Element>, !Tracing.isInstalled {
        // What subscribing does, without the inner observer: the inner slot of `id` is removed
        // by the completion, so there is no subscription to store.
        let trampoline = Trampoline.enterIfIdle()
        innerOn(id, .next(just.element))
        innerOn(id, .completed)
        trampoline?.drainAndStop()
        continue
      }
      let subscription = next.source.subscribeAny(
        AnyObserver { [self] event in innerOn(id, event) })
      withState { $0.innerSubscribed(id, subscription) }?.dispose()
    }
  }

  @inlinable
  func innerOn(_ id: Int, _ event: Event<Element>) {
    switch event {
    case .next, .error:
      drain(withState { $0.outbox.send(event) })
    case .completed:
      let completion = withState { $0.innerCompleted(id) }
      completion.dispose?.dispose()
      if completion.startLoop { startLoop() }
      drain(completion.deliver)
    }
  }

  @inlinable
  func deliver(_ event: Event<Element>) -> Bool {
    downstream.on(event)
    return event.isStopEvent
  }

  @inlinable
  func nextPending() -> Event<Element>? {
    withState { $0.outbox.next() }
  }

  @inlinable
  var turnRank: Int {
    withState { $0.outbox.turns.rank }
  }

  @inlinable
  func dispose() {
    let (subscriptions, released) = withState { $0.dispose() }
    for subscription in subscriptions { subscription.dispose() }
    withExtendedLifetime(released) {}
  }
}

extension MergeSink where Source == Observable<Element> {
  /// Subscribes to every source at once (static `merge`).
  @inlinable
  static func subscribe(all sources: [Observable<Element>], observer: AnyObserver<Element>)
    -> any Disposable
  {
    let sink = MergeSink(downstream: observer, limit: .unbounded, selector: { $0 })
    let mustStart = sink.withState { state -> Bool in
      state.withoutOuter()
      var mustStart = false
      for source in sources where state.innerArrived(source) { mustStart = true }
      return mustStart
    }
    if mustStart { sink.startLoop() }
    sink.drain(sink.withState { $0.completeIfDone() })
    return sink
  }
}
