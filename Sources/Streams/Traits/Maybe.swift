/// The trait marker of ``Maybe``: one element, no element, or an error.
public enum MaybeTrait {}

/// A sequence that succeeds with one element, completes empty, or fails: RxSwift's `Maybe`.
///
/// ```swift
/// let cached = Maybe<String>.create { maybe in
///   if let value = cache["key"] { maybe(.success(value)) } else { maybe(.completed) }
///   return Disposables.create()
/// }
/// ```
public typealias Maybe<Element> = PrimitiveSequence<MaybeTrait, Element>

/// What a ``Maybe`` delivers, as in RxSwift 6.
public enum MaybeEvent<Element> {
  /// The one element; the underlying observable emits `.next(element)` then `.completed`.
  case success(Element)
  /// The failure; the underlying observable emits `.error(error)`.
  case error(any Error)
  /// Completion without an element; the underlying observable emits `.completed`.
  case completed
}

extension MaybeEvent: Sendable where Element: Sendable {}

extension MaybeEvent: Equatable where Element: Equatable {
  /// Elements compare with `==`, errors with ``errorsMatch(_:_:)``, as ``Event``'s `==`.
  ///
  /// ```swift
  /// print(MaybeEvent.success(1) == .success(1), MaybeEvent<Int>.completed == .completed)
  /// // Prints "true true"
  /// ```
  public static func == (lhs: MaybeEvent<Element>, rhs: MaybeEvent<Element>) -> Bool {
    switch (lhs, rhs) {
    case (.success(let l), .success(let r)): return l == r
    case (.completed, .completed): return true
    case (.error(let l), .error(let r)): return errorsMatch(l, r)
    default: return false
    }
  }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
  /// The callback a ``Maybe`` created with ``create(file:line:subscribe:)->Maybe<Self.Element>``
  /// reports to.
  ///
  /// `@Sendable` (RxSwift's is not) so that it can be called from a completion handler that runs
  /// on another thread, such as a network callback; the calls must still be serial.
  public typealias MaybeObserver = @Sendable (MaybeEvent<Element>) -> Void

  /// Creates a `Maybe` from a subscribe function that reports one ``MaybeEvent``.
  ///
  /// ```swift
  /// let none = Maybe<Int>.create { maybe in
  ///   maybe(.completed)
  ///   return Disposables.create()
  /// }
  /// // --|
  /// ```
  ///
  /// Only the first call of the observer counts; later calls are ignored and the disposable
  /// `subscribe` returned is disposed right after the first call. Disposal disposes it too.
  public static func create(
    file: StaticString = #fileID, line: UInt = #line,
    subscribe: @escaping (@escaping MaybeObserver) -> any Disposable
  ) -> Maybe<Element> {
    let source = Observable<Element>(kind: "Maybe.create", upstreams: [], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      sink.setUpstream(
        subscribe { event in
          switch event {
          case .success(let element):
            sink.on(.next(element))
            sink.on(.completed)
          case .error(let error): sink.on(.error(error))
          case .completed: sink.on(.completed)
          }
        })
      return sink
    }
    return Maybe(raw: source)
  }

