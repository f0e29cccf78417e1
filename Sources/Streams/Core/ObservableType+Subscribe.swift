extension ObservableType {
  /// Subscribes closures to the sequence's events.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2).subscribe(
  ///   onNext: { print($0) }, onCompleted: { print("done") }, onDisposed: { print("disposed") })
  /// // Prints "1", "2", "done", "disposed"
  /// ```
  ///
  /// An error with no `onError` goes to ``Hooks/defaultErrorHandler``. The closures run on the
  /// thread that delivers the event. After a terminal event or disposal no closure but
  /// `onDisposed` runs, and `onDisposed` runs once.
  ///
  /// Once the subscription ends, by disposal or by a terminal event, the closures are released:
  /// the returned disposable does not keep them (or what they capture) alive, as in RxSwift.
  ///
  /// Closures written in actor-isolated code (a `@MainActor` view controller, an actor's
  /// method) are isolated to that actor in Swift 6, and Streams checks that it calls them there: a
  /// sequence that delivers on another thread stops the program with a message naming this call,
  /// where it would otherwise be a data race. Deliver on the actor first (`observe(on:
  /// MainScheduler.instance)`, a ``Driver``, `bind(to:)` a state cell), or pass `isolation: nil`
  /// when the closures touch nothing isolated to it. Subscriptions made in nonisolated code are not
  /// checked and cost nothing more.
  ///
  /// - Returns: A disposable that ends the subscription.
  @inlinable
  public func subscribe(
    onNext: ((Element) -> Void)? = nil,
    onError: ((any Error) -> Void)? = nil,
    onCompleted: (() -> Void)? = nil,
    onDisposed: (() -> Void)? = nil,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    guard isolation != nil else {
      return asObservable().subscribeTerminal(
        .closures(
          onNext: onNext, onError: onError ?? Hooks.unhandledErrorReporter(),
          onCompleted: onCompleted, onDisposed: onDisposed),
        kind: "subscribe", file: file, line: line, owner: nil)
    }
    let caller = CallerIsolation(isolation, api: "subscribe", file: file, line: line)
    return asObservable().subscribeTerminal(
      .closures(
        onNext: caller.guarding(onNext),
        onError: caller.guarding(onError) ?? Hooks.unhandledErrorReporter(),
        onCompleted: caller.guarding(onCompleted), onDisposed: caller.guarding(onDisposed)),
      kind: "subscribe", file: file, line: line, owner: nil)
  }

  /// Subscribes closures that receive `object` (held weakly) along with each event.
  ///
  /// ```swift
  /// viewModel.title.subscribe(with: self, onNext: { owner, title in owner.title = title })
  /// ```
  ///
  /// Once `object` is gone the closures are no longer called. Once the subscription ends the
  /// closures are released.
  ///
  /// Closures written in actor-isolated code are checked to run on that actor, as with
  /// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``.
  @inlinable
  public func subscribe<Object: AnyObject>(
    with object: Object,
    onNext: ((Object, Element) -> Void)? = nil,
    onError: ((Object, any Error) -> Void)? = nil,
    onCompleted: ((Object) -> Void)? = nil,
    onDisposed: ((Object) -> Void)? = nil,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    let caller = CallerIsolation(isolation, api: "subscribe(with:)", file: file, line: line)
    let onNext = caller.guarding(onNext)
    let onError = caller.guarding(onError)
    let onCompleted = caller.guarding(onCompleted)
    return asObservable().subscribeTerminal(
      .closures(
        onNext: { [weak object] element in
          guard let object else { return }
          onNext?(object, element)
        },
        onError: { [weak object] error in
          guard let object else { return }
          onError?(object, error)
        },
        onCompleted: { [weak object] in
          guard let object else { return }
          onCompleted?(object)
        },
        onDisposed: caller.guarding(onDisposed).map { onDisposed in
          { [weak object] in
            guard let object else { return }
            onDisposed(object)
          }
        }), kind: "subscribe(with:)", file: file, line: line, owner: object)
  }

  /// Subscribes a closure to every event.
  ///
  /// ```swift
  /// _ = Observable.just(1).subscribe { event in print(event) }
  /// // Prints "next(1)", "completed"
  /// ```
  ///
  /// Once the subscription ends, by disposal or by a terminal event, `on` is released.
  ///
  /// Closures written in actor-isolated code are checked to run on that actor, as with
  /// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``.
  @inlinable
  public func subscribe(
    _ on: @escaping (Event<Element>) -> Void, isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    let on = CallerIsolation(isolation, api: "subscribe(_:)", file: file, line: line)
      .guarding(on)!
    return asObservable().subscribeTerminal(
      .observer(AnyObserver(eventHandler: on)), kind: "subscribe", file: file, line: line)
  }

  /// A terminal subscriber of events made at `file`:`line` (`bind(to:)`, `drive`, `emit(to:)`):
  /// `on` is released when the subscription ends. Called from actor-isolated code (`drive` and
  /// `emit` are main-actor), `on` is checked to run on that actor, as subscribe closures are.
  @inlinable
  func subscribeEvents(
    kind: StaticString, file: StaticString, line: UInt, isolation: (any Actor)? = nil,
    _ on: @escaping (Event<Element>) -> Void
  ) -> any Disposable {
    let on = CallerIsolation(isolation, api: kind, file: file, line: line).guarding(on)!
    return asObservable().subscribeTerminal(
      .observer(AnyObserver(eventHandler: on)), kind: kind, file: file, line: line)
  }

  /// A terminal subscriber of elements made at `file`:`line` (`bind(to:)` a relay, `drive` a
  /// relay): an error goes to ``Hooks/defaultErrorHandler``, as with `subscribe(onNext:)`; from
  /// actor-isolated code, `onNext` is checked to run on that actor.
  @inlinable
  func subscribeElements(
    kind: StaticString, file: StaticString, line: UInt, isolation: (any Actor)? = nil,
    _ onNext: @escaping (Element) -> Void
  ) -> any Disposable {
    asObservable().subscribeTerminal(
      .closures(
        onNext: CallerIsolation(isolation, api: kind, file: file, line: line).guarding(onNext),
        onError: Hooks.unhandledErrorReporter(), onCompleted: nil, onDisposed: nil),
      kind: kind, file: file, line: line, owner: nil)
  }
}

