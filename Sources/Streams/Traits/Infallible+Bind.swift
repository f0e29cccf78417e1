extension InfallibleType {
  /// Sends every element and the completion to `observers`.
  ///
  /// ```swift
  /// let subject = PublishSubject<Int>()
  /// _ = Infallible.just(1).bind(to: subject)
  /// ```
  ///
  /// Disposal ends the binding.
  public func bind<Observer: ObserverType>(
    to observers: Observer..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable
  where Observer.Element == Element {
    asObservable().subscribeEvents(kind: "bind(to:)", file: file, line: line) { event in
      for observer in observers { observer.on(event) }
    }
  }

  /// Sends every element, as an optional, and the completion to `observers`.
  ///
  /// ```swift
  /// let subject = PublishSubject<Int?>()
  /// _ = Infallible.just(1).bind(to: subject)
  /// ```
  public func bind<Observer: ObserverType>(
    to observers: Observer..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable
  where Observer.Element == Element? {
    asObservable().subscribeEvents(kind: "bind(to:)", file: file, line: line) { event in
      let optional = event.map { Optional($0) }
      for observer in observers { observer.on(optional) }
    }
  }

  /// Passes `self` to `binder` and returns its result.
  ///
  /// ```swift
  /// let disposable = titles.bind(to: { $0.subscribe(onNext: { print($0) }) })
  /// ```
  public func bind<Result>(to binder: (Self) -> Result) -> Result {
    binder(self)
  }

  /// Passes `self` to `binder`, then `curriedArgument` to the function it returns, and returns
  /// that result.
  ///
  /// ```swift
  /// func show(_ titles: Infallible<String>) -> (String) -> any Disposable {
  ///   { prefix in titles.subscribe(onNext: { print(prefix + $0) }) }
  /// }
  /// _ = Infallible.just("a").bind(to: show, curriedArgument: "> ")
  /// // Prints "> a"
  /// ```
  public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
    binder(self)(curriedArgument)
  }

  /// Subscribes `onNext`, which receives `object` (held weakly) along with each element.
  ///
  /// ```swift
  /// titles.bind(with: self) { owner, title in owner.title = title }.disposed(by: bag)
  /// ```
  ///
  /// Once `object` is gone `onNext` is no longer called; once the subscription ends it is
  /// released.
  ///
  /// Closures written in actor-isolated code are checked to run on that actor, as with
  /// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``.
  public func bind<Object: AnyObject>(
    with object: Object, onNext: @escaping (Object, Element) -> Void,
    isolation: (any Actor)? = #isolation, file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    subscribe(with: object, onNext: onNext, isolation: isolation, file: file, line: line)
  }

  /// Subscribes `onNext` to the elements.
  ///
  /// ```swift
  /// _ = Infallible.of(1, 2).bind(onNext: { print($0) })
  /// // Prints "1", "2"
  /// ```
  ///
  /// Closures written in actor-isolated code are checked to run on that actor, as with
  /// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``.
  public func bind(
    onNext: @escaping (Element) -> Void, isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    subscribe(onNext: onNext, isolation: isolation, file: file, line: line)
  }

  /// Forwards every element to `relays`; completion is ignored, as a relay never ends.
  ///
  /// ```swift
  /// let relay = PublishRelay<Int>()
  /// _ = Infallible.just(1).bind(to: relay)
  /// ```
  public func bind(
    to relays: PublishRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().subscribeElements(kind: "bind(to:)", file: file, line: line) { element in
      for relay in relays { relay.accept(element) }
    }
  }

  /// Forwards every element to `relays`; completion is ignored.
  ///
  /// ```swift
  /// let relay = BehaviorRelay(value: 0)
  /// _ = Infallible.just(1).bind(to: relay)
  /// ```
  public func bind(
    to relays: BehaviorRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().subscribeElements(kind: "bind(to:)", file: file, line: line) { element in
      for relay in relays { relay.accept(element) }
    }
  }

  /// Forwards every element to `relays`; completion is ignored.
  ///
  /// ```swift
  /// let relay = ReplayRelay<Int>.create(bufferSize: 1)
  /// _ = Infallible.just(1).bind(to: relay)
  /// ```
  public func bind(
    to relays: ReplayRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().subscribeElements(kind: "bind(to:)", file: file, line: line) { element in
      for relay in relays { relay.accept(element) }
    }
  }

  /// Forwards every element, as an optional, to `relays`; completion is ignored.
  ///
  /// ```swift
  /// let relay = PublishRelay<Int?>()
  /// _ = Infallible.just(1).bind(to: relay)
  /// ```
  public func bind(
    to relays: PublishRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().subscribeElements(kind: "bind(to:)", file: file, line: line) { element in
      for relay in relays { relay.accept(element) }
    }
  }

  /// Forwards every element, as an optional, to `relays`; completion is ignored.
  ///
  /// ```swift
  /// let relay = BehaviorRelay<Int?>(value: nil)
  /// _ = Infallible.just(1).bind(to: relay)
  /// ```
  public func bind(
    to relays: BehaviorRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().subscribeElements(kind: "bind(to:)", file: file, line: line) { element in
      for relay in relays { relay.accept(element) }
    }
  }

  /// Forwards every element, as an optional, to `relays`; completion is ignored.
  ///
  /// ```swift
  /// let relay = ReplayRelay<Int?>.create(bufferSize: 1)
  /// _ = Infallible.just(1).bind(to: relay)
  /// ```
  public func bind(
    to relays: ReplayRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().subscribeElements(kind: "bind(to:)", file: file, line: line) { element in
      for relay in relays { relay.accept(element) }
    }
  }
}
