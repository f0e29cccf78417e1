/// Conversions that check how many elements a sequence has: `asSingle`, `asMaybe`,
/// `ignoreElements` and `ifEmpty(default:)` as the traits need them.
enum TraitElementCount {
  /// How many elements a conversion accepts.
  enum Rule {
    /// Exactly one: none is `RxError.noElements`, a second is `RxError.moreThanOneElement`.
    case exactlyOne
    /// At most one: a second is `RxError.moreThanOneElement`.
    case atMostOne
  }

  /// Holds the element until the source completes, then emits it and completes; fails as soon as
  /// a second element arrives (disposing the source) or, for `.exactlyOne`, when the source
  /// completes empty.
  static func one<Element>(
    _ source: Observable<Element>, _ rule: Rule, kind: StaticString, file: StaticString,
    line: UInt
  ) -> Observable<Element> {
    Observable(kind: kind, upstreams: [source.traceID], file: file, line: line) { observer in
      let sink = GuardedSink(observer)
      let held = Locked<Element?>(nil)
      sink.setUpstream(
        source.subscribeAny(
          AnyObserver { event in
            switch event {
            case .next(let element):
              let isSecond = held.withLock { held -> Bool in
                if held != nil { return true }
                held = element
                return false
              }
              if isSecond { sink.on(.error(RxError.moreThanOneElement)) }
            case .error: sink.on(event)
            case .completed:
              if let element = held.withLock({ $0 }) {
                sink.on(.next(element))
                sink.on(.completed)
              } else if case .exactlyOne = rule {
                sink.on(.error(RxError.noElements))
              } else {
                sink.on(.completed)
              }
            }
          }))
      return sink
    }
  }

  /// Drops every element; forwards the terminal event.
  static func ignoreElements<Element>(
    _ source: Observable<Element>, file: StaticString, line: UInt
  ) -> Observable<Never> {
    Observable(kind: "ignoreElements", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      sink.setUpstream(
        source.subscribeAny(
          AnyObserver { event in
            switch event {
            case .next: break
            case .error(let error): sink.on(.error(error))
            case .completed: sink.on(.completed)
            }
          }))
      return sink
    }
  }

  /// Forwards the source; if it completes without an element, emits `element` first.
  static func ifEmpty<Element>(
    _ source: Observable<Element>, default element: Element, file: StaticString, line: UInt
  ) -> Observable<Element> {
    Observable(kind: "ifEmpty", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      let sawElement = Locked(false)
      sink.setUpstream(
        source.subscribeAny(
          AnyObserver { event in
            switch event {
            case .next:
              sawElement.withLock { $0 = true }
              sink.on(event)
            case .error: sink.on(event)
            case .completed:
              if !sawElement.withLock({ $0 }) { sink.on(.next(element)) }
              sink.on(.completed)
            }
          }))
      return sink
    }
  }
}
