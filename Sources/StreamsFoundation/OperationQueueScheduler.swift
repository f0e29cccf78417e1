import Foundation
import Streams

/// A scheduler that runs each action as an operation on an `OperationQueue`, at the queue's
/// concurrency and the given priority (RxSwift's `OperationQueueScheduler`).
///
/// ```swift
/// let queue = OperationQueue()
/// queue.maxConcurrentOperationCount = 2
/// let scheduler = OperationQueueScheduler(operationQueue: queue)
/// _ = Observable.of(1, 2, 3).subscribe(on: scheduler).subscribe(onNext: { print($0) })
/// ```
///
/// It has no clock (an `ImmediateSchedulerType`, as in RxSwift): time operators need a
/// `SchedulerType` such as `ConcurrentDispatchQueueScheduler`. Disposing what
/// ``schedule(_:action:)`` returns before the operation starts cancels the operation; after it
/// started, it disposes what the action returned.
public final class OperationQueueScheduler: ImmediateSchedulerType, @unchecked Sendable {
  // @unchecked Sendable: both properties are immutable, and OperationQueue is thread-safe (it is
  // documented as safe to use from several threads; Foundation does not mark it Sendable).

  /// The queue the actions run on.
  public let operationQueue: OperationQueue
  /// The priority every operation gets.
  public let queuePriority: Operation.QueuePriority

  /// A scheduler that adds its actions to `operationQueue` with `queuePriority`.
  public init(operationQueue: OperationQueue, queuePriority: Operation.QueuePriority = .normal) {
    self.operationQueue = operationQueue
    self.queuePriority = queuePriority
  }

  /// Adds an operation that runs `action(state)` unless it was disposed first.
  public func schedule<StateType: Sendable>(
    _ state: StateType, action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    let result = SingleAssignmentDisposable()
    let operation = BlockOperation {
      if result.isDisposed { return }
      result.setDisposable(action(state))
    }
    operation.queuePriority = queuePriority
    let cancel = UncheckedSendableBox(operation)
    operationQueue.addOperation(operation)
    return Disposables.create {
      cancel.value.cancel()
      result.dispose()
    }
  }
}
