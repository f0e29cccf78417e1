/// Flattening for ``Infallible`` and the shared sequences (`Driver`, `Signal`): `flatMap` (merge)
/// and `flatMapLatest` (switch). The `Observable` operators of the same names live elsewhere;
/// these small versions keep the traits independent of them.
///
/// Both expect the usual contract: the source and each inner sequence call their observer
/// serially. Events of different inner sequences are forwarded as they come; no lock is held
/// while forwarding.
enum TraitFlatten {
  /// Subscribes to `selector(element)` for every element and merges what they emit.
  ///
  /// Completes when the source and every inner sequence have completed; fails with the first
  /// error. Disposal disposes the source and every inner subscription.
  static func merge<Element, Result>(
    _ source: Observable<Element>, file: StaticString, line: UInt,
    _ selector: @escaping (Element) throws -> Observable<Result>
  ) -> Observable<Result> {
    Observable(kind: "flatMap", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      let group = CompositeDisposable()
      sink.setUpstream(group)
      let outer = SingleAssignmentDisposable()
      _ = group.insert(outer)
      let running = AtomicCounter()
      running.increment()
      let finish = {
        if running.decrement() == 0 { sink.on(.completed) }
      }
      outer.setDisposable(
        source.subscribeAny(
          AnyObserver { event in
            switch event {
            case .next(let element):
              guard sink.isActive else { return }
              let next: Observable<Result>
              do { next = try selector(element) } catch { return sink.on(.error(error)) }
              running.increment()
              let inner = SingleAssignmentDisposable()
              guard let key = group.insert(inner) else { return }
              inner.setDisposable(
                next.subscribeAny(
                  AnyObserver { event in
                    switch event {
                    case .next, .error: sink.on(event)
                    case .completed:
                      group.remove(for: key)
                      finish()
                    }
                  }))
            case .error(let error): sink.on(.error(error))
            case .completed:
              outer.dispose()
              finish()
            }
          }))
      return sink
    }
  }

  private struct SwitchState {
    var latest = 0
    var innerActive = false
    var sourceDone = false
  }

  /// Subscribes to `selector(element)` for every element, disposing the previous inner
  /// subscription, and forwards only the latest inner sequence.
  ///
  /// Completes when the source and the latest inner sequence have completed; fails with the first
  /// error of the source or the latest inner sequence. Disposal disposes both.
  static func switchLatest<Element, Result>(
    _ source: Observable<Element>, file: StaticString, line: UInt,
    _ selector: @escaping (Element) throws -> Observable<Result>
  ) -> Observable<Result> {
    Observable(kind: "flatMapLatest", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      let outer = SingleAssignmentDisposable()
      let inner = SerialDisposable()
      sink.setUpstream(Disposables.create(outer, inner))
      let state = Locked(SwitchState())
      outer.setDisposable(
        source.subscribeAny(
          AnyObserver { event in
            switch event {
            case .next(let element):
              guard sink.isActive else { return }
              let next: Observable<Result>
              do { next = try selector(element) } catch { return sink.on(.error(error)) }
              let id = state.withLock { state -> Int in
                state.latest += 1
                state.innerActive = true
                return state.latest
              }
              let subscription = SingleAssignmentDisposable()
              inner.disposable = subscription
              subscription.setDisposable(
                next.subscribeAny(
                  AnyObserver { event in
                    let isLatest = state.withLock { state -> Bool in
                      guard state.latest == id else { return false }
                      if case .completed = event { state.innerActive = false }
                      return true
                    }
                    guard isLatest else { return }
                    switch event {
                    case .next, .error: sink.on(event)
                    case .completed:
                      subscription.dispose()
                      if state.withLock({ $0.sourceDone }) { sink.on(.completed) }
                    }
                  }))
            case .error(let error): sink.on(.error(error))
            case .completed:
              outer.dispose()
              let done = state.withLock { state -> Bool in
                state.sourceDone = true
                return !state.innerActive
              }
              if done { sink.on(.completed) }
            }
          }))
      return sink
    }
  }
}
