/// The raw sources behind the traits' factory methods (`Single.just`, `Maybe.empty`, ...).
///
/// They live here, apart from the `Observable` creation operators, so that the traits do not
/// depend on them; each is a node of the trace graph with its own kind.
enum TraitSources {
  /// Emits `element`, then completes.
  static func just<Element>(
    _ element: Element, file: StaticString, line: UInt
  ) -> Observable<Element> {
    Observable(kind: "just", upstreams: [], file: file, line: line) { observer in
      observer.on(.next(element))
      observer.on(.completed)
      return Disposables.create()
    }
  }

  /// Emits `element`, then completes, both from one action on `scheduler`.
  static func just<Element: Sendable>(
    _ element: Element, scheduler: any ImmediateSchedulerType, file: StaticString, line: UInt
  ) -> Observable<Element> {
    Observable(kind: "just", upstreams: [], file: file, line: line) { observer in
      let sink = GuardedSink(observer)
      let target = SendableSink(sink)
      sink.setUpstream(
        scheduler.schedule(element) { element in
          target.sink.on(.next(element))
          target.sink.on(.completed)
          return Disposables.create()
        })
      return sink
    }
  }

  /// Completes at once.
  static func empty<Element>(file: StaticString, line: UInt) -> Observable<Element> {
    Observable(kind: "empty", upstreams: [], file: file, line: line) { observer in
      observer.on(.completed)
      return Disposables.create()
    }
  }

  /// Fails with `error` at once.
  static func error<Element>(
    _ error: any Error, file: StaticString, line: UInt
  ) -> Observable<Element> {
    Observable(kind: "error", upstreams: [], file: file, line: line) { observer in
      observer.on(.error(error))
      return Disposables.create()
    }
  }

  /// Never emits anything.
  static func never<Element>(file: StaticString, line: UInt) -> Observable<Element> {
    Observable(kind: "never", upstreams: [], file: file, line: line) { _ in
      Disposables.create()
    }
  }

  /// Calls `factory` for every subscription and subscribes to what it returns; a throw becomes
  /// `.error`.
  static func deferred<Element>(
    file: StaticString, line: UInt, _ factory: @escaping () throws -> Observable<Element>
  ) -> Observable<Element> {
    Observable(kind: "deferred", upstreams: [], file: file, line: line) { observer in
      do {
        return try factory().subscribeAny(observer)
      } catch {
        observer.on(.error(error))
        return Disposables.create()
      }
    }
  }
}

/// Carries a ``GuardedSink`` into a `@Sendable` closure.
///
/// `@unchecked Sendable`: `GuardedSink` guards its own state (atomic flags, locked upstream); its
/// `Element` need not be `Sendable` because only the sink's reference crosses, and the elements
/// it forwards are produced on the receiving side.
struct SendableSink<Element>: @unchecked Sendable {
  let sink: GuardedSink<Element>

  init(_ sink: GuardedSink<Element>) {
    self.sink = sink
  }
}

/// Runs a closure once, on the first `dispose()`: the `onDispose`/`onDisposed` hooks of the traits,
/// whose closures RxSwift does not require to be `Sendable`.
///
/// `@unchecked Sendable`: the closure is taken out under the lock exactly once; it runs on the
/// thread that disposes, as in RxSwift.
final class OnceDisposable: Disposable, @unchecked Sendable {
  private let action: Locked<(() -> Void)?>

  init(_ action: (() -> Void)?) {
    self.action = Locked(action)
    Resources.track(self)
  }

  deinit { Resources.untrack(self) }

  func dispose() {
    let action = action.withLock { action -> (() -> Void)? in
      defer { action = nil }
      return action
    }
    action?()
  }
}
