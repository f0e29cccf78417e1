import Dispatch

extension ObservableConvertibleType where Element: Sendable {
  /// This sequence as a ``Driver`` that emits `onErrorJustReturn` and completes instead of
  /// failing.
  ///
  /// ```swift
  /// let name = api.userName().asDriver(onErrorJustReturn: "")
  /// // source (background): -a-#      name (main thread): -a-(""|)
  /// ```
  ///
  /// Events move to the main thread first; the error is replaced there. Shared: the first
  /// subscriber connects to the source, later ones receive the latest element; when the last
  /// subscriber leaves the source subscription is disposed.
  public func asDriver(
    onErrorJustReturn: Element, file: StaticString = #fileID, line: UInt = #line
  ) -> Driver<Element> {
    sharedSequence(DriverSharingStrategy.self, file: file, line: line) { _ in
      Observable.just(onErrorJustReturn, file: file, line: line)
    }
  }

  /// This sequence as a ``Driver`` that continues with `onErrorDriveWith` instead of failing.
  ///
  /// ```swift
  /// let items = api.items().asDriver(onErrorDriveWith: .just([]))
  /// ```
  ///
  /// Delivery and sharing as in ``asDriver(onErrorJustReturn:file:line:)``.
  public func asDriver(
    onErrorDriveWith: Driver<Element>, file: StaticString = #fileID, line: UInt = #line
  ) -> Driver<Element> {
    sharedSequence(DriverSharingStrategy.self, file: file, line: line) { _ in
      onErrorDriveWith.source
    }
  }

  /// This sequence as a ``Driver`` that continues with the `Driver` `onErrorRecover` returns
  /// for the error.
  ///
  /// ```swift
  /// let state = api.load().asDriver(onErrorRecover: { .just(.failed($0.localizedMessage)) })
  /// ```
  ///
  /// `onErrorRecover` runs on the main thread. Delivery and sharing as in
  /// ``asDriver(onErrorJustReturn:file:line:)``.
  public func asDriver(
    onErrorRecover: @escaping (_ error: any Error) -> Driver<Element>,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Driver<Element> {
    sharedSequence(DriverSharingStrategy.self, file: file, line: line) { error in
      onErrorRecover(error).source
    }
  }
}

extension BehaviorRelay where Element: Sendable {
  /// The relay as a ``Driver``: the current value first, then every accepted value, on the main
  /// thread.
  ///
  /// ```swift
  /// let count = BehaviorRelay(value: 0)
  /// count.asDriver().drive(onNext: { print($0) }).disposed(by: bag)
  /// // Prints "0"
  /// ```
  public func asDriver(file: StaticString = #fileID, line: UInt = #line) -> Driver<Element> {
    Driver(asObservable().observe(on: DriverSharingStrategy.scheduler, file: file, line: line))
  }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
  /// Subscribes main-actor closures to the elements, the completion and the disposal.
  ///
  /// ```swift
  /// viewModel.title.drive(onNext: { [weak self] in self?.title = $0 }).disposed(by: bag)
  /// ```
  ///
  /// `drive` must be called on the main actor, and the closures are `@MainActor`: elements are
  /// delivered on the main thread, so UI code needs no hop of its own (RxSwift cannot say this in
  /// its types; its issue #2586). `onDisposed` runs once, on the main thread: at once if the
  /// subscription is disposed there, otherwise queued on the main queue.
  ///
  /// - Returns: A disposable that ends the subscription.
  @MainActor
  public func drive(
    onNext: (@MainActor (Element) -> Void)? = nil,
    onCompleted: (@MainActor () -> Void)? = nil,
    onDisposed: (@MainActor () -> Void)? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    MainActorSubscription.subscribe(
      asObservable(), onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed,
      kind: "drive", file: file, line: line)
  }

