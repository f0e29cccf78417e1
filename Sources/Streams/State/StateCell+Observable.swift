import StreamsState

extension StateCell where Value: Sendable {
  /// The cell as an observable: on subscription the current value, then each value after it is
  /// stored, all on the main actor; completes when the cell is deinitialized.
  ///
  /// ```swift
  /// uiState.contentAlpha.asObservable()
  ///   .map(\.title)
  ///   .subscribe(onNext: { print($0) })
  ///   .disposed(by: bag)
  /// ```
  ///
  /// A subscription made off the main queue starts on the main queue's next turn. The observable
  /// holds the cell, as a relay's `asObservable()` holds the relay; a subscription does not.
  nonisolated public func asObservable() -> Observable<Value> {
    Observable(kind: "stateCell", upstreams: [], disposableReleasesObserver: true) {
      [self] observer in
      let subscription = StateCellSubscription(observer)
      MainQueueCheck.runOnMainActor { subscription.start(self) }
      return subscription
    }
  }

  /// The cell as an `Infallible`: the current value, then each stored value; see
  /// ``asObservable()``.
  ///
  /// ```swift
  /// let titles = uiState.contentAlpha.asInfallible().map(\.title)
  /// ```
  nonisolated public func asInfallible() -> Infallible<Value> {
    Infallible(asObservable())
  }

  /// The cell as a `Driver`: the current value, then each stored value, on the main thread.
  ///
  /// ```swift
  /// uiState.isLoading.asDriver().drive(onNext: { print($0) }).disposed(by: bag)
  /// ```
  nonisolated public func asDriver() -> Driver<Value> {
    Driver(asObservable())
  }
}

/// One subscription to a ``StateCell``: sends the current value, then every stored value, and
/// completes when the cell goes.
///
/// The values arrive on the main actor. A value stored while the current one is being sent (the
/// observer writes the cell) waits until that send returns, so the observer is never re-entered.
///
/// The cell holds the subscription while it is registered, as a subject holds its observers, so a
/// subscription whose disposable is dropped keeps going. Disposal, completion and the cell's end
/// let go of the observer.
///
/// `@unchecked Sendable`: the phase is guarded by its lock; the observer is called outside it;
/// `flag` is only accessed atomically.
final class StateCellSubscription<Value: Sendable>: ReleasingSubscription, Cancelable,
  @unchecked Sendable
{
  private enum Phase {
    case waiting(AnyObserver<Value>)
    /// Registered, sending the current value; values stored meanwhile wait in `pending`.
    case starting(AnyObserver<Value>, StateObservation, pending: RingQueue<Value>)
    case observing(AnyObserver<Value>, StateObservation)
    case ended
  }

  /// 0 until disposed, then 1. Must stay the first stored property (see
  /// ``ReleasingSubscription``).
  private var flag = 0
  private let phase: Locked<Phase>

  init(_ observer: AnyObserver<Value>) {
    phase = Locked(.waiting(observer))
  }

  var isDisposed: Bool {
    phase.withLock { if case .ended = $0 { return true } else { return false } }
  }

  @MainActor
  func start(_ cell: StateCell<Value>) {
    guard case .waiting = phase.withLock({ $0 }) else { return }
    let observation = cell.observe(
      onChange: { value in self.send(value) },
      onEnd: { self.complete() })
    let observer: AnyObserver<Value>? = phase.withLock { phase in
      guard case .waiting(let observer) = phase else { return nil }
      phase = .starting(observer, observation, pending: RingQueue())
      return observer
    }
    guard let observer else {
      observation.cancel()
      return
    }
    var next = cell.untrackedValue
    while true {
      observer.on(.next(next))
      let more: Value? = phase.withLock { phase in
        guard case .starting(let observer, let observation, var pending) = phase else { return nil }
        phase = .ended  // `pending` is now the queue's only reference: no copy below
        guard let first = pending.popFirst() else {
          phase = .observing(observer, observation)
          return nil
        }
        phase = .starting(observer, observation, pending: pending)
        return first
      }
      guard let more else { return }
      next = more
    }
  }

  @MainActor
  private func send(_ value: Value) {
    let observer: AnyObserver<Value>? = phase.withLock { phase in
      switch phase {
      case .observing(let observer, _): return observer
      case .starting(let observer, let observation, var pending):
        phase = .ended  // `pending` is now the queue's only reference: no copy below
        pending.append(value)
        phase = .starting(observer, observation, pending: pending)
        return nil
      case .waiting, .ended: return nil
      }
    }
    observer?.on(.next(value))
  }

  /// The cell is being deinitialized: completes on the main actor.
  private func complete() {
    let ended = phase.withLock { phase in
      defer { phase = .ended }
      return phase
    }
    let observer: AnyObserver<Value>
    switch ended {
    case .waiting(let waiting), .starting(let waiting, _, _), .observing(let waiting, _):
      observer = waiting
    case .ended: return
    }
    MainQueueCheck.runOnMainActor { observer.on(.completed) }
  }

  func dispose() {
    ReleasingSubscriptions.markDisposed(self)
    // The phase leaves the lock whole: the observer and any pending values are released after.
    let ended = phase.withLock { phase in
      defer { phase = .ended }
      return phase
    }
    var observation: StateObservation?
    switch ended {
    case .starting(_, let registered, _), .observing(_, let registered): observation = registered
    case .waiting, .ended: break
    }
    _ = consume ended
    if let observation {
      MainQueueCheck.runOnMainActor { observation.cancel() }
    }
  }
}
