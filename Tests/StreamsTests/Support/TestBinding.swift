import Foundation
import Streams

/// What a test binds where it runs, its leak-check scope and its tracer, carried to the threads
/// it starts: neither a new thread nor `Task.detached` inherits a task-local value.
struct TestBinding: Sendable {
  let scope: Resources.Scope?
  let tracer: (any StreamsTracer)?

  /// What is bound where the caller runs.
  static var here: TestBinding {
    TestBinding(scope: Resources.Scope.current, tracer: Tracing.boundTracer)
  }

  /// Runs `body` with this binding.
  func run(_ body: () -> Void) {
    func traced() {
      if let tracer { Tracing.withTracer(tracer, body) } else { body() }
    }
    if let scope { scope.run(traced) } else { traced() }
  }

  /// Runs `body` with this binding.
  func run<Result>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async -> Result
  ) async -> Result {
    func traced() async -> Result {
      if let tracer { return await Tracing.withTracer(tracer, body) }
      return await body()
    }
    if let scope { return await scope.run(traced) }
    return await traced()
  }
}

/// `true` once every Streams object made in `scope` is released; waits up to 10 s for
/// releases on other threads (a hang detector, not a timing assertion).
func released(_ scope: Resources.Scope) -> Bool {
  for _ in 0..<1000 {
    if scope.live == 0 { return true }
    usleep(10_000)
  }
  return false
}
