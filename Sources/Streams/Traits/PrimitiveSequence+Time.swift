extension PrimitiveSequence {
  /// Fails with ``RxError/timeout`` when the source does not terminate within `dueTime` of the
  /// subscription, as RxSwift's `timeout(_:scheduler:)` on a trait.
  ///
  /// ```swift
  /// let user = api.user().timeout(.seconds(10), scheduler: MainScheduler.instance)
  /// // api.user():  ------------(u|)
  /// // result:      ----------#          (# = RxError.timeout at 10 s)
  /// ```
  ///
  /// Succeeds, completes and fails as the source does if that happens in time. On a timeout the
  /// source subscription is disposed and the error is emitted on `scheduler`. Disposal disposes
  /// the source and cancels the timer.
  ///
  /// - Parameters:
  ///   - dueTime: The longest wait allowed for the source's event.
  ///   - scheduler: Runs the timer.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func timeout(
    _ dueTime: RxTimeInterval, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(raw: source.timeout(dueTime, scheduler: scheduler, file: file, line: line))
  }

  /// Switches to `other` when the source does not terminate within `dueTime` of the
  /// subscription, as RxSwift's `timeout(_:other:scheduler:)` on a trait.
  ///
  /// ```swift
  /// let user = api.user().timeout(.seconds(5), other: cache.user(), scheduler: MainScheduler.instance)
  /// // api.user():   --------(u|)
  /// // cache.user(): -(c|)
  /// // result:       ------(c|)      (switched at 5 s)
  /// ```
  ///
  /// Until the timeout the result is the source; at the timeout the source subscription is
  /// disposed and `other` is subscribed on `scheduler`, and the result then succeeds, completes
  /// and fails as `other` does. Disposal disposes whichever is subscribed and cancels the timer.
  ///
  /// - Parameters:
  ///   - dueTime: The longest wait allowed for the source's event.
  ///   - other: The sequence to continue with after a timeout.
  ///   - scheduler: Runs the timer and the subscription to `other`.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func timeout(
    _ dueTime: RxTimeInterval, other: PrimitiveSequence<Trait, Element>,
    scheduler: any SchedulerType, file: StaticString = #fileID, line: UInt = #line
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(
      raw: source.timeout(
        dueTime, other: other.source, scheduler: scheduler, file: file, line: line)
    )
  }

  /// Subscribes to the source only after `dueTime`, as RxSwift's `delaySubscription` on a trait.
  ///
  /// ```swift
  /// let retryLater = api.user().delaySubscription(.seconds(3), scheduler: MainScheduler.instance)
  /// // source (cold): -(u|)      result: ----(u|)
  /// ```
  ///
  /// The subscription happens on `scheduler`; the result then succeeds, completes and fails as
  /// the source does. Disposing before `dueTime` cancels the subscription; disposing later
  /// disposes the source subscription.
  ///
  /// - Parameters:
  ///   - dueTime: How long to wait before subscribing.
  ///   - scheduler: Runs the timer and the subscription.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func delaySubscription(
    _ dueTime: RxTimeInterval, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(
      raw: source.delaySubscription(dueTime, scheduler: scheduler, file: file, line: line))
  }
}

extension PrimitiveSequence where Element: Sendable {
  /// Shifts the success (or the empty completion) later by `dueTime`, as RxSwift's `delay` on a
  /// trait.
  ///
  /// ```swift
  /// // source:     -(1|)
  /// // delay(2):   ---(1|)
  /// _ = Single.just(1).delay(.seconds(2), scheduler: MainScheduler.instance)
  ///   .subscribe(onSuccess: { print($0) })
  /// // Prints "1" two seconds later
  /// ```
  ///
  /// The element and the completion are emitted on `scheduler`, `dueTime` after they arrived; a
  /// failure is forwarded at once (see ``ObservableType/delay(_:scheduler:file:line:)``). The
  /// source subscription is disposed as soon as the source terminates. Disposal disposes the
  /// source and cancels the timer.
  ///
  /// - Parameters:
  ///   - dueTime: How much later the success or completion is emitted.
  ///   - scheduler: Runs the timer; the events are emitted on it (hence `Element: Sendable`).
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func delay(
    _ dueTime: RxTimeInterval, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(raw: source.delay(dueTime, scheduler: scheduler, file: file, line: line))
  }
}

extension PrimitiveSequence where Element: FixedWidthInteger & Sendable {
  /// Succeeds with 0 after `dueTime`, as RxSwift's `Single.timer` / `Maybe.timer`.
  ///
  /// ```swift
  /// _ = Single<Int>.timer(.seconds(2), scheduler: MainScheduler.instance)
  ///   .subscribe(onSuccess: { print($0) })
  /// // Prints "0" after two seconds
  /// // timer(3):  ---(0|)
  /// ```
  ///
  /// Emits 0 and completes on `scheduler`; never fails. Disposal cancels the timer.
  ///
  /// - Parameters:
  ///   - dueTime: The time before the element.
  ///   - scheduler: Runs the timer; the element is emitted on it.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public static func timer(
    _ dueTime: RxTimeInterval, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(
      raw: Observable<Element>.timer(dueTime, scheduler: scheduler, file: file, line: line))
  }
}
