/// Runs one subscription of `concat` over a sequence of sources: performs what
/// ``ConcatStateMachine`` decides, after unlocking.
///
/// `@unchecked Sendable`: `flags` is only accessed atomically after `init`; other mutable state
/// is the state machine behind `state`'s lock, except
/// `iterator`, which only the thread that owns the subscribe loop (``ConcatStateMachine``'s
/// `looping` and `advancing` states) touches, so that user iteration code never runs under the
/// lock. `downstream` is only called by the holder of the outbox's delivery claim.
final class ConcatSink<Element>: MultiSourceSink, @unchecked Sendable {
  typealias Payload = Element

  /// The lifecycle word: the first stored property (``MultiSourceSink``).
  var flags: Int

  private let downstream: AnyObserver<Element>
  private var iterator: AnyIterator<Observable<Element>>
  let state = Locked(ConcatStateMachine<Element>())

  init(downstream: AnyObserver<Element>, sources: AnyIterator<Observable<Element>>) {
    self.flags = 0
    self.downstream = downstream
    self.iterator = sources
    Resources.track(self)
  }

  deinit { Resources.untrack(self) }

  /// Subscribes to the first source (the machine starts with the loop owned by this call).
  func start() -> any Disposable {
    run(after: nil)
    return self
  }

  /// The subscribe loop: subscribes the next source for as long as sources complete
  /// synchronously.
  ///
  /// `completed` is the subscription of the source that just completed: it is disposed before
  /// the next source is subscribed, or, when it was the last, after the completion is delivered
  /// (RxSwift's order).
  private func run(after completed: (any Disposable)?) {
    var completed = completed
    loop: while true {
      let id: Int
      switch state.withLock({ $0.willSubscribe() }) {
      case .stop: break loop
      case .subscribe(let next): id = next
      }
      guard let source = iterator.next() else {
        switch state.withLock({ $0.exhausted() }) {
        case .none: break
        case .complete(let completion): drain(completion)
        }
        completed?.dispose()
        return
      }
      completed.take()?.dispose()
      let subscription = source.subscribeAny(AnyObserver { [self] event in on(id, event) })
      switch state.withLock({ $0.subscribed(id, subscription) }) {
      case .keep:
        return
      case .dispose(let disposable):
        disposable.dispose()
        return
      case .disposeAndAdvance(let disposable):
        disposable.dispose()
      }
    }
    completed?.dispose()
  }

  private func on(_ id: Int, _ event: Event<Element>) {
    switch event {
    case .next(let element):
      perform(state.withLock { $0.received(element) })
    case .error(let error):
      perform(state.withLock { $0.failed(error) })
    case .completed:
      switch state.withLock({ $0.completed(id) }) {
      case .none: break
      case .dispose(let disposable): disposable.dispose()
      case .runLoop(let completed): run(after: completed)
      }
    }
  }

  /// Drains an element or an error the machine accepted.
  private func perform(_ action: ConcatStateMachine<Element>.ForwardAction) {
    switch action {
    case .drop: break
    case .drain(let event): drain(event)
    }
  }

  func deliver(_ event: Event<Element>) -> Bool {
    downstream.on(event)
    return event.isStopEvent
  }

  func tearDown() {
    switch state.withLock({ $0.dispose() }) {
    case .dispose(let current, let queued):
      current?.dispose()
      withExtendedLifetime(queued) {}
    }
  }
}
