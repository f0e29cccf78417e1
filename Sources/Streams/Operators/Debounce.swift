extension ObservableType where Element: Sendable {
  /// Emits an element only after `dueTime` has passed without another element.
  ///
  /// ```swift
  /// // source:        -a-b------c---|
  /// // debounce(3):   ------b------c|
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
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  @inlinable
  public func debounce(
    _ dueTime: RxTimeInterval, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(kind: "debounce", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = DebounceSink(observer, dueTime: dueTime, scheduler: scheduler)
      sink.output.setUpstream(
        Disposables.create(source.subscribeNested(AnyObserver(eventHandler: sink.on)), sink.timer))
      return sink.output
    }
  }
}

/// The state of one `debounce` subscription. `@inlinable` throughout, so that it specializes in
/// the caller's module.
///
/// Per element it allocates nothing itself: the timer is scheduled with the sink and the
/// element's generation as the action's state and a closure that captures nothing, so the only
/// allocation is whatever the scheduler makes per scheduled action.
///
/// `@unchecked Sendable`: mutable state is in `state` (its lock); `output` guards the downstream;
/// the other properties are immutable and `Sendable`.
@usableFromInline
final class DebounceSink<Element: Sendable>: @unchecked Sendable {
  @usableFromInline
  struct State: OutboxState {
    /// The generation of the latest element: a timer fires only for the element it was
    /// scheduled for.
    @usableFromInline var id: UInt64 = 0
    /// The element waiting for its quiet time to pass.
    @usableFromInline var value: Element?
    /// Serializes timer emissions with the source's terminal events.
    @usableFromInline var outbox = SerialOutbox<Element>()

    @inlinable
    init() {}
  }

  @usableFromInline let output: GuardedSink<Element>
  @usableFromInline let timer = SerialDisposable()
  @usableFromInline let state = Locked(State())
  @usableFromInline let dueTime: RxTimeInterval
  @usableFromInline let scheduler: any SchedulerType

  @inlinable
  init(_ observer: AnyObserver<Element>, dueTime: RxTimeInterval, scheduler: any SchedulerType) {
    output = GuardedSink(observer)
    self.dueTime = dueTime
    self.scheduler = scheduler
  }

  @inlinable
  func on(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      guard output.isActive else { return }
      let (id, replaced) = state.withLock { s -> (UInt64, Element?) in
        s.id &+= 1
        return (s.id, s.value.replace(with: element))
      }
      timer.disposable = scheduler.scheduleRelative((self, id), dueTime: dueTime) { tick in
        tick.0.fire(tick.1)
        return Disposables.create()
      }
      // Released last, after the lock and after this element's timer is in place: its deinit
      // may send another element, whose timer must replace this one.
      withExtendedLifetime(replaced) {}
    case .error:
      let (first, dropped) = state.withLock { s -> (Event<Element>?, Element?) in
        (s.outbox.send(event), s.value.take())
      }
      state.drain(first, into: output)
      withExtendedLifetime(dropped) {}
    case .completed:
      let first = state.withLock { s -> Event<Element>? in
        var first: Event<Element>?
        if !s.outbox.isClosed, let value = s.value.take() {
          first = s.outbox.send(.next(value))
        }
        let completed = s.outbox.send(.completed)
        return first ?? completed
      }
      state.drain(first, into: output)
    }
  }

  /// Emits the waiting element if it is still the one the timer was scheduled for.
  @inlinable
  func fire(_ id: UInt64) {
    let first = state.withLock { s -> Event<Element>? in
      guard s.id == id, !s.outbox.isClosed, let value = s.value.take() else { return nil }
      return s.outbox.send(.next(value))
    }
    state.drain(first, into: output)
  }
}
