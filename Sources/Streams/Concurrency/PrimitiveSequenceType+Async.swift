extension PrimitiveSequenceType where Trait == SingleTrait, Element: Sendable {
  /// Subscribes and waits for the `Single`'s element: RxSwift's `value`.
  ///
  /// ```swift
  /// let user = try await api.fetchUser(id: 42).value
  /// print(user.name)
  /// // Prints "ada"
  /// ```
  ///
  /// Returns the element on success and throws the error on failure. The subscription is made
  /// in the caller's isolation (the getter is `nonisolated(nonsending)`, so a main-actor caller
  /// stays there) and disposed once the result is in. Cancelling the waiting task disposes the
  /// subscription, then throws `CancellationError`: the continuation is always resumed, exactly
  /// once, never under a lock (RxSwift's `value` leaves it waiting forever when the task is
  /// cancelled, its issue #2426). A `Single` that completes without an element throws
  /// `RxError.noElements`; a success is never lost, even when it arrives from another thread
  /// before the task has suspended to wait (the element is kept for it), so a cancellation racing
  /// with a success ends in the element or in `CancellationError`, never in `RxError.noElements`.
  /// In a task that is already cancelled, the `Single` is still subscribed, as in RxSwift: an
  /// answer it gives while being subscribed (`Single.just(1)`) is returned (or thrown), otherwise
  /// the subscription is disposed at once and `CancellationError` is thrown.
  public nonisolated(nonsending) var value: Element {
    get async throws {
      if Task.isCancelled {
        switch synchronousAnswer(primitiveSequence.asObservable()) {
        case .next(let element): return element
        case .error(let error): throw error
        case .completed: throw RxError.noElements
        case nil: throw CancellationError()
        }
      }
      // `.bufferingOldest(1)`, not 0: with no room, a success sent between `subscribe` and the
      // suspension would be dropped and the completion behind it misread as an empty `Single`.
      var iterator = primitiveSequence.asObservable()
        .values(bufferingPolicy: .bufferingOldest(1)).makeAsyncIterator()
      if let element = try await iterator.next(isolation: #isolation) { return element }
      if iterator.wasCancelled { throw CancellationError() }
      throw RxError.noElements
    }
  }

  /// A `Single` that runs `work` in a new task for each subscription: RxSwift 6.6's spelling.
  ///
  /// ```swift
  /// let user = Single.create(detached: true, priority: .userInitiated) {
  ///   try await api.user(id: 42)
  /// }
  /// // --(user|)
  /// ```
  ///
  /// Same as ``task(priority:on:file:line:_:)->Single<Self.Element>`` on the cooperative pool,
  /// except that `detached` starts the task with `Task.detached`, which does not inherit the
  /// subscriber's task-local values and priority.
  public static func create(
    detached: Bool = false, priority: TaskPriority? = nil,
    file: StaticString = #fileID, line: UInt = #line,
    work: @escaping @Sendable () async throws -> Element
  ) -> Single<Element> {
    Single(
      raw: AsyncTaskSource.observable(
        kind: "Single.create(detached:)", detached: detached, priority: priority,
        delivery: .cooperativePool, file: file, line: line
      ) { isolation, sink in
        await runSingle(work, sink, isolation: isolation)
      })
  }

  /// A `Single` that runs `work` in a new task for each subscription.
  ///
  /// ```swift
  /// let user = Single.task { try await api.user(id: 42) }
  /// _ = user.subscribe(onSuccess: { print($0.name) })
  /// // Prints "ada"
  /// ```
  ///
  /// `work`'s result is the success, a thrown error the failure (a `CancellationError` too: a
  /// `Single` cannot end empty). Disposing the subscription cancels the task; nothing is
  /// delivered after disposal. Events are delivered where `delivery` says: on the cooperative
  /// pool (the default) or on the main actor.
  ///
  /// - Parameters:
  ///   - priority: The task's priority; `nil` inherits the subscriber's.
  ///   - delivery: Where the task runs the delivery of the result.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  ///   - work: Runs once per subscription, off the main actor unless it is itself isolated.
  public static func task(
    priority: TaskPriority? = nil, on delivery: AsyncDelivery = .cooperativePool,
    file: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable () async throws -> Element
  ) -> Single<Element> {
    Single(
      raw: AsyncTaskSource.observable(
        kind: "Single.task", priority: priority, delivery: delivery, file: file, line: line
      ) { isolation, sink in
        await runSingle(work, sink, isolation: isolation)
      })
  }
}

/// Runs `work` and sends its result to `sink` as a `Single` does.
private func runSingle<Element: Sendable>(
  _ work: @Sendable () async throws -> Element, _ sink: GuardedSink<Element>,
  isolation: isolated (any Actor)?
) async {
  do {
    let element = try await work()
    sink.on(.next(element))
    sink.on(.completed)
  } catch {
    sink.on(.error(error))
  }
}

extension PrimitiveSequenceType where Trait == MaybeTrait, Element: Sendable {
  /// Subscribes and waits for the `Maybe`'s element, or `nil` when it completes empty: RxSwift's
  /// `value`.
  ///
  /// ```swift
  /// let cached = try await cache.user(id: 42).value
  /// print(cached?.name ?? "none")
  /// // Prints "none"
  /// ```
  ///
  /// Throws the error on failure. Made in the caller's isolation; cancelling the waiting task
  /// disposes the subscription, then throws `CancellationError`, so a cancellation is never
  /// mistaken for an empty `Maybe`. A success is never lost, even when it arrives from another
  /// thread before the task has suspended to wait, so it is never mistaken for an empty `Maybe`
  /// either. In a task that is already cancelled, an answer the `Maybe` gives while being
  /// subscribed is returned (or thrown), as in RxSwift; otherwise `CancellationError` is thrown.
  public nonisolated(nonsending) var value: Element? {
    get async throws {
      if Task.isCancelled {
        switch synchronousAnswer(primitiveSequence.asObservable()) {
        case .next(let element): return element
        case .error(let error): throw error
        case .completed: return nil
        case nil: throw CancellationError()
        }
      }
      // `.bufferingOldest(1)`, not 0: see `Single.value`.
      var iterator = primitiveSequence.asObservable()
        .values(bufferingPolicy: .bufferingOldest(1)).makeAsyncIterator()
      if let element = try await iterator.next(isolation: #isolation) { return element }
      if iterator.wasCancelled { throw CancellationError() }
      return nil
    }
  }

  /// A `Maybe` that runs `work` in a new task for each subscription.
  ///
  /// ```swift
  /// let cached = Maybe.task { await cache.user(id: 42) }  // nil completes empty
  /// // --(user|)  or  --|
  /// ```
  ///
  /// A non-`nil` result succeeds, `nil` completes empty, a `CancellationError` completes empty
  /// and any other error fails. Disposing the subscription cancels the task; nothing is delivered
  /// after disposal. Events are delivered where `delivery` says.
  public static func task(
    priority: TaskPriority? = nil, on delivery: AsyncDelivery = .cooperativePool,
    file: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable () async throws -> Element?
  ) -> Maybe<Element> {
    Maybe(
      raw: AsyncTaskSource.observable(
        kind: "Maybe.task", priority: priority, delivery: delivery, file: file, line: line
      ) { isolation, sink in
        do {
          if let element = try await work() { sink.on(.next(element)) }
          sink.on(.completed)
        } catch is CancellationError {
          sink.on(.completed)
        } catch {
          sink.on(.error(error))
        }
      })
  }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
  /// Subscribes and waits for the `Completable` to complete: RxSwift's `value`.
  ///
  /// ```swift
  /// try await store.save(user).value
  /// print("saved")
  /// // Prints "saved"
  /// ```
  ///
  /// Returns on completion and throws the error on failure. Made in the caller's isolation;
  /// cancelling the waiting task disposes the subscription, then throws `CancellationError`. In a
  /// task that is already cancelled, a completion or error the `Completable` sends while being
  /// subscribed is returned or thrown, as in RxSwift; otherwise `CancellationError` is thrown.
  public nonisolated(nonsending) var value: Void {
    get async throws {
      if Task.isCancelled {
        switch synchronousAnswer(primitiveSequence.asObservable()) {
        case .next, .completed: return
        case .error(let error): throw error
        case nil: throw CancellationError()
        }
      }
      var iterator = primitiveSequence.asObservable().values.makeAsyncIterator()
      while try await iterator.next(isolation: #isolation) != nil {}
      if iterator.wasCancelled { throw CancellationError() }
    }
  }

  /// A `Completable` that runs `work` in a new task for each subscription.
  ///
  /// ```swift
  /// let save = Completable.task { try await store.save(user) }
  /// _ = save.subscribe(onCompleted: { print("saved") })
  /// // Prints "saved"
  /// ```
  ///
  /// Returning completes, a `CancellationError` completes, any other error fails. Disposing the
  /// subscription cancels the task; nothing is delivered after disposal. Events are delivered
  /// where `delivery` says.
  public static func task(
    priority: TaskPriority? = nil, on delivery: AsyncDelivery = .cooperativePool,
    file: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable () async throws -> Void
  ) -> Completable {
    Completable(
      raw: AsyncTaskSource.observable(
        kind: "Completable.task", priority: priority, delivery: delivery, file: file, line: line
      ) { isolation, sink in
        do {
          try await work()
          sink.on(.completed)
        } catch is CancellationError {
          sink.on(.completed)
        } catch {
          sink.on(.error(error))
        }
      })
  }
}

/// The first event `source` sends while it is being subscribed, or `nil`: what a trait's `value`
/// answers in a task that is already cancelled (RxSwift's `value` returns such an answer too).
/// The subscription is disposed before this returns; an event sent later, from another thread,
/// is ignored.
private func synchronousAnswer<Element: Sendable>(_ source: Observable<Element>) -> Event<
  Element
>? {
  let answer = Locked<Event<Element>?>(nil)
  let subscription = source.subscribe(
    AnyObserver { event in
      answer.withLock { first in
        if first == nil { first = event }
      }
    })
  subscription.dispose()
  return answer.withLock { $0.take() }
}
