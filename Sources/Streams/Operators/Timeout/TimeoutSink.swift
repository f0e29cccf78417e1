/// Runs one `timeout` subscription: performs what ``TimeoutStateMachine`` decides, after
/// unlocking.
///
/// `@unchecked Sendable`: mutable state is the state machine behind `state`'s lock; `output`
/// guards the downstream; `other` is an immutable recipe (see ``SourceBox``); the rest is
/// immutable and `Sendable`.
final class TimeoutSink<Element>: @unchecked Sendable {
  let output: GuardedSink<Element>
  let timer = SerialDisposable()
  /// The source subscription, replaced by the subscription to `other` on a timeout.
  let subscription = SerialDisposable()
  private let state = Locked(TimeoutStateMachine<Element>())
  private let dueTime: RxTimeInterval
  private let other: Observable<Element>
  private let scheduler: any SchedulerType

  init(
    _ observer: AnyObserver<Element>, dueTime: RxTimeInterval, other: Observable<Element>,
    scheduler: any SchedulerType
  ) {
    output = GuardedSink(observer)
    self.dueTime = dueTime
    self.other = other
    self.scheduler = scheduler
  }

  /// Starts timer `id`, unless the subscription was disposed.
  func startTimer(id: Int) {
    if timer.isDisposed { return }
    timer.disposable = scheduler.scheduleRelative(id, dueTime: dueTime) { [self] id in
      fire(id)
      return Disposables.create()
    }
  }

  func onSource(_ event: Event<Element>) {
    switch state.withLock({ $0.sourceSent(event) }) {
    case .drop:
      break
    case .drain(let first):
      state.drain(first, into: output)
    case .drainAndStartTimer(let first, let timer):
      state.drain(first, into: output)
      // The observer may have made the source send again meanwhile, starting a later timer.
      switch state.withLock({ $0.timerStarting(timer) }) {
      case .start: startTimer(id: timer)
      case .skip: break
      }
    }
  }

  private func onOther(_ event: Event<Element>) {
    switch state.withLock({ $0.otherSent(event) }) {
    case .drop: break
    case .drain(let first): state.drain(first, into: output)
    }
  }

  private func fire(_ id: Int) {
    switch state.withLock({ $0.timerFired(id) }) {
    case .none:
      break
    case .switchToOther:
      subscription.disposable = other.subscribeAny(AnyObserver { [self] in onOther($0) })
    }
  }
}
