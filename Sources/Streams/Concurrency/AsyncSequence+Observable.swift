/// Where an async-to-Rx bridge delivers events to its observers.
///
/// ```swift
/// let titles = titleStream.asObservable(on: .mainActor)  // UI code needs no observe(on:)
/// ```
public struct AsyncDelivery: Sendable, Hashable {
  @usableFromInline let isMainActor: Bool

  @inlinable
  init(isMainActor: Bool) {
    self.isMainActor = isMainActor
  }

  /// The bridge's task runs on the cooperative thread pool and delivers there, on whichever pool
  /// thread runs it after each suspension.
  public static var cooperativePool: AsyncDelivery { AsyncDelivery(isMainActor: false) }

  /// The bridge's task runs on the main actor and delivers there, so observers can touch UI.
  public static var mainActor: AsyncDelivery { AsyncDelivery(isMainActor: true) }
}

extension AsyncSequence where Self: Sendable {
  /// An observable that iterates this sequence in a task for each subscription.
  ///
  /// ```swift
  /// let stream = AsyncStream<Int> { continuation in
  ///   continuation.yield(1); continuation.yield(2); continuation.finish()
  /// }
  /// _ = stream.asObservable().subscribe(onNext: { print($0) }, onCompleted: { print("done") })
  /// // Prints "1", "2", "done"
  /// ```
  ///
  /// Each subscription starts a `Task` (with `priority`) that runs a `for try await` loop and
  /// sends each element as `.next`. The sequence's end becomes `.completed`; a thrown
  /// `CancellationError` also becomes `.completed`; any other error becomes `.error`. Disposing
  /// the subscription cancels the task: nothing is delivered after disposal, and the loop stops
  /// at the sequence's next element at the latest.
  ///
  /// Events are delivered where `delivery` says: `.cooperativePool` (the default) delivers on the
  /// pool thread running the task; `.mainActor` runs the task on the main actor, so a pipeline
  /// that ends in UI code needs no `observe(on:)`. This is stated and fixed, unlike RxSwift, whose
  /// `asObservable()` changed the thread it delivers on in a minor release (its issue #2553).
  /// Subscribing never delivers synchronously: the first event comes from the task.
  ///
  /// - Parameters:
  ///   - priority: The priority of the iterating task; `nil` inherits the subscriber's.
  ///   - delivery: Where the task runs and events are delivered.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func asObservable(
    priority: TaskPriority? = nil, on delivery: AsyncDelivery = .cooperativePool,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let sequence = self
    return AsyncTaskSource.observable(
      kind: "asObservable", priority: priority, delivery: delivery, file: file, line: line
    ) { isolation, sink in
      await sequence.forward(to: sink, isolation: isolation)
    }
  }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
extension AsyncSequence where Self: Sendable, Failure == Never {
  /// An ``Infallible`` that iterates this non-throwing sequence in a task for each subscription.
  ///
  /// ```swift
  /// let stream = AsyncStream<Int> { continuation in
  ///   continuation.yield(1); continuation.finish()
  /// }
  /// _ = stream.asInfallible().subscribe(onNext: { print($0) })
  /// // Prints "1"
  /// ```
  ///
  /// Behaves as ``asObservable(priority:on:file:line:)``: one task per subscription, the end of
  /// the sequence completes, disposal cancels the task, events are delivered where `delivery`
  /// says. The sequence cannot throw, so the result cannot fail.
  public func asInfallible(
    priority: TaskPriority? = nil, on delivery: AsyncDelivery = .cooperativePool,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Infallible<Element> {
    Infallible(asObservable(priority: priority, on: delivery, file: file, line: line))
  }
}

extension AsyncSequence {
  /// Iterates the sequence in the caller's isolation, sending its events to `sink`.
  func forward(
    to sink: GuardedSink<Element>, isolation: isolated (any Actor)? = #isolation
  ) async {
    do {
      for try await element in self {
        guard sink.isActive else { return }
        sink.on(.next(element))
      }
      sink.on(.completed)
    } catch is CancellationError {
      sink.on(.completed)
    } catch {
      sink.on(.error(error))
    }
  }
}
