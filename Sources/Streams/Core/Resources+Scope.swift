extension Resources {
  /// The Streams objects that one piece of work made and that are still alive: the leak check of
  /// a test that runs beside other tests, where ``Resources/total`` counts every test's objects.
  ///
  /// ```swift
  /// let scope = Resources.Scope()
  /// scope.run {
  ///   let subject = PublishSubject<Int>()
  ///   _ = subject.map { $0 + 1 }.subscribe(onNext: { _ in })
  ///   subject.onCompleted()
  /// }
  /// assert(scope.live == 0)
  /// ```
  ///
  /// An object counts in the scope that was bound where it was made: bound by `run` on the
  /// calling thread or task, and inherited by the tasks that the task creates (a task-local
  /// value), even those still running after `run` returned. A thread the work starts itself does
  /// not inherit it: read ``current`` before starting the thread and bind it there
  /// (`scope?.run { ... }` in the thread's body). Objects that a scheduler's queue makes are not
  /// counted. An object leaves the scope when it is released, on whatever thread.
  ///
  /// Counted only where ``Resources/isCounting`` (debug builds of Streams); elsewhere ``live``
  /// stays 0. Once a process has made a scope, every Streams object it makes also reads the
  /// task-local value; one made in a scope takes a lock when it is made, and while any object
  /// made in a scope is alive, every Streams object released takes that lock: a facility for
  /// tests, not for production code.
  public final class Scope: Sendable {
    /// The objects made in this scope and not yet released.
    let count = AtomicCounter()

    /// A scope with nothing counted in it.
    public init() {
      Self.made.store(1)
    }

    /// The number of Streams objects made in this scope that are still alive.
    public var live: Int { count.value }

    /// The scope bound to the calling task or thread, if any: to bind it on a thread the work
    /// starts.
    public static var current: Scope? { bound }

    /// Runs `body` with this scope bound: the Streams objects it makes count in ``live``.
    ///
    /// - Parameter body: The work whose objects to count.
    /// - Returns: What `body` returns.
    public func run<Result>(_ body: () throws -> Result) rethrows -> Result {
      try Self.$bound.withValue(self, operation: body)
    }

    /// Runs `body` with this scope bound: the Streams objects it makes, and those the tasks it
    /// creates make while it runs, count in ``live``.
    ///
    /// - Parameters:
    ///   - isolation: The actor `body` runs on (the caller's, by default).
    ///   - body: The work whose objects to count.
    /// - Returns: What `body` returns.
    public func run<Result>(
      isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
    ) async rethrows -> Result {
      try await Self.$bound.withValue(self, operation: body)
    }

    /// The scope bound where the calling code runs.
    @TaskLocal static var bound: Scope?
    /// 1 once the process has made a scope: objects consult ``bound`` only then (one atomic load
    /// per object otherwise). Never reset, so that a task still running after its `run` returned
    /// counts in its scope whatever other tests do.
    @usableFromInline static let made = AtomicCounter()
    /// How many live objects are in a scope: a released object looks itself up only while there
    /// is one.
    @usableFromInline static let registered = AtomicCounter()
    /// The scope of each live object made in one.
    static let scopes = Locked<[ObjectIdentifier: Scope]>([:])

    /// Counts `object` in the scope bound here, if any.
    @usableFromInline
    static func track(_ object: AnyObject) {
      guard let scope = bound else { return }
      scope.count.increment()
      scopes.withLock { scopes in
        registered.increment()
        scopes[ObjectIdentifier(object)] = scope
      }
    }

    /// Counts `object` as released in the scope it was made in, if any.
    @usableFromInline
    static func untrack(_ object: AnyObject) {
      // Taken out under the lock and released after it.
      let scope = scopes.withLock { $0.removeValue(forKey: ObjectIdentifier(object)) }
      guard let scope else { return }
      registered.decrement()
      scope.count.decrement()
    }
  }
}