  /// Subscribes main-actor closures that receive `object` (held weakly) along with each event.
  ///
  /// ```swift
  /// viewModel.title.drive(with: self, onNext: { owner, title in owner.title = title })
  /// ```
  ///
  /// Once `object` is gone the closures are no longer called; see
  /// ``drive(onNext:onCompleted:onDisposed:file:line:)``.
  @MainActor
  public func drive<Object: AnyObject>(
    with object: Object,
    onNext: (@MainActor (Object, Element) -> Void)? = nil,
    onCompleted: (@MainActor (Object) -> Void)? = nil,
    onDisposed: (@MainActor (Object) -> Void)? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    let weakObject = WeakReference(object)
    return drive(
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
  /// let subject = PublishSubject<String>()
  /// title.drive(subject).disposed(by: bag)
  /// ```
  @MainActor
  public func drive<Observer: ObserverType>(
    _ observers: Observer..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable
  where Observer.Element == Element {
    asObservable().subscribeEvents(
      kind: "drive", file: file, line: line, isolation: #isolation
    ) { event in
      for observer in observers { observer.on(event) }
    }
  }

  /// Sends every element, as an optional, and the completion to `observers`.
  ///
  /// ```swift
  /// let subject = PublishSubject<String?>()
  /// title.drive(subject).disposed(by: bag)
  /// ```
  @MainActor
  public func drive<Observer: ObserverType>(
    _ observers: Observer..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable
  where Observer.Element == Element? {
    asObservable().subscribeEvents(
      kind: "drive", file: file, line: line, isolation: #isolation
    ) { event in
      let optional = event.map { Optional($0) }
      for observer in observers { observer.on(optional) }
    }
  }

  /// Sends every element to `relays`; completion is ignored, as a relay never ends.
  ///
  /// ```swift
  /// let latest = BehaviorRelay(value: "")
  /// title.drive(latest).disposed(by: bag)
  /// ```
  @MainActor
  public func drive(
    _ relays: BehaviorRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().subscribeElements(
      kind: "drive", file: file, line: line, isolation: #isolation,
      { element in
        for relay in relays { relay.accept(element) }
      })
  }

  /// Sends every element, as an optional, to `relays`; completion is ignored.
  ///
  /// ```swift
  /// let latest = BehaviorRelay<String?>(value: nil)
  /// title.drive(latest).disposed(by: bag)
  /// ```
  @MainActor
  public func drive(
    _ relays: BehaviorRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().subscribeElements(
      kind: "drive", file: file, line: line, isolation: #isolation,
      { element in
        for relay in relays { relay.accept(element) }
      })
  }

  /// Sends every element to `relays`; completion is ignored.
  ///
  /// ```swift
  /// let history = ReplayRelay<String>.create(bufferSize: 10)
  /// title.drive(history).disposed(by: bag)
  /// ```
  @MainActor
  public func drive(
    _ relays: ReplayRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().subscribeElements(
      kind: "drive", file: file, line: line, isolation: #isolation,
      { element in
        for relay in relays { relay.accept(element) }
      })
  }

  /// Sends every element, as an optional, to `relays`; completion is ignored.
  ///
  /// ```swift
  /// let history = ReplayRelay<String?>.create(bufferSize: 10)
  /// title.drive(history).disposed(by: bag)
  /// ```
  @MainActor
  public func drive(
    _ relays: ReplayRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().subscribeElements(
      kind: "drive", file: file, line: line, isolation: #isolation,
      { element in
        for relay in relays { relay.accept(element) }
      })
  }

  /// Passes the underlying observable to `transformation` and returns its result.
  ///
  /// ```swift
  /// let disposable = title.drive { $0.subscribe(onNext: { print($0) }) }
  /// ```
  @MainActor
  public func drive<Result>(_ transformation: (Observable<Element>) -> Result) -> Result {
    transformation(asObservable())
  }
}

/// Subscribes `@MainActor` closures to a sequence that delivers on the main thread.
enum MainActorSubscription {
  /// The element closures are called through `MainActor.assumeIsolated`, which checks the thread;
  /// `onDisposed` runs on the main thread, queued there if the disposing thread is another.
  static func subscribe<Element>(
    _ source: Observable<Element>,
    onNext: (@MainActor (Element) -> Void)?,
    onCompleted: (@MainActor () -> Void)?,
    onDisposed: (@MainActor () -> Void)?,
    kind: StaticString, file: StaticString, line: UInt
  ) -> any Disposable {
    source.subscribeTerminal(
      .closures(
        onNext: { element in
          let element = MainActorBox(element)
          MainActor.assumeIsolated { onNext?(element.value) }
        },
        onError: { error in infallibleFailed(error) },
        onCompleted: {
          MainActor.assumeIsolated { onCompleted?() }
        },
        onDisposed: onDisposed.map { onDisposed in { MainQueueCheck.runOnMainActor(onDisposed) } }),
      kind: kind, file: file, line: line, owner: nil)
  }
}

/// Carries a value into a main-actor closure on the main thread.
///
/// `@unchecked Sendable`: only created and read on the main thread, where the shared sequences
/// deliver.
struct MainActorBox<Value>: @unchecked Sendable {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}

/// A weak reference that can be captured by main-actor closures.
struct WeakReference<Object: AnyObject> {
  weak var value: Object?

  init(_ value: Object) {
    self.value = value
  }
}
