import StreamsShims

extension Tracing {
  /// Runs `body` with `tracer` as the tracer of the calling code, in place of the installed one:
  /// the subscriptions `body` makes and the events it sends are offered to `tracer`, and code
  /// elsewhere keeps the installed tracer (or none).
  ///
  /// ```swift
  /// let recorder = TraceRecorder()
  /// Tracing.withTracer(recorder) {
  ///   _ = subject.map { $0 * 2 }.subscribe(onNext: { print($0) })
  ///   subject.onNext(1)
  /// }
  /// ```
  ///
  /// The tracer is bound to the calling thread or task, and inherited by the tasks that the task
  /// creates (a task-local value) while `body` runs; a task still running after `body` returned
  /// is traced only while some other call is under way, so finish such work in `body`. One-shot
  /// work handed on through a scheduler (`schedule`, `scheduleRelative`, not periodic timers), a
  /// state binding's hop or the events a bridge's `Task` sends keeps the tracer wherever it
  /// runs, even after `body` returns. A thread that `body` starts itself does not: read
  /// ``boundTracer`` before starting it and bind it there. This is how tests that trace run
  /// beside other tests: ``install(_:)`` is process-wide.
  ///
  /// While any call is under way, every subscription and every send into a subject in the
  /// process reads the task-local value, and one made outside any call takes a lock to read the
  /// installed tracer: a facility for tests and tools, not for an app's production code. A thread
  /// that used `tracer` keeps it (and so the recorder's memory) until it uses another tracer or
  /// exits, as after `install(nil)`.
  ///
  /// - Parameters:
  ///   - tracer: The tracer of the calling code while `body` runs.
  ///   - body: The work to trace.
  /// - Returns: What `body` returns.
  public static func withTracer<Result>(
    _ tracer: any StreamsTracer, _ body: () throws -> Result
  ) rethrows -> Result {
    beginScope()
    defer { endScope() }
    return try $scopedTracer.withValue(tracer, operation: body)
  }

  /// Runs `body` with `tracer` as the tracer of the calling code and of the tasks it creates, in
  /// place of the installed one (see ``withTracer(_:_:)``).
  ///
  /// - Parameters:
  ///   - tracer: The tracer of the calling code while `body` runs.
  ///   - isolation: The actor `body` runs on (the caller's, by default).
  ///   - body: The work to trace.
  /// - Returns: What `body` returns.
  public static func withTracer<Result>(
    _ tracer: any StreamsTracer, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Result
  ) async rethrows -> Result {
    beginScope()
    defer { endScope() }
    return try await $scopedTracer.withValue(tracer, operation: body)
  }

  /// The tracer that ``withTracer(_:_:)`` bound to the calling code, if any: to bind it again on
  /// a thread that the traced work starts.
  public static var boundTracer: (any StreamsTracer)? {
    streams_tracing_installed_load() == scoping ? scopedTracer : nil
  }

  /// The value of the C flag while a ``withTracer(_:_:)`` call is under way: the tracer must be
  /// looked up where the code runs. Installed tracers have positive generations.
  @usableFromInline static let scoping = -1

  /// The tracer bound by ``withTracer(_:_:)`` where the calling code runs.
  @TaskLocal static var scopedTracer: (any StreamsTracer)?

  private static func beginScope() {
    slot.withLock { slot in
      slot.scopes += 1
      streams_tracing_installed_store(scoping)
    }
  }

  private static func endScope() {
    slot.withLock { slot in
      slot.scopes -= 1
      if slot.scopes == 0 { streams_tracing_installed_store(slot.generation) }
    }
  }

  /// ``current`` while a ``withTracer(_:_:)`` call is under way: the tracer bound here, or the
  /// installed one; the thread keeps it for `Tracing.send`'s direct path.
  @usableFromInline
  static func scopedCurrent() -> (any StreamsTracer)? {
    let tracer = scopedTracer ?? slot.withLock { $0.tracer }
    Trampoline.currentUnretained._withUnsafeGuaranteedRef { trampoline in
      if trampoline.tracer !== tracer || trampoline.tracerGeneration != 0 {
        trampoline.use(tracer, generation: 0)
      }
    }
    return tracer
  }
}

/// What work handed on to another thread or task takes with it for the tracer: the hop that
/// restores its cause, if the tracer wants one, and the tracer that ``Tracing/withTracer(_:_:)``
/// bound where it was handed on, if any.
@usableFromInline
struct CarriedCause: Sendable {
  let hop: (any TraceHop)?
  let tracer: (any StreamsTracer)?

  /// What to carry for a hop of `kind` named `label`; `nil` when there is nothing to carry.
  @usableFromInline
  init?(_ kind: TraceHopKind, label: String) {
    guard let current = Tracing.current else { return nil }
    hop = current.hop(kind, label: label)
    tracer = Tracing.boundTracer
    if hop == nil, tracer == nil { return nil }
  }

  /// Runs `work` with the cause restored and the tracer bound.
  @usableFromInline
  func run(_ work: () -> Void) {
    func restored() {
      if let hop { hop.run(work) } else { work() }
    }
    guard let tracer else { return restored() }
    Tracing.withTracer(tracer, restored)
  }
}
