extension ObservableType {
  /// Emits `default` before completing when the source completes without elements.
  ///
  /// ```swift
  /// _ = Observable<Int>.empty().ifEmpty(default: 0).subscribe { print($0) }
  /// // Prints "next(0)", "completed"
  /// ```
  ///
  /// Otherwise passes the source through unchanged. Completes and fails when the source does;
  /// disposal disposes the source.
  ///
  /// - Parameters:
  ///   - default: The element emitted for an empty source.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func ifEmpty(
    default: Element, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    let fallback = `default`
    return Observable(
      kind: "ifEmpty(default:)", upstreams: [source.traceID], file: file, line: line
    ) { observer in
      let sink = GuardedSink(observer)
      var isEmpty = true
      sink.setUpstream(
        source.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next:
              isEmpty = false
              sink.on(event)
            case .error:
              sink.on(event)
            case .completed:
              if isEmpty { sink.on(.next(fallback)) }
              sink.on(.completed)
            }
          }))
      return sink
    }
  }

  /// Continues with `other` when the source completes without elements.
  ///
  /// ```swift
  /// _ = Observable<Int>.empty().ifEmpty(switchTo: .of(1, 2)).subscribe { print($0) }
  /// // Prints "next(1)", "next(2)", "completed"
  /// ```
  ///
  /// Otherwise passes the source through unchanged. `other` is subscribed only when the source
  /// completes empty; the result then completes and fails as `other` does. Fails when the source
  /// fails. Disposal disposes whichever subscription is active.
  ///
  /// - Parameters:
  ///   - other: The sequence to switch to for an empty source.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func ifEmpty(
    switchTo other: Observable<Element>, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(
      kind: "ifEmpty(switchTo:)", upstreams: [source.traceID, other.traceID], file: file,
      line: line
    ) { observer in
      let sink = GuardedSink(observer)
      let group = CompositeDisposable()
      sink.setUpstream(group)
      let fallback = SingleAssignmentDisposable()
      group.insert(fallback)
      var isEmpty = true
      group.insert(
        source.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next:
              isEmpty = false
              sink.on(event)
            case .error:
              sink.on(event)
            case .completed:
              guard isEmpty else {
                sink.on(.completed)
                return
              }
              guard sink.isActive else { return }
              fallback.setDisposable(other.subscribeAny(AnyObserver(eventHandler: sink.on)))
            }
          }))
      return sink
    }
  }
}