extension ObservableType {
  /// Sends every event to `observers`.
  ///
  /// ```swift
  /// let subject = PublishSubject<Int>()
  /// _ = Observable.just(1).bind(to: subject)
  /// ```
  @inlinable
  public func bind<Observer: ObserverType>(
    to observers: Observer..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable
  where Observer.Element == Element {
    subscribeEvents(kind: "bind(to:)", file: file, line: line) { event in
      for observer in observers { observer.on(event) }
    }
  }

  /// Sends every event, as an optional element, to `observers`.
  @inlinable
  public func bind<Observer: ObserverType>(
    to observers: Observer..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable
  where Observer.Element == Element? {
    map({ Optional($0) }, file: file, line: line)
      .subscribeEvents(kind: "bind(to:)", file: file, line: line) { event in
        for observer in observers { observer.on(event) }
      }
  }

  /// Passes the observable to `binder` and returns its result.
  @inlinable
  public func bind<Result>(to binder: (Self) -> Result) -> Result {
    binder(self)
  }

  /// Passes the observable to `binder`, then `curriedArgument` to the function it returns, and
  /// returns that result, as RxCocoa's `bind(to:curriedArgument:)`.
  ///
  /// ```swift
  /// func show(_ titles: Observable<String>) -> (String) -> any Disposable {
  ///   { prefix in titles.subscribe(onNext: { print(prefix + $0) }) }
  /// }
  /// _ = Observable.just("a").bind(to: show, curriedArgument: "> ")
  /// // Prints "> a"
  /// ```
  @inlinable
  public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
    binder(self)(curriedArgument)
  }

  /// Subscribes `onNext`, which receives `object` (held weakly) along with each element, as
  /// RxCocoa's `bind(with:onNext:)`.
  ///
  /// ```swift
  /// viewModel.title.bind(with: self) { owner, title in owner.title = title }
  ///   .disposed(by: bag)
  /// ```
  ///
  /// Once `object` is gone `onNext` is no longer called. Completion ends the binding; an error
  /// stops the program with a message naming the misuse and the binding's call site (RxSwift
  /// stops debug builds only). Once the subscription ends `onNext` is released.
  ///
  /// Closures written in actor-isolated code are checked to run on that actor, as with
  /// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``.
  @inlinable
  public func bind<Object: AnyObject>(
    with object: Object, onNext: @escaping (Object, Element) -> Void,
    isolation: (any Actor)? = #isolation, file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    let onNext = CallerIsolation(isolation, api: "bind(with:)", file: file, line: line)
      .guarding(onNext)!
    return asObservable().subscribeTerminal(
      .closures(
        onNext: { [weak object] element in
          guard let object else { return }
          onNext(object, element)
        },
        onError: { error in
          bindingError(error, boundAt: file, line: line)
        }, onCompleted: nil, onDisposed: nil), kind: "bind(with:)", file: file, line: line,
      owner: object)
  }

  /// Subscribes `onNext`; in RxSwift an error reaching a binding is a programming error.
  ///
  /// An error stops the program with a message naming the misuse, as RxSwift's `bind` does in
  /// debug builds.
  ///
  /// Closures written in actor-isolated code are checked to run on that actor, as with
  /// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``.
  @inlinable
  public func bind(
    onNext: @escaping (Element) -> Void, isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().subscribeTerminal(
      .closures(
        onNext: CallerIsolation(isolation, api: "bind(onNext:)", file: file, line: line)
          .guarding(onNext),
        onError: { error in
          bindingError(error, boundAt: file, line: line)
        }, onCompleted: nil, onDisposed: nil), kind: "bind", file: file, line: line, owner: nil)
  }
}

/// Stops the program for an error that reached a binding.
@usableFromInline
func bindingError(_ error: any Error) -> Never {
  streamsStop(bindingErrorMessage(error))
}

/// Stops the program for an error that reached the binding made at `file`:`line`, and reports
/// it there.
@usableFromInline
func bindingError(_ error: any Error, boundAt file: StaticString, line: UInt) -> Never {
  streamsStop(
    bindingErrorMessage(error) + " The binding was made at \(file):\(line).", file: file,
    line: line)
}

private func bindingErrorMessage(_ error: any Error) -> String {
  "Streams: binding error: \(error). Binding sequences (bind(to:), drive, emit) must not "
    + "fail; handle errors before binding (catchAndReturn, asDriver(onErrorJustReturn:), "
    + "Infallible)."
}
