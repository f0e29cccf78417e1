/// The trait marker of ``Completable``: no element, only completion or an error.
public enum CompletableTrait {}

/// A sequence that only completes or fails: RxSwift's `Completable`.
///
/// ```swift
/// let saved = Completable.create { completable in
///   completable(.completed)
///   return Disposables.create()
/// }
/// _ = saved.subscribe(onCompleted: { print("saved") })
/// // Prints "saved"
/// ```
public typealias Completable = PrimitiveSequence<CompletableTrait, Never>

/// What a ``Completable`` delivers, as in RxSwift 6.
public enum CompletableEvent: Sendable {
  /// The failure; the underlying observable emits `.error(error)`.
  case error(any Error)
  /// Completion; the underlying observable emits `.completed`.
  case completed
}

extension CompletableEvent: Equatable {
  /// Errors compare with ``errorsMatch(_:_:)``, as in ``Event``'s `==`.
  ///
  /// ```swift
  /// print(CompletableEvent.completed == .completed)
  /// // Prints "true"
  /// ```
  public static func == (lhs: CompletableEvent, rhs: CompletableEvent) -> Bool {
    switch (lhs, rhs) {
    case (.completed, .completed): return true
    case (.error(let l), .error(let r)): return errorsMatch(l, r)
    default: return false
    }
  }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
  /// The callback a ``Completable`` created with ``create(file:line:subscribe:)->Completable``
  /// reports to.
  ///
  /// `@Sendable` (RxSwift's is not) so that it can be called from a completion handler that runs
  /// on another thread, such as a network callback; the calls must still be serial.
  public typealias CompletableObserver = @Sendable (CompletableEvent) -> Void

  /// Creates a `Completable` from a subscribe function that reports one ``CompletableEvent``.
  ///
  /// ```swift
  /// let done = Completable.create { completable in
  ///   completable(.completed)
  ///   return Disposables.create()
  /// }
  /// // --|
  /// ```
  ///
  /// Only the first call of the observer counts; later calls are ignored and the disposable
  /// `subscribe` returned is disposed right after the first call. Disposal disposes it too.
  public static func create(
    file: StaticString = #fileID, line: UInt = #line,
    subscribe: @escaping (@escaping CompletableObserver) -> any Disposable
  ) -> Completable {
    let source = Observable<Never>(
      kind: "Completable.create", upstreams: [], file: file, line: line
    ) { observer in
      let sink = GuardedSink(observer)
      sink.setUpstream(
        subscribe { event in
          switch event {
          case .error(let error): sink.on(.error(error))
          case .completed: sink.on(.completed)
          }
        })
      return sink
    }
    return Completable(raw: source)
  }

  /// Subscribes a closure that receives the one ``CompletableEvent``.
  ///
  /// ```swift
  /// _ = Completable.empty().subscribe { event in print(event) }
  /// // Prints "completed"
  /// ```
  ///
  /// `observer` runs at most once.
  ///
  /// Closures written in actor-isolated code are checked to run on that actor, as with
  /// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``.
  ///
  /// - Returns: A disposable that ends the subscription.
  public func subscribe(
    _ observer: @escaping (CompletableEvent) -> Void, isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    let observer = CallerIsolation(isolation, api: "subscribe(_:)", file: file, line: line)
      .guarding(observer)!
    return primitiveSequence.source.subscribeTerminal(
      .observer(
        AnyObserver { event in
          switch event {
          case .error(let error): observer(.error(error))
          case .completed: observer(.completed)
          }
        }), kind: "subscribe", file: file, line: line)
  }

  /// Subscribes closures to the completion, the failure and the disposal.
  ///
  /// ```swift
  /// _ = Completable.empty().subscribe(onCompleted: { print("done") }, onDisposed: { print("bye") })
  /// // Prints "done", "bye"
  /// ```
  ///
  /// A failure with no `onError` goes to ``Hooks/defaultErrorHandler``. `onDisposed` runs once,
  /// after `onCompleted`/`onError` or when the subscription is disposed first.
  ///
  /// Closures written in actor-isolated code are checked to run on that actor, as with
  /// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``.
  ///
  /// - Returns: A disposable that ends the subscription.
  public func subscribe(
    onCompleted: (() -> Void)? = nil,
    onError: ((any Error) -> Void)? = nil,
    onDisposed: (() -> Void)? = nil,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    let caller = CallerIsolation(isolation, api: "subscribe", file: file, line: line)
    let onCompleted = caller.guarding(onCompleted)
    let onError = caller.guarding(onError)
    let onDisposed = caller.guarding(onDisposed)
    let disposed = OnceDisposable(onDisposed)
    let report = onError ?? Hooks.unhandledErrorReporter()
    let subscription = subscribe { event in
      switch event {
      case .error(let error):
        if let report { report(error) } else { Hooks.reportUnhandled(error) }
      case .completed: onCompleted?()
      }
      disposed.dispose()
    }
    return Disposables.create(subscription, disposed)
  }

