extension ObservableType {
  /// Resubscribes to the source every time it fails, until it completes.
  ///
  /// ```swift
  /// _ = flakyRequest.retry().subscribe(onNext: { print($0) })
  /// ```
  ///
  /// Marble (cold source `-1-X`): `-1--1--1--1-…`, subscribed anew after every error.
  ///
  /// **This can run forever** if the source always fails. Completes when the source completes;
  /// never fails. The failed subscription is disposed (a `do(onDispose:)` on it included) before
  /// the next one is made. A source that
  /// fails while it is being subscribed is resubscribed in a loop, so the call stack does not
  /// grow. Disposal disposes the current subscription.
  ///
  /// - Returns: The source's elements, across resubscriptions, until it completes.
  public func retry(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
    let source = asObservable()
    return Observable(kind: "retry", upstreams: [source.traceID], file: file, line: line) {
      observer in
      CatchSequenceSink.run(observer) { source }
    }
  }

  /// Subscribes to the source up to `maxAttemptCount` times in all, resubscribing after each
  /// failure, until it completes.
  ///
  /// ```swift
  /// _ = flakyRequest.retry(3).subscribe(onNext: { print($0) })  // at most 3 attempts
  /// ```
  ///
  /// Marble (cold source `-1-X`, `retry(2)`): `-1--1-X`.
  ///
  /// As in RxSwift, `maxAttemptCount` counts the first subscription: `retry(1)` behaves like the
  /// source and `retry(0)` completes at once without subscribing. Completes when the source
  /// completes; fails with the last error once `maxAttemptCount` attempts failed. The failed
  /// subscription is disposed (a `do(onDispose:)` on it included) before the next one is made;
  /// synchronous failures are retried in
  /// a loop, so the call stack does not grow. Disposal disposes the current subscription.
  ///
  /// - Parameters:
  ///   - maxAttemptCount: The number of subscriptions to make at most; not negative.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: The source's elements, across resubscriptions, until it completes or runs out of
  ///   attempts.
  public func retry(_ maxAttemptCount: Int, file: StaticString = #fileID, line: UInt = #line)
    -> Observable<Element>
  {
    if maxAttemptCount < 0 {
      streamsStop("retry(_:) needs a maxAttemptCount of zero or more, got \(maxAttemptCount)")
    }
    let source = asObservable()
    return Observable(kind: "retry", upstreams: [source.traceID], file: file, line: line) {
      observer in
      var remaining = maxAttemptCount
      return CatchSequenceSink.run(observer) {
        guard remaining > 0 else { return nil }
        remaining -= 1
        return source
      }
    }
  }

  /// Resubscribes to the source after a failure whenever the sequence made by
  /// `notificationHandler` emits.
  ///
  /// ```swift
  /// let retried = request.retry { (errors: Observable<NetworkError>) in
  ///   errors.enumerated().flatMap { attempt, error -> Observable<Int> in
  ///     attempt < 3
  ///       ? Observable<Int>.timer(.seconds(attempt + 1), scheduler: MainScheduler.instance)
  ///       : Observable.error(error)
  ///   }
  /// }
  /// ```
  ///
  /// Marble (cold source `-1-X`, a trigger that emits two ticks after each error):
  /// `-1---1---1-…`.
  ///
  /// `notificationHandler` is called once per subscription with an observable of the source's
  /// errors, and its result (the trigger) is subscribed before the source. When the source fails
  /// with a `Failure`, the failed subscription is disposed (a `do(onDispose:)` on it included)
  /// and the error is sent to the errors
  /// observable; the next element of the trigger then resubscribes to the source. Elements the
  /// trigger emits while no failure is waiting are ignored.
  ///
  /// Completes when the source completes, or when the trigger completes: at once if a failure is
  /// waiting, otherwise at the next failure (RxSwift's order). Fails when the trigger fails
  /// (likewise at once or at the next failure), or at once when the source fails with an error
  /// that is not a `Failure`. Synchronous failures are retried in a loop, so the call stack does
  /// not grow. Disposal disposes the current source subscription and the trigger.
  ///
  /// A failure is handled the same way whether the source fails while it is being subscribed or
  /// later. RxSwift differs for a source that fails synchronously: a trigger that completes right
  /// after its element, such as `errors.take(1)`, retries such a source once in Streams and never
  /// in RxSwift (which retries an asynchronous failure once, as Streams does).
  ///
  /// - Parameters:
  ///   - notificationHandler: Turns the errors into the trigger of resubscriptions.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: The source's elements, across resubscriptions.
  public func retry<Trigger: ObservableType, Failure: Error>(
    when notificationHandler: @escaping (Observable<Failure>) -> Trigger,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(kind: "retry(when:)", upstreams: [source.traceID], file: file, line: line) {
      observer in
      RetryWhenSink<Element, Failure>.run(observer, source: source) { errors in
        notificationHandler(errors).asObservable().map { _ in () }
      }
    }
  }

  /// Resubscribes to the source after any failure whenever the sequence made by
  /// `notificationHandler` emits.
  ///
  /// ```swift
  /// let retried = request.retry { errors in errors.take(3) }  // up to 3 retries, then complete
  /// ```
  ///
  /// Marble (cold source `-1-X`, trigger `errors`): `-1--1--1-…`, resubscribed at each error.
  ///
  /// The form of ``retry(when:file:line:)`` for every error; see there for the details,
  /// including how a synchronous failure differs from RxSwift. Completes when the source or the
  /// trigger completes; fails when the trigger fails. Disposal disposes the current source
  /// subscription and the trigger.
  ///
  /// - Parameters:
  ///   - notificationHandler: Turns the errors into the trigger of resubscriptions.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  /// - Returns: The source's elements, across resubscriptions.
  public func retry<Trigger: ObservableType>(
    when notificationHandler: @escaping (Observable<any Error>) -> Trigger,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(kind: "retry(when:)", upstreams: [source.traceID], file: file, line: line) {
      observer in
      RetryWhenSink<Element, any Error>.run(observer, source: source) { errors in
        notificationHandler(errors).asObservable().map { _ in () }
      }
    }
  }
}

extension ObservableType {
  /// RxSwift 5's name for
  /// ``ObservableType/retry(when:file:line:)-((Observable<Failure>)->Trigger,_,_)``.
  @available(*, deprecated, renamed: "retry(when:)")
  public func retryWhen<Trigger: ObservableType, Failure: Error>(
    _ notificationHandler: @escaping (Observable<Failure>) -> Trigger,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    retry(when: notificationHandler, file: file, line: line)
  }

  /// RxSwift 5's name for
  /// ``ObservableType/retry(when:file:line:)-((Observable<Error>)->Trigger,_,_)``, for every error.
  @available(*, deprecated, renamed: "retry(when:)")
  public func retryWhen<Trigger: ObservableType>(
    _ notificationHandler: @escaping (Observable<any Error>) -> Trigger,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    retry(when: notificationHandler, file: file, line: line)
  }
}
