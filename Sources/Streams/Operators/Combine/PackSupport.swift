/// Erased access to heterogeneous sources (the parameter packs of `combineLatest` and `zip`).
enum PackSupport {
  /// A source of any element type, its elements boxed as `Any`.
  struct Erased {
    /// Subscribes the source.
    let subscribe: CombineSink<Any, Never>.Subscriber
    /// The source's trace id.
    let traceID: UInt64
  }

  /// Erases `source`'s element type.
  static func erase<Source: ObservableType>(_ source: Source) -> Erased {
    let observable = source.asObservable()
    return Erased(
      subscribe: { observer in
        observable.subscribeAny(AnyObserver { event in observer.on(event.map { $0 as Any }) })
      }, traceID: observable.traceID)
  }
}
