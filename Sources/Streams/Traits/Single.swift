/// The trait marker of ``Single``: exactly one element, or an error.
public enum SingleTrait {}

/// A sequence that either succeeds with exactly one element or fails: RxSwift's `Single`.
///
/// ```swift
/// let user = Single<String>.create { single in
///   single(.success("ada"))
///   return Disposables.create()
/// }
/// _ = user.subscribe(onSuccess: { print($0) }, onFailure: { print("failed: \($0)") })
/// // Prints "ada"
/// ```
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>

/// What a ``Single`` delivers: `.success(element)` or `.failure(error)`, as in RxSwift 6.
public typealias SingleEvent<Element> = Result<Element, any Error>

extension PrimitiveSequenceType where Trait == SingleTrait {
  /// The callback a ``Single`` created with ``create(file:line:subscribe:)->Single<Self.Element>``
  /// reports to.
  ///
  /// `@Sendable` (RxSwift's is not) so that it can be called from a completion handler that runs
  /// on another thread, such as a network callback; the calls must still be serial.
  public typealias SingleObserver = @Sendable (SingleEvent<Element>) -> Void

  /// Creates a `Single` from a subscribe function that reports one ``SingleEvent``.
  ///
  /// ```swift
  /// let answer = Single<Int>.create { single in
  ///   single(.success(42))
  ///   return Disposables.create()
  /// }
  /// // --(42|)
  /// ```
  ///
  /// Only the first call of the observer counts: `.success(x)` emits `x` and completes,
  /// `.failure(e)` fails; later calls are ignored (as in RxSwift) and the disposable `subscribe`
  /// returned is disposed right after the first call. Disposal disposes it too.
  ///
  /// - Parameters:
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  ///   - subscribe: Runs once per subscription.
  public static func create(
    file: StaticString = #fileID, line: UInt = #line,
    subscribe: @escaping (@escaping SingleObserver) -> any Disposable
  ) -> Single<Element> {
    let source = Observable<Element>(kind: "Single.create", upstreams: [], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      sink.setUpstream(
        subscribe { event in
          switch event {
          case .success(let element):
            sink.on(.next(element))
            sink.on(.completed)
          case .failure(let error):
            sink.on(.error(error))
          }
        })
      return sink
    }
    return Single(raw: source)
  }

