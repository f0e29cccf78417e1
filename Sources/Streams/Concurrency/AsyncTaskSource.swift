/// Builds the observables that run async code in a `Task` per subscription: the shared core of
/// `AsyncSequence.asObservable`, `Single.task`, `Maybe.task`, `Completable.task` and
/// `Single.create(detached:priority:work:)`.
///
/// Each subscription starts one task. `body` runs in the task's isolation (the main actor for
/// `.mainActor`, none for the pool) and sends its events to the sink, which enforces the grammar
/// and drops everything after disposal. Disposing the subscription cancels the task.
enum AsyncTaskSource {
  /// The work of one subscription: receives the task's isolation and the sink to send to.
  typealias Body<Element> = @Sendable (isolated (any Actor)?, GuardedSink<Element>) async -> Void

  static func observable<Element>(
    kind: StaticString, detached: Bool = false, priority: TaskPriority?, delivery: AsyncDelivery,
    file: StaticString, line: UInt, body: @escaping Body<Element>
  ) -> Observable<Element> {
    Observable(kind: kind, upstreams: [], file: file, line: line) { observer in
      // What the task sends is caused by what was being delivered when it was subscribed.
      let sink = GuardedSink(Tracing.carryingCause(intoTask: observer))
      let task: Task<Void, Never>
      switch (detached, delivery.isMainActor) {
      case (false, false):
        task = Task(priority: priority) { await body(nil, sink) }
      case (false, true):
        task = Task(priority: priority) { await runOnMainActor(body, sink) }
      case (true, false):
        task = Task.detached(priority: priority) { await body(nil, sink) }
      case (true, true):
        task = Task.detached(priority: priority) { await runOnMainActor(body, sink) }
      }
      sink.setUpstream(TaskDisposable(task))
      return sink
    }
  }

  @MainActor
  private static func runOnMainActor<Element>(
    _ body: Body<Element>, _ sink: GuardedSink<Element>
  ) async {
    await body(MainActor.shared, sink)
  }
}

/// Cancels a task when disposed.
final class TaskDisposable: Disposable {
  let task: Task<Void, Never>

  init(_ task: Task<Void, Never>) {
    self.task = task
  }

  func dispose() { task.cancel() }
}
