/// Per-element transforms the traits need that are not in the core: `compactMap` and
/// `distinctUntilChanged`.
enum TraitTransform {
  /// Forwards `transform(element)` when it is not `nil`; a throw becomes `.error`.
  static func compactMap<Element, Result>(
    _ source: Observable<Element>, file: StaticString, line: UInt,
    _ transform: @escaping (Element) throws -> Result?
  ) -> Observable<Result> {
    Observable(kind: "compactMap", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      sink.setUpstream(
        source.subscribeAny(
          AnyObserver { event in
            switch event {
            case .next(let element):
              guard sink.isActive else { return }
              do {
                if let result = try transform(element) { sink.on(.next(result)) }
              } catch {
                sink.on(.error(error))
              }
            case .error(let error): sink.on(.error(error))
            case .completed: sink.on(.completed)
            }
          }))
      return sink
    }
  }

  /// Forwards an element only when `isEqual` says it differs from the previous one forwarded
  /// (compared by the keys `keySelector` picks); a throw becomes `.error`.
  static func distinctUntilChanged<Element, Key>(
    _ source: Observable<Element>, file: StaticString, line: UInt,
    keySelector: @escaping (Element) throws -> Key,
    isEqual: @escaping (Key, Key) throws -> Bool
  ) -> Observable<Element> {
    Observable(
      kind: "distinctUntilChanged", upstreams: [source.traceID], file: file, line: line
    ) { observer in
      let sink = GuardedSink(observer)
      let previous = Locked<Key?>(nil)
      sink.setUpstream(
        source.subscribeAny(
          AnyObserver { event in
            guard case .next(let element) = event else { return sink.on(event) }
            guard sink.isActive else { return }
            do {
              let key = try keySelector(element)
              let last = previous.withLock { $0 }
              if let last, try isEqual(last, key) { return }
              previous.withLock { $0 = key }
              sink.on(event)
            } catch {
              sink.on(.error(error))
            }
          }))
      return sink
    }
  }
}