  /// Subscribes a closure that receives the one ``SingleEvent``.
  ///
  /// ```swift
  /// _ = Single.just(1).subscribe { result in print(result) }
  /// // Prints "success(1)"
  /// ```
  ///
  /// `observer` runs at most once. A sequence that completes without an element (possible only
  /// through `retry(when:)` with a trigger that completes) is reported as
  /// `.failure(RxError.noElements)`, where RxSwift stops a debug build.
  ///
  /// Closures written in actor-isolated code are checked to run on that actor, as with
  /// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``.
  ///
  /// - Returns: A disposable that ends the subscription.
  public func subscribe(
    _ observer: @escaping (SingleEvent<Element>) -> Void, isolation: (any Actor)? = #isolation,
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
          case .error(let error): observer(.failure(error))
          case .completed: observer(.failure(RxError.noElements))
          }
        }), kind: "subscribe", file: file, line: line)
  }

  /// Subscribes closures to the success, the failure and the disposal.
  ///
  /// ```swift
  /// _ = Single.just(1).subscribe(
  ///   onSuccess: { print($0) }, onFailure: { print($0) }, onDisposed: { print("disposed") })
  /// // Prints "1", "disposed"
  /// ```
  ///
  /// A failure with no `onFailure` goes to ``Hooks/defaultErrorHandler``. `onDisposed` runs once:
  /// after `onSuccess` or `onFailure`, or when the subscription is disposed first.
  ///
  /// Closures written in actor-isolated code are checked to run on that actor, as with
  /// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``.
  ///
  /// - Returns: A disposable that ends the subscription.
  public func subscribe(
    onSuccess: ((Element) -> Void)? = nil,
    onFailure: ((any Error) -> Void)? = nil,
    onDisposed: (() -> Void)? = nil,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    let caller = CallerIsolation(isolation, api: "subscribe", file: file, line: line)
    let onSuccess = caller.guarding(onSuccess)
    let onFailure = caller.guarding(onFailure)
    let onDisposed = caller.guarding(onDisposed)
    let disposed = OnceDisposable(onDisposed)
    let report = onFailure ?? Hooks.unhandledErrorReporter()
    let subscription = subscribe { event in
      switch event {
      case .success(let element): onSuccess?(element)
      case .failure(let error):
        if let report { report(error) } else { Hooks.reportUnhandled(error) }
      }
      disposed.dispose()
    }
    return Disposables.create(subscription, disposed)
  }

  /// RxSwift 5's spelling of ``subscribe(onSuccess:onFailure:onDisposed:isolation:file:line:)``.
  ///
  /// Closures written in actor-isolated code are checked to run on that actor, as with
  /// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``.
  @available(*, deprecated, renamed: "subscribe(onSuccess:onFailure:onDisposed:)")
  public func subscribe(
    onSuccess: ((Element) -> Void)? = nil,
    onError: @escaping (any Error) -> Void,
    onDisposed: (() -> Void)? = nil,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    subscribe(
      onSuccess: onSuccess, onFailure: onError, onDisposed: onDisposed, isolation: isolation,
      file: file, line: line)
  }

  /// Subscribes closures that receive `object` (held weakly) along with the event.
  ///
  /// ```swift
  /// loadTitle().subscribe(with: self, onSuccess: { owner, title in owner.title = title })
  /// ```
  ///
  /// Once `object` is gone the closures are no longer called.
  ///
  /// Closures written in actor-isolated code are checked to run on that actor, as with
  /// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``.
  public func subscribe<Object: AnyObject>(
    with object: Object,
    onSuccess: ((Object, Element) -> Void)? = nil,
    onFailure: ((Object, any Error) -> Void)? = nil,
    onDisposed: ((Object) -> Void)? = nil,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    let caller = CallerIsolation(isolation, api: "subscribe(with:)", file: file, line: line)
    let onSuccess = caller.guarding(onSuccess)
    let onFailure = caller.guarding(onFailure)
    let onDisposed = caller.guarding(onDisposed)
    return subscribe(
      onSuccess: { [weak object] element in
        guard let object else { return }
        onSuccess?(object, element)
      },
      onFailure: { [weak object] error in
        guard let object else { return }
        onFailure?(object, error)
      },
      onDisposed: { [weak object] in
        guard let object else { return }
        onDisposed?(object)
      })
  }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
  /// A `Single` that succeeds with `element` at once.
  ///
  /// ```swift
  /// _ = Single.just(1).subscribe(onSuccess: { print($0) })
  /// // Prints "1"
  /// ```
  public static func just(
    _ element: Element, file: StaticString = #fileID, line: UInt = #line
  ) -> Single<Element> {
    Single(raw: Observable.just(element, file: file, line: line))
  }

  /// A `Single` that succeeds with `element` from an action on `scheduler`.
  ///
  /// ```swift
  /// let later = Single.just(1, scheduler: scheduler)  // --(1|) once the scheduler runs
  /// ```
  ///
  /// Disposal before the action runs cancels it.
  public static func just(
    _ element: Element, scheduler: any ImmediateSchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Single<Element> where Element: Sendable {
    Single(
      raw: Observable.just(element, file: file, line: line).subscribe(
        on: scheduler, file: file, line: line))
  }

  /// A `Single` that fails with `error` at once.
  ///
  /// ```swift
  /// _ = Single<Int>.error(RxError.unknown).subscribe(onFailure: { print($0) })
  /// // Prints "Unknown error occurred."
  /// ```
  public static func error(
    _ error: any Error, file: StaticString = #fileID, line: UInt = #line
  ) -> Single<Element> {
    Single(raw: Observable.error(error, file: file, line: line))
  }

  /// A `Single` that never succeeds nor fails.
  ///
  /// ```swift
  /// let pending = Single<Int>.never()  // ------
  /// ```
  public static func never(file: StaticString = #fileID, line: UInt = #line) -> Single<Element> {
    Single(raw: Observable.never(file: file, line: line))
  }
}
