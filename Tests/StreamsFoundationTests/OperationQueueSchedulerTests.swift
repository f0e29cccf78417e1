import Foundation
import StreamsFoundation
import StreamsTest
import Testing

@Suite("OperationQueueScheduler")
struct OperationQueueSchedulerTests {
  @Test("runs each action as an operation on its queue, with its priority")
  func runsOnTheQueue() throws {
    let queue = OperationQueue()
    queue.name = "test.operations"
    let scheduler = OperationQueueScheduler(operationQueue: queue, queuePriority: .high)
    #expect(scheduler.queuePriority == .high)
    let names = try Observable.of(1, 2, 3)
      .subscribe(on: scheduler)
      .map { _ in OperationQueue.current?.name ?? "none" }
      .toBlocking(timeout: 10).toArray()
    #expect(names == ["test.operations", "test.operations", "test.operations"])
    let suspended = OperationQueue()
    suspended.isSuspended = true
    _ = OperationQueueScheduler(operationQueue: suspended, queuePriority: .high)
      .schedule(()) { Disposables.create() }
    #expect(suspended.operations.map(\.queuePriority) == [.high])
    suspended.isSuspended = false
    suspended.waitUntilAllOperationsAreFinished()
  }

  @Test("disposing before the operation starts cancels it; the action never runs")
  func disposeBeforeStart() {
    let queue = OperationQueue()
    queue.isSuspended = true
    let scheduler = OperationQueueScheduler(operationQueue: queue)
    let ran = Locked(false)
    let scheduled = scheduler.schedule(()) { _ in
      ran.withLock { $0 = true }
      return Disposables.create()
    }
    scheduled.dispose()
    queue.isSuspended = false
    queue.waitUntilAllOperationsAreFinished()
    #expect(!ran.withLock { $0 })
  }

  @Test("disposing after the action ran disposes what the action returned")
  func disposeAfterRun() {
    let queue = OperationQueue()
    let scheduler = OperationQueueScheduler(operationQueue: queue)
    let inner = BooleanDisposable()
    let scheduled = scheduler.schedule(()) { _ in inner }
    queue.waitUntilAllOperationsAreFinished()
    #expect(!inner.isDisposed)
    scheduled.dispose()
    #expect(inner.isDisposed)
  }

  @Test("a queue of one runs the actions one at a time, in order")
  func serialQueue() throws {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let scheduler = OperationQueueScheduler(operationQueue: queue)
    let order = Locked<[Int]>([])
    for index in 0..<50 {
      _ = scheduler.schedule(index) { index in
        order.withLock { $0.append(index) }
        return Disposables.create()
      }
    }
    queue.waitUntilAllOperationsAreFinished()
    #expect(order.withLock { $0 } == Array(0..<50))
  }
}
