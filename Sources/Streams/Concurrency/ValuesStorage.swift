/// The shared part of one ``ObservableValues`` iterator: the lock-guarded state machine, reached
/// by the producer (the upstream observer, any thread), the consumer (the iterating task) and the
/// task's cancellation handler.
///
/// Every action the state machine returns runs after the lock is released: continuations are
/// resumed, the upstream is disposed, `onDrop` is called and elements are released outside it.
/// Sendable: its stored properties are immutable and Sendable; the state lives in `Locked`.
@usableFromInline
final class ValuesStorage<Element: Sendable>: Sendable {
  @usableFromInline let machine: Locked<ValuesStateMachine<Element>>
  @usableFromInline let onDrop: (@Sendable (Element) -> Void)?
  @usableFromInline let drops: AtomicCounter

  @inlinable
  init(
    policy: AsyncBufferingPolicy, onDrop: (@Sendable (Element) -> Void)?, drops: AtomicCounter
  ) {
    machine = Locked(ValuesStateMachine(policy: policy))
    self.onDrop = onDrop
    self.drops = drops
    Resources.track(self)
  }

  @inlinable
  deinit { Resources.untrack(self) }

  /// What the iterator does next.
  @usableFromInline
  enum Step {
    case element(Element)
    /// The buffer was moved into the iterator's batch: pop from it.
    case batched
    case subscribe
    case suspend
    case end((any Error)?)
  }

  // MARK: consumer

  /// Takes an element, the whole buffer, or tells the iterator to subscribe or suspend.
  @inlinable
  func step(batch: inout RingQueue<Element>) -> Step {
    let action = machine.withLock { machine -> ValuesStateMachine<Element>.NextAction? in
      if machine.takeAll(into: &batch) { return nil }
      return machine.next()
    }
    switch action {
    case nil: return .batched
    case .element(let element): return .element(element)
    case .subscribe: return .subscribe
    case .suspend: return .suspend
    case .end(let disposable, let error):
      disposable?.dispose()
      return .end(error)
    }
  }

  /// Suspends until an element, the end, or cancellation; resumes on `isolation`.
  @inlinable
  func suspend(isolation: isolated (any Actor)?) async -> Result<Element?, any Error> {
    await withTaskCancellationHandler {
      await withUnsafeContinuation(isolation: isolation) { continuation in
        let action = machine.withLock { $0.suspend(continuation) }
        switch action {
        case .none:
          break
        case .resume(let continuation, let result):
          continuation.resume(returning: result)
        case .disposeAndResume(let continuation, let disposable):
          disposable?.dispose()
          continuation.resume(returning: .success(nil))
        }
      }
    } onCancel: {
      cancel()
    }
  }

  /// The consumer subscribed; disposes `disposable` at once if it is no longer wanted.
  @inlinable
  func subscribed(_ disposable: any Disposable) {
    let unwanted = machine.withLock { $0.subscribed(disposable) }
    unwanted?.dispose()
  }

  /// The consuming task was cancelled (from the cancellation handler, or seen by `next()`).
  @inlinable
  func cancel() {
    let action = machine.withLock { $0.cancelled() }
    switch action {
    case .none:
      break
    case .disposeAndResume(let continuation, let disposable):
      disposable?.dispose()
      continuation.resume(returning: .success(nil))
    case .release(let elements, let handoff, let terminal):
      withExtendedLifetime((elements, handoff, terminal)) {}
    }
  }

  /// The iterator is gone: disposes the upstream and releases what was buffered.
  @usableFromInline
  func iteratorDropped() {
    let (disposable, released) = machine.withLock { $0.iteratorDropped() }
    disposable?.dispose()
    withExtendedLifetime(released) {}
  }

  /// Elements this iterator's policy dropped.
  @usableFromInline
  var droppedCount: Int { machine.withLock { $0.dropped } }

  /// `true` when `next()` returned `nil` (or will) because the consuming task was cancelled.
  @usableFromInline
  var wasCancelled: Bool { machine.withLock { $0.wasCancelled } }

  /// `true` while the consumer is suspended in `next()` (tests wait for this).
  var hasWaiter: Bool { machine.withLock { $0.waiter != nil } }

  // MARK: producer

  /// Receives the upstream's events.
  @inlinable
  func on(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      let action = machine.withLock { $0.element(element) }
      switch action {
      case .none:
        break
      case .resume(let continuation, let element):
        continuation.resume(returning: .success(element))
      case .dropped(let element):
        drops.increment()
        onDrop?(element)
      }
    case .error(let error):
      finish(.failed(error))
    case .completed:
      finish(.completed)
    }
  }

  @inlinable
  func finish(_ terminal: ValuesStateMachine<Element>.PendingTerminal) {
    let action = machine.withLock { $0.terminal(terminal) }
    switch action {
    case .none:
      break
    case .dispose(let disposable):
      disposable?.dispose()
    case .disposeAndResume(let continuation, let result, let disposable):
      disposable?.dispose()
      continuation.resume(returning: result)
    }
  }
}

/// Owned by one iterator only: when the iterator is dropped (the loop ended early, the task
/// finished), its deinit disposes the upstream.
@usableFromInline
final class ValuesIteratorLifetime<Element: Sendable> {
  @usableFromInline let storage: ValuesStorage<Element>

  @inlinable
  init(_ storage: ValuesStorage<Element>) {
    self.storage = storage
  }

  deinit { storage.iteratorDropped() }
}
