/// The conversions that check how many elements a sequence has: `asSingle` and `asMaybe`.
///
/// The core has no operator with this behaviour: `single()` emits the element as soon as it
/// arrives, whereas these hold it until the source completes, as RxSwift's `asSingle()` does.
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
}
