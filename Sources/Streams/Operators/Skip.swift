extension ObservableType {
  /// Drops the first `count` elements and emits the rest.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3).skip(2).subscribe { print($0) }
  /// // Prints "next(3)", "completed"
  /// ```
  ///
  /// Completes and fails when the source does; disposal disposes the source. A negative `count`
  /// stops the program with a message naming the misuse.
  ///
  /// - Parameter count: How many elements to drop.
  @inlinable
  public func skip(_ count: Int, file: StaticString = #fileID, line: UInt = #line)
    -> Observable<Element>
  {
    precondition(count >= 0, "skip(_:): count can't be negative (got \(count))")
    let source = asObservable()
    return Observable(kind: "skip", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      var remaining = count
      sink.setUpstream(
        source.subscribeNested(
          AnyObserver { event in
            if case .next = event, remaining > 0 {
              remaining -= 1
              return
            }
            sink.on(event)
          }))
      return sink
    }
  }

  /// Drops elements while `predicate` holds, then emits every element from the first one that
  /// fails it.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3, 1).skip(while: { $0 < 2 }).subscribe { print($0) }
  /// // Prints "next(2)", "next(3)", "next(1)", "completed"
  /// ```
  ///
  /// Completes and fails when the source does; a throw from `predicate` becomes `.error` and
  /// disposes the source. `predicate` is not called again once it returned `false`. Disposal
  /// disposes the source.
  @inlinable
  public func skip(
    while predicate: @escaping (Element) throws -> Bool,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(kind: "skip(while:)", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      var skipping = true
      sink.setUpstream(
        source.subscribeNested(
          AnyObserver { event in
            if case .next(let element) = event, skipping {
              guard sink.isActive else { return }
              do {
                skipping = try predicate(element)
              } catch {
                sink.on(.error(error))
                return
              }
              if skipping { return }
            }
            sink.on(event)
          }))
      return sink
    }
  }

  /// Drops the source's elements until `other` emits an element, then emits the rest.
  ///
  /// ```swift
  /// let start = PublishSubject<Void>()
  /// let values = PublishSubject<Int>()
  /// _ = values.skip(until: start).subscribe { print($0) }
  /// values.onNext(1)
  /// start.onNext(())
  /// values.onNext(2)
  /// // Prints "next(2)"
  /// ```
  ///
  /// The source is subscribed first, then `other`; the first element of `other` ends the
  /// subscription to it. Fails when either fails. Completes when the source completes after
  /// `other` emitted; as in RxSwift, a source that completes before `other` emitted ends the
  /// subscription without any event. When `other` completes without emitting, only its
  /// subscription ends (no element will ever pass). Disposal disposes both.
  ///
  /// Events from the two sequences may come from different threads; an error from `other` is
  /// serialized with the source's elements without holding a lock during delivery (see
  /// ``take(until:file:line:)``).
  @inlinable
  public func skip<Other: ObservableType>(
    until other: Other, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    let trigger = other.asObservable()
    return Observable(
      kind: "skip(until:)", upstreams: [source.traceID, trigger.traceID], file: file, line: line
    ) { observer in
      let sink = GuardedSink(observer)
      let gate = UntilGate(sink)
      let group = CompositeDisposable()
      sink.setUpstream(group)
      group.insert(
        source.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next:
              if gate.isOpen { gate.forward(event) }
            case .error:
              gate.terminate(event)
            case .completed:
              if gate.isOpen { gate.terminate(event) } else { sink.dispose() }
            }
          }))
      let otherSubscription = SingleAssignmentDisposable()
      group.insert(otherSubscription)
      otherSubscription.setDisposable(
        trigger.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next:
              gate.open()
              otherSubscription.dispose()
            case .error(let error):
              gate.terminate(.error(error))
            case .completed:
              otherSubscription.dispose()
            }
          }))
      return sink
    }
  }

  /// Renamed ``skip(while:file:line:)``.
  @available(*, deprecated, renamed: "skip(while:)")
  public func skipWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
    skip(while: predicate)
  }

  /// Renamed ``skip(until:file:line:)``.
  @available(*, deprecated, renamed: "skip(until:)")
  public func skipUntil<Other: ObservableType>(_ other: Other) -> Observable<Element> {
    skip(until: other)
  }
}
