/// Sequencing for the traits: `flatMap` over a source of at most one element, `andThen` and
/// `ifEmpty(switchTo:)`.
enum TraitFlatMap {
  /// Subscribes to `selector(element)` for the source's element and forwards what it emits.
  ///
  /// Completes when both the source and the inner sequence have completed (at once if the source
  /// completes empty); fails when either fails or `selector` throws. The source subscription is
  /// disposed when the source terminates, the inner one when it terminates.
  static func flatMap<Element, Result>(
    _ source: Observable<Element>, kind: StaticString, file: StaticString, line: UInt,
    _ selector: @escaping (Element) throws -> Observable<Result>
  ) -> Observable<Result> {
    Observable(kind: kind, upstreams: [source.traceID], file: file, line: line) { observer in
      let sink = GuardedSink(observer)
      let outer = SingleAssignmentDisposable()
      let inner = SingleAssignmentDisposable()
      sink.setUpstream(Disposables.create(outer, inner))
      // Active inner sequences plus one for the source; the result completes at zero.
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
              inner.setDisposable(
                next.subscribeAny(
                  AnyObserver { event in
                    switch event {
                    case .next: sink.on(event)
                    case .error(let error): sink.on(.error(error))
                    case .completed:
                      inner.dispose()
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

  /// Subscribes to `second` once `first` completes; forwards `first`'s error. `first`'s
  /// subscription is disposed before `second` is subscribed.
  static func andThen<Result>(
    _ first: Observable<Never>, _ second: Observable<Result>, file: StaticString, line: UInt
  ) -> Observable<Result> {
    Observable(
      kind: "andThen", upstreams: [first.traceID, second.traceID], file: file, line: line
    ) { observer in
      let sink = GuardedSink(observer)
      let serial = SerialDisposable()
      sink.setUpstream(serial)
      let head = SingleAssignmentDisposable()
      serial.disposable = head
      head.setDisposable(
        first.subscribeAny(
          AnyObserver { event in
            switch event {
            case .next: break
            case .error(let error): sink.on(.error(error))
            case .completed:
              guard sink.isActive else { return }
              let tail = SingleAssignmentDisposable()
              serial.disposable = tail
              tail.setDisposable(second.subscribeAny(AnyObserver(eventHandler: sink.on)))
            }
          }))
      return sink
    }
  }

  /// Forwards the source; if it completes without an element, continues with `other`.
  static func ifEmpty<Element>(
    _ source: Observable<Element>, switchTo other: Observable<Element>, file: StaticString,
    line: UInt
  ) -> Observable<Element> {
    Observable(
      kind: "ifEmpty", upstreams: [source.traceID, other.traceID], file: file, line: line
    ) { observer in
      let sink = GuardedSink(observer)
      let serial = SerialDisposable()
      sink.setUpstream(serial)
      let head = SingleAssignmentDisposable()
      serial.disposable = head
      let sawElement = Locked(false)
      head.setDisposable(
        source.subscribeAny(
          AnyObserver { event in
            switch event {
            case .next:
              sawElement.withLock { $0 = true }
              sink.on(event)
            case .error: sink.on(event)
            case .completed:
              if sawElement.withLock({ $0 }) { return sink.on(event) }
              guard sink.isActive else { return }
              let tail = SingleAssignmentDisposable()
              serial.disposable = tail
              tail.setDisposable(other.subscribeAny(AnyObserver(eventHandler: sink.on)))
            }
          }))
      return sink
    }
  }
}