  /// Subscribes closures that receive `object` (held weakly) along with the event.
  ///
  /// ```swift
  /// save().subscribe(with: self, onCompleted: { owner in owner.dismiss() })
  /// ```
  ///
  /// Once `object` is gone the closures are no longer called.
  ///
  /// Closures written in actor-isolated code are checked to run on that actor, as with
  /// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``.
  public func subscribe<Object: AnyObject>(
    with object: Object,
    onCompleted: ((Object) -> Void)? = nil,
    onError: ((Object, any Error) -> Void)? = nil,
    onDisposed: ((Object) -> Void)? = nil,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    let caller = CallerIsolation(isolation, api: "subscribe(with:)", file: file, line: line)
    let onCompleted = caller.guarding(onCompleted)
    let onError = caller.guarding(onError)
    let onDisposed = caller.guarding(onDisposed)
    return subscribe(
      onCompleted: { [weak object] in
        guard let object else { return }
        onCompleted?(object)
      },
      onError: { [weak object] error in
        guard let object else { return }
        onError?(object, error)
      },
      onDisposed: { [weak object] in
        guard let object else { return }
        onDisposed?(object)
      })
  }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
  /// A `Completable` that completes at once.
  ///
  /// ```swift
  /// _ = Completable.empty().subscribe(onCompleted: { print("done") })
  /// // Prints "done"
  /// ```
  public static func empty(file: StaticString = #fileID, line: UInt = #line) -> Completable {
    Completable(raw: Observable.empty(file: file, line: line))
  }

  /// A `Completable` that fails with `error` at once.
  ///
  /// ```swift
  /// _ = Completable.error(RxError.unknown).subscribe(onError: { print($0) })
  /// // Prints "Unknown error occurred."
  /// ```
  public static func error(
    _ error: any Error, file: StaticString = #fileID, line: UInt = #line
  ) -> Completable {
    Completable(raw: Observable.error(error, file: file, line: line))
  }

  /// A `Completable` that never terminates.
  ///
  /// ```swift
  /// let pending = Completable.never()  // ------
  /// ```
  public static func never(file: StaticString = #fileID, line: UInt = #line) -> Completable {
    Completable(raw: Observable.never(file: file, line: line))
  }

  /// Runs side effects around the events, subscription and disposal.
  ///
  /// ```swift
  /// _ = Completable.empty().do(onCompleted: { print("done") }).subscribe()
  /// // Prints "done"
  /// ```
  ///
  /// `onError`/`onCompleted` run before the event is forwarded, `afterError`/`afterCompleted`
  /// after it; a throw from `onError` or `onCompleted` fails the result instead (a throw from an
  /// `after...` closure is dropped). `onSubscribe` runs before the source is subscribed,
  /// `onSubscribed` after; `onDispose` runs once when the subscription ends for any reason.
  public func `do`(
    onError: ((any Error) throws -> Void)? = nil,
    afterError: ((any Error) throws -> Void)? = nil,
    onCompleted: (() throws -> Void)? = nil,
    afterCompleted: (() throws -> Void)? = nil,
    onSubscribe: (() -> Void)? = nil,
    onSubscribed: (() -> Void)? = nil,
    onDispose: (() -> Void)? = nil,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Completable {
    Completable(
      raw: primitiveSequence.source.do(
        onError: onError, afterError: afterError, onCompleted: onCompleted,
        afterCompleted: afterCompleted, onSubscribe: onSubscribe, onSubscribed: onSubscribed,
        onDispose: onDispose, isolation: isolation, file: file, line: line))
  }

  /// Runs `second` after this `Completable` completes.
  ///
  /// ```swift
  /// let both = Completable.empty().concat(Completable.empty())  // (|)
  /// ```
  ///
  /// Same as ``andThen(_:file:line:)->Completable``.
  public func concat(
    _ second: Completable, file: StaticString = #fileID, line: UInt = #line
  ) -> Completable {
    andThen(second, file: file, line: line)
  }
}
