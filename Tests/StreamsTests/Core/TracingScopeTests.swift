import Dispatch
import Foundation
import Streams
import Testing

/// Notes the ids of the nodes it is offered (it traces none of them).
private final class NodeLog: StreamsTracer, @unchecked Sendable {
  // Guarded by `lock`.
  private var seen: Set<UInt64> = []
  private let lock = TestLock()

  func saw(_ observable: Observable<Int>) -> Bool {
    lock.run { seen.contains(observable.traceNodeID) }
  }

  func subscription(to node: TraceNode) -> (any TraceSubscription)? {
    lock.run { _ = seen.insert(node.id) }
    return nil
  }
}

/// Runs `body` on a new thread and returns its result once the thread is done.
private func onNewThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
  let result = TestBox<Result?>(nil)
  let done = DispatchSemaphore(value: 0)
  Thread {
    let value = body()
    result.withLock { $0 = value }
    done.signal()
  }.start()
  done.wait()
  return result.withLock { $0! }
}

@Suite("Tracing.withTracer")
struct TracingScopeTests {
  @Test("the bound tracer is the calling code's, not a thread's it starts, and ends with the call")
  func boundHere() {
    let tracer = NodeLog()
    let inside = Observable<Int>.just(1)
    let elsewhere = Unchecked(Observable<Int>.just(2))
    let after = Observable<Int>.just(3)
    #expect(Tracing.boundTracer == nil)
    Tracing.withTracer(tracer) {
      #expect(Tracing.current === tracer)
      #expect(Tracing.boundTracer === tracer)
      _ = inside.subscribe()
      let sawTracer = onNewThread { () -> Bool in
        _ = elsewhere.value.subscribe()
        return Tracing.current === tracer
      }
      #expect(!sawTracer)
    }
    #expect(Tracing.boundTracer == nil)
    _ = after.subscribe()
    #expect(tracer.saw(inside))
    #expect(!tracer.saw(elsewhere.value))
    #expect(!tracer.saw(after))
  }

  @Test("an inner call's tracer replaces the outer one's until it returns")
  func nested() {
    let outer = NodeLog()
    let inner = NodeLog()
    let first = Observable<Int>.just(1)
    let second = Observable<Int>.just(2)
    let third = Observable<Int>.just(3)
    Tracing.withTracer(outer) {
      _ = first.subscribe()
      Tracing.withTracer(inner) {
        #expect(Tracing.current === inner)
        _ = second.subscribe()
      }
      #expect(Tracing.current === outer)
      _ = third.subscribe()
    }
    #expect(outer.saw(first) && !outer.saw(second) && outer.saw(third))
    #expect(!inner.saw(first) && inner.saw(second) && !inner.saw(third))
  }

  @Test("work handed to a dispatch queue keeps the tracer, even after the call returned")
  func carriedThroughAQueue() {
    let tracer = NodeLog()
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "tracing scope test")
    let source = Observable<Int>.just(1)
    let done = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)
    // The queue subscribes to `source` once the call has returned.
    let subscription = Tracing.withTracer(tracer) {
      Observable<Int>.deferred {
        gate.wait()
        return source
      }
      .subscribe(on: scheduler)
      .subscribe(onCompleted: { done.signal() })
    }
    gate.signal()
    done.wait()
    subscription.dispose()
    #expect(tracer.saw(source))
  }

  @Test("a task made in the call inherits the tracer")
  func inheritedByTasks() async {
    let tracer = NodeLog()
    let source = Unchecked(Observable<Int>.just(1))
    await Tracing.withTracer(tracer) {
      await Task { _ = source.value.subscribe() }.value
    }
    #expect(tracer.saw(source.value))
  }

  @Test("the call's tracer replaces the installed one there, and the installed one stays elsewhere")
  func overInstalled() async {
    // Installs a process-wide tracer: in a child process of its own.
    await #expect(processExitsWith: .success) {
      let installed = NodeLog()
      let bound = NodeLog()
      Tracing.install(installed)
      let inside = Observable<Int>.just(1)
      let elsewhere = Unchecked(Observable<Int>.just(2))
      Tracing.withTracer(bound) {
        precondition(Tracing.current === bound, "the bound tracer is the current one")
        _ = inside.subscribe()
        let current = onNewThread { () -> Bool in
          _ = elsewhere.value.subscribe()
          return Tracing.current === installed
        }
        precondition(current, "another thread keeps the installed tracer")
      }
      precondition(Tracing.current === installed, "the installed tracer is back after the call")
      precondition(bound.saw(inside) && !installed.saw(inside))
      precondition(installed.saw(elsewhere.value) && !bound.saw(elsewhere.value))
      Tracing.install(nil)
      precondition(Tracing.current == nil)
    }
  }
}
