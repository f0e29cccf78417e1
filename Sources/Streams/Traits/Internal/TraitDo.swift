/// Side effects for the traits' `do(...)`: the closures see each event before (`on...`) and after
/// (`after...`) it is forwarded.
///
/// As in RxSwift: a throw from an `on...` closure is forwarded as `.error` instead of the event; a
/// throw from an `after...` closure is forwarded as `.error` after the event (and so is dropped
/// after a terminal event); `onSubscribe` runs before and `onSubscribed` after subscribing to the
/// source; `onDispose` runs once, after the source subscription is disposed, whether the sequence
/// terminated or was disposed. A sequence that terminates during the subscription runs
/// `onDispose` after `onSubscribed`, as RxSwift does (it attaches the disposal once subscribing
/// has returned).
struct TraitDoHandlers<Element> {
  var onNext: ((Element) throws -> Void)? = nil
  var afterNext: ((Element) throws -> Void)? = nil
  var onError: ((any Error) throws -> Void)? = nil
  var afterError: ((any Error) throws -> Void)? = nil
  var onCompleted: (() throws -> Void)? = nil
  var afterCompleted: (() throws -> Void)? = nil
  var onSubscribe: (() -> Void)? = nil
  var onSubscribed: (() -> Void)? = nil
  var onDispose: (() -> Void)? = nil
}

enum TraitDo {
  static func apply<Element>(
    _ source: Observable<Element>, _ handlers: TraitDoHandlers<Element>, file: StaticString,
    line: UInt
  ) -> Observable<Element> {
    Observable(kind: "do", upstreams: [source.traceID], file: file, line: line) { observer in
      handlers.onSubscribe?()
      let sink = GuardedSink(observer)
      let onDispose = OnceDisposable(handlers.onDispose)
      // `true` once subscribing has returned; a termination before that defers `onDispose`.
      let phase = Locked((subscribed: false, finishedEarly: false))
      let finish = {
        let now = phase.withLock { phase -> Bool in
          if phase.subscribed { return true }
          phase.finishedEarly = true
          return false
        }
        if now { onDispose.dispose() }
      }
      sink.setUpstream(
        source.subscribeAny(
          AnyObserver { event in
            guard sink.isActive else { return }
            do {
              switch event {
              case .next(let element): try handlers.onNext?(element)
              case .error(let error): try handlers.onError?(error)
              case .completed: try handlers.onCompleted?()
              }
            } catch {
              sink.on(.error(error))
              finish()
              return
            }
            sink.on(event)
            do {
              switch event {
              case .next(let element): try handlers.afterNext?(element)
              case .error(let error): try handlers.afterError?(error)
              case .completed: try handlers.afterCompleted?()
              }
            } catch {
              sink.on(.error(error))
            }
            if event.isStopEvent || !sink.isActive { finish() }
          }))
      handlers.onSubscribed?()
      let finishedEarly = phase.withLock { phase -> Bool in
        phase.subscribed = true
        return phase.finishedEarly
      }
      if finishedEarly { onDispose.dispose() }
      return Disposables.create(sink, onDispose)
    }
  }
}
