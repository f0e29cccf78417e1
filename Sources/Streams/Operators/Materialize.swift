/// A type that stands for an ``Event``: what ``ObservableType/dematerialize(file:line:)`` accepts.
///
/// ```swift
/// let event: some EventConvertible = Event<Int>.next(1)
/// print(event.event)
/// // Prints "next(1)"
/// ```
public protocol EventConvertible {
  /// The element type of the event.
  associatedtype Element

  /// The event this value stands for.
  var event: Event<Element> { get }
}

extension Event: EventConvertible {
  /// The event itself.
  public var event: Event<Element> { self }
}

extension ObservableType {
  /// Turns every event of the source, terminal ones included, into an element.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2).materialize().subscribe(onNext: { print($0) })
  /// // Prints "next(1)", "next(2)", "completed"
  /// ```
  ///
  /// Never fails: the source's `.error(e)` becomes the element `.error(e)` followed by
  /// completion; the source's completion becomes the element `.completed` followed by
  /// completion. Disposal disposes the source.
  ///
  /// - Returns: An observable of the source's events.
  public func materialize(file: StaticString = #fileID, line: UInt = #line)
    -> Observable<Event<Element>>
  {
    let source = asObservable()
    return Observable(kind: "materialize", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      sink.setUpstream(
        source.subscribeNested(
          AnyObserver { event in
            sink.on(.next(event))
            if event.isStopEvent { sink.on(.completed) }
          }))
      return sink
    }
  }
}

extension ObservableType where Element: EventConvertible {
  /// Turns elements that are events back into the events they stand for; the inverse of
  /// ``materialize(file:line:)``.
  ///
  /// ```swift
  /// let events: [Event<Int>] = [.next(1), .completed, .next(2)]
  /// _ = Observable.from(events).dematerialize()
  ///   .subscribe(onNext: { print($0) }, onCompleted: { print("done") })
  /// // Prints "1", "done"
  /// ```
  ///
  /// Completes at the first `.completed` element or when the source completes; fails at the first
  /// `.error` element or when the source fails. Either disposes the source. Disposal disposes the
  /// source.
  ///
  /// - Returns: An observable of the events' elements.
  public func dematerialize(file: StaticString = #fileID, line: UInt = #line)
    -> Observable<Element.Element>
  {
    let source = asObservable()
    return Observable(
      kind: "dematerialize", upstreams: [source.traceID], file: file, line: line
    ) { observer in
      let sink = GuardedSink(observer)
      sink.setUpstream(
        source.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next(let element): sink.on(element.event)
            case .error(let error): sink.on(.error(error))
            case .completed: sink.on(.completed)
            }
          }))
      return sink
    }
  }
}
