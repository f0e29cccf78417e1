/// A type that is, or can be viewed as, an ``Infallible``: a sequence that never fails.
public protocol InfallibleType: ObservableConvertibleType {}

/// A sequence that never fails: it emits elements and may complete. RxSwift's `Infallible`.
///
/// ```swift
/// let names = Observable<String>.create { o in o.onNext("ada"); o.onError(RxError.unknown); return Disposables.create() }
///   .asInfallible(onErrorJustReturn: "unknown")
/// _ = names.subscribe(onNext: { print($0) })
/// // Prints "ada", "unknown"
/// ```
///
/// An `Infallible` is built either with ``create(file:line:subscribe:)``, whose observer cannot
/// send an error, or from another sequence with one of the `asInfallible(onError...)`
/// conversions, which say what replaces an error. Like `Observable`, it is a recipe: each
/// subscription runs it again.
public struct Infallible<Element>: InfallibleType {
  let source: Observable<Element>

  init(_ source: Observable<Element>) {
    self.source = source
  }

  /// The underlying observable; it never sends `.error`.
  ///
  /// ```swift
  /// let observable: Observable<Int> = Infallible.just(1).asObservable()
  /// ```
  public func asObservable() -> Observable<Element> { source }
}

/// What the observer of ``Infallible/create(file:line:subscribe:)`` accepts: an element or
/// completion, never an error.
public enum InfallibleEvent<Element> {
  /// The next element.
  case next(Element)
  /// The sequence finished; nothing follows.
  case completed
}

extension InfallibleEvent: Sendable where Element: Sendable {}

extension Infallible {
  /// Creates an `Infallible` from a subscribe function whose observer takes elements and
  /// completion.
  ///
  /// ```swift
  /// let ticks = Infallible<Int>.create { observer in
  ///   observer(.next(1))
  ///   observer(.completed)
  ///   return Disposables.create()
  /// }
  /// // -1|
  /// ```
  ///
  /// The observer ignores everything after `.completed` or after disposal; `.completed` disposes
  /// the disposable `subscribe` returned. The observer is `@Sendable` so that a callback on another
  /// thread can call it; the calls must still be serial.
  public static func create(
    file: StaticString = #fileID, line: UInt = #line,
    subscribe:
      @escaping (_ observer: @escaping @Sendable (InfallibleEvent<Element>) -> Void) ->
      any Disposable
  ) -> Infallible<Element> {
    let source = Observable<Element>(
      kind: "Infallible.create", upstreams: [], file: file, line: line
    ) { observer in
      let sink = GuardedSink(observer)
      sink.setUpstream(
        subscribe { event in
          switch event {
          case .next(let element): sink.on(.next(element))
          case .completed: sink.on(.completed)
          }
        })
      return sink
    }
    return Infallible(source)
  }
}

extension InfallibleType {
  /// Subscribes closures to the elements, the completion and the disposal.
  ///
  /// ```swift
  /// _ = Infallible.of(1, 2).subscribe(onNext: { print($0) }, onCompleted: { print("done") })
  /// // Prints "1", "2", "done"
  /// ```
  ///
  /// After completion or disposal no closure but `onDisposed` runs, and it runs once.
  ///
  /// Closures written in actor-isolated code are checked to run on that actor, as with
  /// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``.
  ///
  /// - Returns: A disposable that ends the subscription.
  public func subscribe(
    onNext: ((Element) -> Void)? = nil,
    onCompleted: (() -> Void)? = nil,
    onDisposed: (() -> Void)? = nil,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().subscribe(
      onNext: onNext, onError: { error in infallibleFailed(error) }, onCompleted: onCompleted,
      onDisposed: onDisposed, isolation: isolation, file: file, line: line)
  }

  /// Subscribes closures that receive `object` (held weakly) along with each event.
  ///
  /// ```swift
  /// titles.subscribe(with: self, onNext: { owner, title in owner.title = title })
  /// ```
  ///
  /// Once `object` is gone the closures are no longer called.
  ///
  /// Closures written in actor-isolated code are checked to run on that actor, as with
  /// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``.
  public func subscribe<Object: AnyObject>(
    with object: Object,
    onNext: ((Object, Element) -> Void)? = nil,
    onCompleted: ((Object) -> Void)? = nil,
    onDisposed: ((Object) -> Void)? = nil,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    let caller = CallerIsolation(isolation, api: "subscribe(with:)", file: file, line: line)
    let onNext = caller.guarding(onNext)
    let onCompleted = caller.guarding(onCompleted)
    let onDisposed = caller.guarding(onDisposed)
    return subscribe(
      onNext: { [weak object] element in
        guard let object else { return }
        onNext?(object, element)
      },
      onCompleted: { [weak object] in
        guard let object else { return }
        onCompleted?(object)
      },
      onDisposed: { [weak object] in
        guard let object else { return }
        onDisposed?(object)
      }, isolation: nil, file: file, line: line)
  }

  /// Subscribes a closure to every event (never `.error`).
  ///
  /// ```swift
  /// _ = Infallible.just(1).subscribe { event in print(event) }
  /// // Prints "next(1)", "completed"
  /// ```
  ///
  /// Closures written in actor-isolated code are checked to run on that actor, as with
  /// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``.
  public func subscribe(
    _ on: @escaping (Event<Element>) -> Void, isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().subscribe(on, isolation: isolation, file: file, line: line)
  }
}

/// Stops the program when an error reaches an `Infallible`: only possible if code outside
/// Streams wraps a failing sequence in one, which the public API does not allow.
func infallibleFailed(_ error: any Error) -> Never {
  streamsStop("Streams: an Infallible sequence failed with \(error)")
}
