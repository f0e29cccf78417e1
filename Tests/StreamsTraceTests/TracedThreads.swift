import Dispatch
import Streams

/// `DispatchQueue.concurrentPerform`, each iteration with the tracer that the caller bound
/// (``Tracing/withTracer(_:_:)``): the pool's threads do not inherit it.
func concurrentlyTraced(iterations: Int, _ body: @Sendable (Int) -> Void) {
  let tracer = Tracing.boundTracer
  DispatchQueue.concurrentPerform(iterations: iterations) { iteration in
    guard let tracer else { return body(iteration) }
    Tracing.withTracer(tracer) { body(iteration) }
  }
}
