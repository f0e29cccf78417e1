/// Runs one `buffer(timeSpan:count:scheduler:)` subscription: performs what
/// ``BufferStateMachine`` decides, after unlocking.
///
/// `@unchecked Sendable`: mutable state is the state machine behind `state`'s lock; `output`
/// guards the downstream; the other properties are immutable and `Sendable`.
final class BufferSink<Element: Sendable>: @unchecked Sendable {
  let output: GuardedSink<[Element]>
  private let state: Locked<BufferStateMachine<Element>>
  private let timeSpan: RxTimeInterval
  private let scheduler: any SchedulerType

  init(
    _ observer: AnyObserver<[Element]>, timeSpan: RxTimeInterval, count: Int,
    scheduler: any SchedulerType
  ) {
    output = GuardedSink(observer)
    state = Locked(BufferStateMachine(limit: count))
    self.timeSpan = timeSpan
    self.scheduler = scheduler
  }

  /// Starts the timer of window `window`, unless the timers are stopped.
  func startTimer(window: Int) {
    switch state.withLock({ $0.timerWillStart() }) {
    case .schedule: break
    case .skip: return
    }
    let scheduled = scheduler.scheduleRelative(window, dueTime: timeSpan) { [self] window in
      perform(state.withLock { $0.timerFired(window) })
      return Disposables.create()
    }
    switch state.withLock({ $0.timerScheduled(window, scheduled) }) {
    case .none: break
    case .dispose(let timer): timer.dispose()
    }
  }

  /// Cancels the current timer and every later one; part of the subscription's disposal.
  func stopTimers() {
    switch state.withLock({ $0.stopTimers() }) {
    case .none: break
    case .dispose(let timer): timer.dispose()
    }
  }

  func on(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      guard output.isActive else { return }
      perform(state.withLock { $0.received(element) })
    case .error(let error):
      switch state.withLock({ $0.failed(error) }) {
      case .none:
        break
      case .drain(let first, let dropped):
        state.drain(first, into: output)
        // The buffered elements are released after the lock.
        withExtendedLifetime(dropped) {}
      }
    case .completed:
      perform(state.withLock { $0.completed() })
    }
  }

  /// Drains a buffer the machine emitted, then starts the timer of a window that opened.
  private func perform(_ action: BufferStateMachine<Element>.StepAction) {
    switch action {
    case .none:
      break
    case .drain(let first):
      state.drain(first, into: output)
    case .drainAndStartTimer(let first, let window):
      state.drain(first, into: output)
      startTimer(window: window)
    }
  }
}
