extension ObservableType where Element: Sendable {
  /// Emits an element only after `dueTime` has passed without another element.
  ///
  /// ```swift
  /// // source:        -a-b------c---|
  /// // debounce(3):   -------b------c|
  /// _ = searchText.debounce(.milliseconds(300), scheduler: MainScheduler.instance)
  ///   .subscribe(onNext: { print($0) })
  /// // Prints the text once typing pauses for 300 ms
  /// ```
  ///
  /// Every element restarts the timer; when it fires, the latest element is emitted on
  /// `scheduler`. Completes when the source completes, first emitting the element still waiting
  /// (at once, not after `dueTime`); fails at once when the source fails, dropping the waiting
  /// element. Disposal disposes the source and cancels the timer.
  ///
  /// - Parameters:
  ///   - dueTime: The quiet time that must follow an element before it is emitted.
  ///   - scheduler: Runs the timers; elements are emitted on it (hence `Element: Sendable`).
  public func debounce(
    _ dueTime: RxTimeInterval, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(kind: "debounce", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = DebounceSink(observer, dueTime: dueTime, scheduler: scheduler)
      sink.output.setUpstream(
        Disposables.create(source.subscribeAny(AnyObserver(eventHandler: sink.on)), sink.timer))
      return sink.output
    }
  }
}

/// `@unchecked Sendable`: mutable state is in `state` (its lock); `output` guards the downstream;
/// the other properties are immutable and `Sendable`.
private final class DebounceSink<Element: Sendable>: @unchecked Sendable {
  struct State: OutboxState {
    var id: UInt64 = 0
    var value: Element?
    var outbox = Outbox<Element>()
  }

  let output: GuardedSink<Element>
  let timer = SerialDisposable()
  private let state = Locked(State())
  private let dueTime: RxTimeInterval
  private let scheduler: any SchedulerType

  init(_ observer: AnyObserver<Element>, dueTime: RxTimeInterval, scheduler: any SchedulerType) {
    output = GuardedSink(observer)
    self.dueTime = dueTime
    self.scheduler = scheduler
  }

  func on(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      guard output.isActive else { return }
      let id = state.withLock { s -> UInt64 in
        s.id &+= 1
        s.value = element
        return s.id
      }
      timer.disposable = scheduler.scheduleRelative(id, dueTime: dueTime) { [self] id in
        fire(id)
        return Disposables.create()
      }
    case .error:
      state.update(into: output) { s in
        s.value = nil
        s.outbox.send(event)
      }
    case .completed:
      state.update(into: output) { s in
        if let value = s.value {
          s.value = nil
          s.outbox.send(.next(value))
        }
        s.outbox.send(.completed)
      }
    }
  }

  private func fire(_ id: UInt64) {
    state.update(into: output) { s in
      guard s.id == id, let value = s.value else { return }
      s.value = nil
      s.outbox.send(.next(value))
    }
  }
}
