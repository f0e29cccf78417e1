/// `zip` for `Maybe`: subscribes to every source at once and emits the combination of their first
/// elements.
///
/// Kept apart from the core `Observable.zip` (which `Single.zip` uses) for one difference: a
/// `Maybe` that completes empty completes this result at once, disposing the other sources. The
/// core `zip`, like RxSwift's, waits: for `ys` completing empty at 230 and `xs` succeeding at 300,
/// it completes at 300 and keeps `xs` subscribed until then (`Maybe.zip`'s tests expect 230).
///
/// Sources are type-erased to `Any` inside the sink so that one implementation serves every arity;
/// the typed `resultSelector` built by the caller casts them back. The result:
/// - emits `resultSelector(firsts)` and completes once every source has emitted an element (a
///   trait source emits at most one);
/// - completes without an element as soon as a source completes without having emitted one
///   (a `Maybe` that is empty);
/// - fails with the first error, or when `resultSelector` throws.
/// Each source's subscription is disposed when that source terminates.
enum TraitZip {
  /// Subscribes one source with an observer of type-erased events.
  typealias Subscribe = (AnyObserver<Any>) -> any Disposable

  /// Erases `source` for ``zip(_:upstreams:file:line:resultSelector:)``.
  static func erase<Element>(_ source: Observable<Element>) -> Subscribe {
    { observer in source.subscribeAny(AnyObserver { event in observer.on(event.map { $0 }) }) }
  }

  private struct State {
    var values: [Any?]
    var remaining: Int
  }

  static func zip<Result>(
    _ sources: [Subscribe], upstreams: [UInt64], file: StaticString, line: UInt,
    resultSelector: @escaping ([Any]) throws -> Result
  ) -> Observable<Result> {
    Observable(kind: "zip", upstreams: upstreams, file: file, line: line) { observer in
      let sink = GuardedSink(observer)
      guard !sources.isEmpty else {
        do { sink.on(.next(try resultSelector([]))) } catch { sink.on(.error(error)) }
        sink.on(.completed)
        return sink
      }
      let subscriptions = sources.map { _ in SingleAssignmentDisposable() }
      sink.setUpstream(Disposables.create(subscriptions))
      let state = Locked(
        State(values: Array(repeating: nil, count: sources.count), remaining: sources.count))
      for (index, subscribe) in sources.enumerated() {
        subscriptions[index].setDisposable(
          subscribe(
            AnyObserver { event in
              switch event {
              case .next(let value):
                let complete = state.withLock { state -> [Any]? in
                  guard state.values[index] == nil else { return nil }
                  state.values[index] = value
                  state.remaining -= 1
                  return state.remaining == 0 ? state.values.map { $0! } : nil
                }
                guard let complete else { return }
                do {
                  sink.on(.next(try resultSelector(complete)))
                  sink.on(.completed)
                } catch {
                  sink.on(.error(error))
                }
              case .error(let error): sink.on(.error(error))
              case .completed:
                subscriptions[index].dispose()
                let empty = state.withLock { $0.values[index] == nil }
                if empty { sink.on(.completed) }
              }
            }))
      }
      return sink
    }
  }
}