  /// Subscribes a closure that receives the one ``MaybeEvent``.
  ///
  /// ```swift
  /// _ = Maybe<Int>.empty().subscribe { event in print(event) }
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
    _ observer: @escaping (MaybeEvent<Element>) -> Void, isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    let observer = CallerIsolation(isolation, api: "subscribe(_:)", file: file, line: line)
      .guarding(observer)!
    let stopped = Locked(false)
    return primitiveSequence.source.subscribeTerminal(
      .observer(
        AnyObserver { event in
          let first = stopped.withLock { stopped -> Bool in
            defer { stopped = true }
            return !stopped
          }
          guard first else { return }
          switch event {
          case .next(let element): observer(.success(element))
          case .error(let error): observer(.error(error))
          case .completed: observer(.completed)
          }
        }), kind: "subscribe", file: file, line: line)
  }

  /// Subscribes closures to the success, the failure, the empty completion and the disposal.
  ///
  /// ```swift
  /// _ = Maybe.just(1).subscribe(onSuccess: { print($0) }, onCompleted: { print("empty") })
  /// // Prints "1"
  /// ```
  ///
  /// Exactly one of `onSuccess`, `onError`, `onCompleted` runs (a failure with no `onError` goes
  /// to ``Hooks/defaultErrorHandler``); `onDisposed` runs once, after it or when the subscription
  /// is disposed first.
  ///
  /// Closures written in actor-isolated code are checked to run on that actor, as with
  /// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``.
  ///
  /// - Returns: A disposable that ends the subscription.
  public func subscribe(
    onSuccess: ((Element) -> Void)? = nil,
    onError: ((any Error) -> Void)? = nil,
    onCompleted: (() -> Void)? = nil,
    onDisposed: (() -> Void)? = nil,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    let caller = CallerIsolation(isolation, api: "subscribe", file: file, line: line)
    let onSuccess = caller.guarding(onSuccess)
    let onError = caller.guarding(onError)
    let onCompleted = caller.guarding(onCompleted)
    let onDisposed = caller.guarding(onDisposed)
    let disposed = OnceDisposable(onDisposed)
    let report = onError ?? Hooks.unhandledErrorReporter()
    let subscription = subscribe { event in
      switch event {
      case .success(let element): onSuccess?(element)
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
  /// cachedAvatar.subscribe(with: self, onSuccess: { owner, image in owner.avatar = image })
  /// ```
  ///
  /// Once `object` is gone the closures are no longer called.
  ///
  /// Closures written in actor-isolated code are checked to run on that actor, as with
  /// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``.
  public func subscribe<Object: AnyObject>(
    with object: Object,
    onSuccess: ((Object, Element) -> Void)? = nil,
    onError: ((Object, any Error) -> Void)? = nil,
    onCompleted: ((Object) -> Void)? = nil,
    onDisposed: ((Object) -> Void)? = nil,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    let caller = CallerIsolation(isolation, api: "subscribe(with:)", file: file, line: line)
    let onSuccess = caller.guarding(onSuccess)
    let onError = caller.guarding(onError)
    let onCompleted = caller.guarding(onCompleted)
    let onDisposed = caller.guarding(onDisposed)
    return subscribe(
      onSuccess: { [weak object] element in
        guard let object else { return }
        onSuccess?(object, element)
      },
      onError: { [weak object] error in
        guard let object else { return }
        onError?(object, error)
      },
      onCompleted: { [weak object] in
        guard let object else { return }
        onCompleted?(object)
      },
      onDisposed: { [weak object] in
        guard let object else { return }
        onDisposed?(object)
      })
  }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
  /// A `Maybe` that succeeds with `element` at once.
  ///
  /// ```swift
  /// _ = Maybe.just(1).subscribe(onSuccess: { print($0) })
  /// // Prints "1"
  /// ```
  public static func just(
    _ element: Element, file: StaticString = #fileID, line: UInt = #line
  ) -> Maybe<Element> {
    Maybe(raw: Observable.just(element, file: file, line: line))
  }

  /// A `Maybe` that succeeds with `element` from an action on `scheduler`; disposal before the
  /// action runs cancels it.
  ///
  /// ```swift
  /// let later = Maybe.just(1, scheduler: scheduler)  // --(1|) once the scheduler runs
  /// ```
  public static func just(
    _ element: Element, scheduler: any ImmediateSchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Maybe<Element> where Element: Sendable {
    Maybe(
      raw: Observable.just(element, file: file, line: line).subscribe(
        on: scheduler, file: file, line: line))
  }

  /// A `Maybe` that completes empty at once.
  ///
  /// ```swift
  /// _ = Maybe<Int>.empty().subscribe(onCompleted: { print("empty") })
  /// // Prints "empty"
  /// ```
  public static func empty(file: StaticString = #fileID, line: UInt = #line) -> Maybe<Element> {
    Maybe(raw: Observable.empty(file: file, line: line))
  }

  /// A `Maybe` that fails with `error` at once.
  ///
  /// ```swift
  /// _ = Maybe<Int>.error(RxError.unknown).subscribe(onError: { print($0) })
  /// // Prints "Unknown error occurred."
  /// ```
  public static func error(
    _ error: any Error, file: StaticString = #fileID, line: UInt = #line
  ) -> Maybe<Element> {
    Maybe(raw: Observable.error(error, file: file, line: line))
  }

  /// A `Maybe` that never terminates.
  ///
  /// ```swift
  /// let pending = Maybe<Int>.never()  // ------
  /// ```
  public static func never(file: StaticString = #fileID, line: UInt = #line) -> Maybe<Element> {
    Maybe(raw: Observable.never(file: file, line: line))
  }
}
