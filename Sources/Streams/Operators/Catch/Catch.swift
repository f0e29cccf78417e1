extension ObservableType {
  /// Continues a failed sequence with the sequence `handler` returns for the error.
  ///
  /// ```swift
  /// struct Failure: Error {}
  /// let failing = Observable<Int>.create { observer in
  ///   observer.onNext(1)
  ///   observer.onError(Failure())
  ///   return Disposables.create()
  /// }
  /// _ = failing.catch { _ in Observable.of(8, 9) }.subscribe(onNext: { print($0) })
  /// // Prints "1", "8", "9"
  /// ```
  ///
  /// Marble: `-1-2-X` with `handler` returning `-8-9-|` gives `-1-2--8-9-|`.
  ///
  /// Completes when the source completes, or when the handler's sequence completes; fails when
  /// the handler's sequence fails or `handler` throws. The failed subscription to the source is
  /// disposed before the handler's sequence is subscribed (RxSwift subscribes first and disposes
  /// right after; both happen at the same moment). Disposal disposes whichever is subscribed.
  ///
  /// - Parameters:
  ///   - handler: Returns the sequence to continue with after an error.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: The source's elements, then, after an error, those of the handler's sequence.
  public func `catch`(
    _ handler: @escaping (any Error) throws -> Observable<Element>,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let caller = CallerIsolation(isolation, api: "catch", file: file, line: line)
    let handler = isolation == nil ? handler : caller.checked(handler)
    let source = asObservable()
    return Observable(kind: "catch", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      let current = SerialDisposable()
      sink.setUpstream(current)
      let first = SingleAssignmentDisposable()
      current.disposable = first
      first.setDisposable(
        source.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next, .completed:
              sink.on(event)
            case .error(let error):
              guard sink.isActive else { return }
              let next: Observable<Element>
              do {
                next = try handler(error)
              } catch {
                sink.on(.error(error))
                return
              }
              // Replacing `first` disposes the failed subscription before subscribing `next`. A
              // `do(onDispose:)` on it runs when its error has been delivered, after `next` was
              // subscribed: RxSwift's order, which subscribes `next` first.
              let second = SingleAssignmentDisposable()
              current.disposable = second
              second.setDisposable(next.subscribeAny(AnyObserver(eventHandler: sink.on)))
            }
          }))
      return sink
    }
  }

  /// Continues a failed sequence with `element`, then completes.
  ///
  /// ```swift
  /// _ = failingRequest.catchAndReturn([]).subscribe(onNext: { print($0) })
  /// // Prints "[]" when the request fails
  /// ```
  ///
  /// Marble: `-1-2-X` gives `-1-2-(0|)` for `catchAndReturn(0)`.
  ///
  /// Never fails: an error from the source becomes `element` followed by completion. Completes
  /// when the source completes. Either terminal event disposes the source; disposal disposes the
  /// source.
  ///
  /// - Parameters:
  ///   - element: The last element, sent instead of an error.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: The source's elements, then `element` if the source fails.
  public func catchAndReturn(
    _ element: Element,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(kind: "catchAndReturn", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      sink.setUpstream(
        source.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next, .completed:
              sink.on(event)
            case .error:
              sink.on(.next(element))
              sink.on(.completed)
            }
          }))
      return sink
    }
  }

  /// Subscribes to the sequences of `sequence` one after another, moving to the next when one
  /// fails, until one completes.
  ///
  /// ```swift
  /// let cached = Observable.catch(sequence: [network, disk, Observable.of(placeholder)])
  /// ```
  ///
  /// Marble: `-1-X` then `-2-X` then `-3-|` gives `-1--2--3-|`.
  ///
  /// Completes when one of the sequences completes, or at once if `sequence` is empty; fails
  /// with the last error when every sequence failed. The failed subscription is disposed before
  /// the next sequence is subscribed. Sequences that fail while being subscribed are moved past
  /// in a loop, so the call stack does not grow with their number. Disposal disposes the current
  /// subscription and stops the iteration. Every subscription iterates `sequence` anew.
  ///
  /// - Parameters:
  ///   - sequence: The sequences to try, in order.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: The elements of each sequence in turn, up to the first one that completes.
  public static func `catch`<Sources: Swift.Sequence>(
    sequence: Sources,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Sources.Element == Observable<Element> {
    Observable(kind: "catch(sequence:)", upstreams: [], file: file, line: line) { observer in
      var iterator = sequence.makeIterator()
      return CatchSequenceSink.run(observer) { iterator.next() }
    }
  }
}

extension ObservableType {
  /// RxSwift 5's name for ``catch(_:isolation:file:line:)``.
  @available(*, deprecated, renamed: "catch(_:)")
  public func catchError(
    _ handler: @escaping (any Error) throws -> Observable<Element>,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    self.catch(handler, isolation: isolation, file: file, line: line)
  }

  /// RxSwift 5's name for ``catchAndReturn(_:file:line:)``.
  @available(*, deprecated, renamed: "catchAndReturn(_:)")
  public func catchErrorJustReturn(
    _ element: Element,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    catchAndReturn(element, file: file, line: line)
  }

  /// RxSwift 5's name for ``catch(sequence:file:line:)``.
  @available(*, deprecated, renamed: "catch(sequence:)")
  public static func catchError<Sources: Swift.Sequence>(
    _ sequence: Sources,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Sources.Element == Observable<Element> {
    self.catch(sequence: sequence, file: file, line: line)
  }
}
