extension ObservableConvertibleType where Element: Sendable {
  /// This sequence as a ``Signal`` that emits `onErrorJustReturn` and completes instead of
  /// failing.
  ///
  /// ```swift
  /// let saved = api.save().asSignal(onErrorJustReturn: false)
  /// // source (background): -#      saved (main thread): -(false|)
  /// ```
  ///
  /// Events move to the main thread first; the error is replaced there. Shared without replay:
  /// the first subscriber connects to the source, later ones receive only later elements; when
  /// the last subscriber leaves the source subscription is disposed.
  public func asSignal(
    onErrorJustReturn: Element, file: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element> {
    sharedSequence(SignalSharingStrategy.self, file: file, line: line) { _ in
      Observable.just(onErrorJustReturn, file: file, line: line)
    }
  }

  /// This sequence as a ``Signal`` that continues with `onErrorSignalWith` instead of failing.
  ///
  /// ```swift
  /// let messages = socket.messages.asSignal(onErrorSignalWith: .empty())
  /// ```
  ///
  /// Delivery and sharing as in ``asSignal(onErrorJustReturn:file:line:)``.
  public func asSignal(
    onErrorSignalWith: Signal<Element>, file: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element> {
    sharedSequence(SignalSharingStrategy.self, file: file, line: line) { _ in
      onErrorSignalWith.source
    }
  }

  /// This sequence as a ``Signal`` that continues with the `Signal` `onErrorRecover` returns
  /// for the error.
  ///
  /// ```swift
  /// let alerts = api.events().asSignal(onErrorRecover: { .just(.failure($0)) })
  /// ```
  ///
  /// `onErrorRecover` runs on the main thread. Delivery and sharing as in
  /// ``asSignal(onErrorJustReturn:file:line:)``.
  public func asSignal(
    onErrorRecover: @escaping (_ error: any Error) -> Signal<Element>,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element> {
    sharedSequence(SignalSharingStrategy.self, file: file, line: line) { error in
      onErrorRecover(error).source
    }
  }
}

extension PublishRelay where Element: Sendable {
  /// The relay as a ``Signal``: every accepted element, on the main thread.
  ///
  /// ```swift
  /// let taps = PublishRelay<Void>()
  /// taps.asSignal().emit(onNext: { print("tap") }).disposed(by: bag)
  /// ```
  public func asSignal(file: StaticString = #fileID, line: UInt = #line) -> Signal<Element> {
    Signal(asObservable().observe(on: SignalSharingStrategy.scheduler, file: file, line: line))
  }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
  /// Subscribes main-actor closures to the elements, the completion and the disposal.
  ///
  /// ```swift
  /// viewModel.showAlert.emit(onNext: { [weak self] in self?.present($0) }).disposed(by: bag)
  /// ```
  ///
  /// `emit` must be called on the main actor, and the closures are `@MainActor`: elements are
  /// delivered on the main thread. `onDisposed` runs once, on the main thread: at once if the
  /// subscription is disposed there, otherwise queued on the main queue.
  ///
  /// - Returns: A disposable that ends the subscription.
  @MainActor
  public func emit(
    onNext: (@MainActor (Element) -> Void)? = nil,
    onCompleted: (@MainActor () -> Void)? = nil,
    onDisposed: (@MainActor () -> Void)? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    MainActorSubscription.subscribe(
      asObservable(), onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed,
      kind: "emit", file: file, line: line)
  }

  /// Subscribes main-actor closures that receive `object` (held weakly) along with each event.
  ///
  /// ```swift
  /// viewModel.showAlert.emit(with: self, onNext: { owner, alert in owner.present(alert) })
  /// ```
  ///
  /// Once `object` is gone the closures are no longer called.
  @MainActor
  public func emit<Object: AnyObject>(
    with object: Object,
    onNext: (@MainActor (Object, Element) -> Void)? = nil,
    onCompleted: (@MainActor (Object) -> Void)? = nil,
    onDisposed: (@MainActor (Object) -> Void)? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    let weakObject = WeakReference(object)
    return emit(
      onNext: { element in
        guard let object = weakObject.value else { return }
        onNext?(object, element)
      },
      onCompleted: {
        guard let object = weakObject.value else { return }
        onCompleted?(object)
      },
      onDisposed: {
        guard let object = weakObject.value else { return }
        onDisposed?(object)
      }, file: file, line: line)
  }

  /// Sends every element and the completion to `observers`, on the main thread.
  ///
  /// ```swift
  /// let subject = PublishSubject<Void>()
  /// taps.emit(to: subject).disposed(by: bag)
  /// ```
  @MainActor
  public func emit<Observer: ObserverType>(
    to observers: Observer..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable
  where Observer.Element == Element {
    asObservable().subscribeEvents(
      kind: "emit(to:)", file: file, line: line, isolation: #isolation
    ) { event in
      for observer in observers { observer.on(event) }
    }
  }

  /// Sends every element, as an optional, and the completion to `observers`.
  ///
  /// ```swift
  /// let subject = PublishSubject<Int?>()
  /// values.emit(to: subject).disposed(by: bag)
  /// ```
  @MainActor
  public func emit<Observer: ObserverType>(
    to observers: Observer..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable
  where Observer.Element == Element? {
    asObservable().subscribeEvents(
      kind: "emit(to:)", file: file, line: line, isolation: #isolation
    ) { event in
      let optional = event.map { Optional($0) }
      for observer in observers { observer.on(optional) }
    }
  }

  /// Sends every element to `relays`; completion is ignored, as a relay never ends.
  ///
  /// ```swift
  /// let forwarded = PublishRelay<Void>()
  /// taps.emit(to: forwarded).disposed(by: bag)
  /// ```
  @MainActor
  public func emit(
    to relays: PublishRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().subscribeElements(
      kind: "emit(to:)", file: file, line: line, isolation: #isolation,
      { element in
        for relay in relays { relay.accept(element) }
      })
  }

  /// Sends every element, as an optional, to `relays`; completion is ignored.
  ///
  /// ```swift
  /// let forwarded = PublishRelay<Int?>()
  /// values.emit(to: forwarded).disposed(by: bag)
  /// ```
  @MainActor
  public func emit(
    to relays: PublishRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().subscribeElements(
      kind: "emit(to:)", file: file, line: line, isolation: #isolation,
      { element in
        for relay in relays { relay.accept(element) }
      })
  }

  /// Sends every element to `relays`; completion is ignored.
  ///
  /// ```swift
  /// let last = BehaviorRelay(value: 0)
  /// values.emit(to: last).disposed(by: bag)
  /// ```
  @MainActor
  public func emit(
    to relays: BehaviorRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().subscribeElements(
      kind: "emit(to:)", file: file, line: line, isolation: #isolation,
      { element in
        for relay in relays { relay.accept(element) }
      })
  }

  /// Sends every element, as an optional, to `relays`; completion is ignored.
  ///
  /// ```swift
  /// let last = BehaviorRelay<Int?>(value: nil)
  /// values.emit(to: last).disposed(by: bag)
  /// ```
  @MainActor
  public func emit(
    to relays: BehaviorRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().subscribeElements(
      kind: "emit(to:)", file: file, line: line, isolation: #isolation,
      { element in
        for relay in relays { relay.accept(element) }
      })
  }

  /// Sends every element to `relays`; completion is ignored.
  ///
  /// ```swift
  /// let history = ReplayRelay<Int>.create(bufferSize: 5)
  /// values.emit(to: history).disposed(by: bag)
  /// ```
  @MainActor
  public func emit(
    to relays: ReplayRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().subscribeElements(
      kind: "emit(to:)", file: file, line: line, isolation: #isolation,
      { element in
        for relay in relays { relay.accept(element) }
      })
  }

  /// Sends every element, as an optional, to `relays`; completion is ignored.
  ///
  /// ```swift
  /// let history = ReplayRelay<Int?>.create(bufferSize: 5)
  /// values.emit(to: history).disposed(by: bag)
  /// ```
  @MainActor
  public func emit(
    to relays: ReplayRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().subscribeElements(
      kind: "emit(to:)", file: file, line: line, isolation: #isolation,
      { element in
        for relay in relays { relay.accept(element) }
      })
  }
}
